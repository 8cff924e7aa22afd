import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { cruise as cruiseTree } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const fixtures = path.join(root, 'tests/fixtures/layers');
const depcruise = path.join(root, 'node_modules/.bin/depcruise');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

const config = path.join(root, '.dependency-cruiser.cjs');
const foldersOf = (dir: string) => ['src', 'server', 'replay', 'scripts', 'bench'].filter((f) => existsSync(path.join(dir, f)));

/** The command line `npm test` runs (its `err` output fails on errors), on the src, server and tool folders of `dir`. */
function runCli(dir: string) {
  return spawnSync(depcruise, [...foldersOf(dir), '--config', config, '--output-type', 'err'], { cwd: dir, encoding: 'utf8' });
}

/**
 * The violations in `dir`: dependency-cruiser's own API with the project's .dependency-cruiser.cjs,
 * in this process (one command line per tree cost ~2 s of node start-up each).
 */
async function cruise(dir: string): Promise<Violation[]> {
  const options = await extractDepcruiseOptions(config);
  const result = await cruiseTree(foldersOf(dir), { ...options, baseDir: dir, outputType: 'json' });
  const out = (typeof result.output === 'string' ? JSON.parse(result.output) : result.output) as { summary: { violations: Violation[]; totalCruised: number } };
  // A cruise that read nothing (e.g. the tool found no TypeScript it supports) must not pass as clean.
  expect(out.summary.totalCruised).toBeGreaterThan(0);
  return out.summary.violations;
}

const rules = (v: Violation[]) => [...new Set(v.map((x) => x.rule.name))].sort();

/**
 * The rules themselves, on fixture trees that break each one. The project's own tree is cruised by
 * the `layers` step of `npm test` and `npm run test:quick` (the same command with the `err`
 * output), not again here: it was this file's 60-90 s.
 */
describe('import layers (dependency-cruiser, .dependency-cruiser.cjs)', () => {
  it('a clean fixture tree passes', async () => {
    expect(await cruise(path.join(fixtures, 'clean'))).toEqual([]);
  });

  it('fails a port importing the core and a server file importing a client port (type-only imports count)', async () => {
    const dir = path.join(fixtures, 'wrong-direction');
    expect(runCli(dir).status).not.toBe(0);
    expect((await cruise(dir)).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort()).toEqual([
      'ports-import-up: src/ports/recording.ts → src/core/log.ts',
      'server-imports-client: server/hub.ts → src/ports/recording.ts',
    ]);
  });

  it('fails a cycle between two folders of the same layer', async () => {
    const v = await cruise(path.join(fixtures, 'cycle'));
    expect(rules(v)).toEqual(['no-folder-cycle']);
    expect(v.map((x) => x.from).sort()).toEqual(['src/machines', 'src/streams']);
  });

  it('fails an import cycle inside server/ (a feature importing the registry that imports it)', async () => {
    expect(rules(await cruise(path.join(fixtures, 'server-cycle')))).toEqual(['no-server-cycle']);
  });

  it('fails a src folder that no layer owns', async () => {
    const v = await cruise(path.join(fixtures, 'unplaced'));
    expect(v.map((x) => x.from)).toEqual(['src/misc/thing.ts']);
    expect(rules(v)[0]).toMatch(/^src-folder-not-in-a-layer/);
  });

  it('fails the UI importing a port, a screen folder importing another and a shared part importing a screen', async () => {
    const dir = path.join(fixtures, 'ui-floors');
    expect(runCli(dir).status).not.toBe(0);
    expect((await cruise(dir)).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort()).toEqual([
      'screen-imports-other-screen: src/ui/screens/wallet/WithdrawalScreen.ts → src/ui/screens/login/FormField.ts',
      'shared-ui-imports-screen: src/ui/components/Field.ts → src/ui/screens/login/FormField.ts',
      'ui-imports-ports: src/ui/screens/wallet/WithdrawalScreen.ts → src/ports/types.ts',
    ]);
  });

  it('fails a tool (scripts/, bench/, replay/) importing test code', async () => {
    const v = await cruise(path.join(fixtures, 'tool-imports-test'));
    expect(v.map((x) => `${x.rule.name}: ${x.from} → ${x.to}`)).toEqual(['tools-import-tests: scripts/record.ts → tests/e2e/helpers.ts']);
  });
});
