/* global module */
/**
 * Import layers (docs/ARCHITECTURE.md §0), checked by dependency-cruiser: the `layers` row of
 * `npm test` (`npx depcruise src server replay scripts bench --config .dependency-cruiser.cjs`) and
 * tests/unit/layers.test.ts, which runs it on fixture trees that break each rule.
 *
 *   protocol (src/protocol, src/format) ← ports (src/ports, src/api)
 *     ← domain (src/streams, src/machines, src/indicators) ← core (src/core) ← ui (src/ui, src/main.tsx)
 *
 * A file imports only its own layer or a lower one; every src file sits in a layer; the server
 * imports from src only src/protocol and src/format; the UI imports no port (it reaches them through
 * the core), no screen folder imports another and the shared UI parts import no screen; no import
 * cycle between folders of src, and no cycle at all inside server/; the tools (replay/, scripts/, bench/) and the app import nothing
 * from tests/. Paths are relative to the directory depcruise runs in.
 */
const PROTOCOL = '^src/(protocol|format)/';
const PORTS = '^src/(ports|api)/';
const DOMAIN = '^src/(streams|machines|indicators)/';
const CORE = '^src/core/';
const UI = '^src/(ui/|main\\.tsx$)';
const PLACED = '^src/(protocol|format|ports|api|streams|machines|indicators|core|ui)/|^src/main\\.tsx$|^src/[^/]+\\.d\\.ts$';
const ORDER = 'imports go protocol ← ports ← domain ← core ← ui (docs/ARCHITECTURE.md §0)';

/** A wrong-direction rule: files of `from` never import the layers in `above`. */
const upward = (name, from, above) => ({ name, severity: 'error', comment: ORDER, from: { path: from }, to: { path: above } });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    upward('protocol-imports-up', PROTOCOL, [PORTS, DOMAIN, CORE, UI]),
    upward('ports-import-up', PORTS, [DOMAIN, CORE, UI]),
    upward('domain-imports-up', DOMAIN, [CORE, UI]),
    upward('core-imports-ui', CORE, [UI]),
    {
      name: 'ui-imports-ports',
      severity: 'error',
      comment: 'the UI reaches the ports only through the core (AppCore methods and stores); src/main.tsx, the composition root, builds them',
      from: { path: '^src/ui/' },
      to: { path: '^src/ports/' },
    },
    {
      name: 'screen-imports-other-screen',
      severity: 'error',
      comment: 'a screen folder imports no other screen folder: what two screens share lives in src/ui/components (or src/ui/hooks)',
      from: { path: '^src/ui/screens/([^/]+)/' },
      to: { path: '^src/ui/screens/', pathNot: '^src/ui/screens/$1/' },
    },
    {
      name: 'shared-ui-imports-screen',
      severity: 'error',
      comment: 'the shared UI parts (components, hooks, theme, i18n) import no screen; only the router (src/ui/app) does',
      from: { path: '^src/ui/(components|hooks|theme|i18n|styles)/' },
      to: { path: '^src/ui/screens/' },
    },
    {
      name: 'src-imports-outside-src',
      severity: 'error',
      comment: 'client code imports only src and packages (and package.json, for the app version: src/core/appVersion.ts)',
      from: { path: '^src/' },
      to: { path: '^(?!src/|package\\.json$)', dependencyTypesNot: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'npm-unknown', 'core', 'unknown', 'undetermined', 'type-only'] },
    },
    {
      name: 'src-folder-not-in-a-layer',
      severity: 'error',
      comment: 'a new top-level src folder must be placed in a layer first (.dependency-cruiser.cjs and docs/ARCHITECTURE.md §0)',
      from: { path: '^src/', pathNot: PLACED },
      to: {},
    },
    {
      name: 'src-folder-not-in-a-layer-orphan',
      severity: 'error',
      comment: 'a new top-level src folder must be placed in a layer first',
      from: { path: '^src/', pathNot: PLACED, orphan: true },
      to: {},
    },
    {
      name: 'server-imports-client',
      severity: 'error',
      comment: 'the server imports from src only src/protocol and src/format',
      from: { path: '^server/' },
      to: { path: '^src/', pathNot: PROTOCOL },
    },
    {
      name: 'tools-import-tests',
      severity: 'error',
      comment: 'the tools (replay/, scripts/, bench/) and the app never import test code: a test helper a tool needs moves to the tool side',
      from: { path: '^(src|server|replay|scripts|bench)/' },
      to: { path: '^tests/' },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'no import cycle between the top-level folders of src (src/ui, src/core, ...)',
      scope: 'folder',
      from: { path: '^src/[^/]+/?$' },
      to: { circular: true },
    },
    {
      name: 'no-server-cycle',
      severity: 'error',
      comment: 'no import cycle between the server modules',
      from: { path: '^server/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    // `import type` counts: a type-only import is still a dependency between layers.
    tsPreCompilationDeps: true,
    // Resolve `import('./x.ts')`-style specifiers (the project imports with extensions).
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
