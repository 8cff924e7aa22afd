import { openSync, readSync, closeSync } from 'node:fs';
import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';

/** The environment a file asks for in its docblock (`// @vitest-environment jsdom`), else its project's. */
function environmentOf(spec: TestSpecification): string {
  const head = Buffer.alloc(512);
  const fd = openSync(spec.moduleId, 'r');
  try {
    const n = readSync(fd, head, 0, head.length, 0);
    const m = /@vitest-environment\s+([\w-]+)/.exec(head.subarray(0, n).toString('utf8'));
    return m?.[1] ?? spec.project.config.environment;
  } finally {
    closeSync(fd);
  }
}

/**
 * Vitest's order (projects one after another, then the files that failed or took longest first),
 * with the files of one project and one environment kept together (issue 25). A fork that shares its
 * module graph between files (`isolate: false`) is handed the next file only if that file is of the
 * same project AND environment; otherwise the fork is stopped and a new one imports everything
 * again. Interleaved by duration, the unit project's 27 jsdom and 100 node files started 35 forks.
 */
export class EnvironmentGroupedSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const env = new Map(sorted.map((s) => [s, environmentOf(s)] as const));
    const rank = new Map<string, number>();
    for (const s of sorted) {
      const key = `${s.project.name}\u0000${env.get(s)}`;
      if (!rank.has(key)) rank.set(key, rank.size);
    }
    // a stable sort: within a group, vitest's own order stands
    return sorted
      .map((s, i) => ({ s, i, r: rank.get(`${s.project.name}\u0000${env.get(s)}`) ?? 0 }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map(({ s }) => s);
  }
}
