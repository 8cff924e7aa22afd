import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { checkLayers, importsOf, layerOf } from '../../scripts/check-layers.ts';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/layers');

describe('import layers (scripts/check-layers.ts)', () => {
  it('the project itself follows protocol ← ports ← domain ← core ← ui with no folder cycle', () => {
    expect(checkLayers(path.resolve(import.meta.dirname, '../..'))).toEqual([]);
  });

  it('a clean fixture tree passes', () => {
    expect(checkLayers(path.join(fixtures, 'clean'))).toEqual([]);
  });

  it('fails a port importing the core and a server file importing a client port', () => {
    const problems = checkLayers(path.join(fixtures, 'wrong-direction'));
    expect(problems).toHaveLength(2);
    expect(problems.find((p) => p.startsWith('src/ports/recording.ts (ports) imports src/core/log.ts (core)'))).toBeDefined();
    expect(problems.find((p) => p.startsWith('server/hub.ts (server) imports src/ports/recording.ts'))).toBeDefined();
  });

  it('fails a cycle between two folders of the same layer', () => {
    const problems = checkLayers(path.join(fixtures, 'cycle'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^import cycle between folders src\/machines → src\/streams → src\/machines/);
  });

  it('fails a src folder that no layer owns', () => {
    expect(checkLayers(path.join(fixtures, 'unplaced'))).toEqual([
      'src/misc/thing.ts: not in any layer (add its folder to LAYERS in scripts/check-layers.ts)',
    ]);
  });

  it('reads type-only imports, re-exports and literal dynamic imports, never comments or strings', () => {
    const text = [
      "import type { A } from './a.ts';",
      "export { B } from '../b.ts';",
      "const c = import('./c.ts');",
      "// import { D } from './d.ts';",
      "const s = \"import { E } from './e.ts'\";",
      "import { z } from 'zod';",
    ].join('\n');
    expect(importsOf(text).sort()).toEqual(['../b.ts', './a.ts', './c.ts']);
  });

  it('places src/format with protocol and src/api with ports', () => {
    expect(layerOf('src/format/number.ts')?.name).toBe('protocol');
    expect(layerOf('src/api/client.ts')?.name).toBe('ports');
    expect(layerOf('src/main.tsx')?.name).toBe('ui');
    expect(layerOf('server/app.ts')).toBeNull();
  });
});
