import pkg from '../../package.json' with { type: 'json' };

/**
 * The app's one version string: package.json's "version" (the build inlines it; tsx, vitest and
 * Playwright read the same file). The footer's app badges, the `env` record and the support
 * bundle's header all show it (docs/ARCHITECTURE.md "Version"). A module of its own so the app's
 * start does not load the support-bundle code.
 */
export const APP_VERSION: string = pkg.version;
