import { version } from '../../package.json';

/**
 * The app's one version string: package.json's "version" (the build inlines just this field; tsx
 * and vitest read it the same way). The footer's app badges, the `env` record and the support
 * bundle's header all show it (docs/ARCHITECTURE.md "Version"). A module of its own so the app's
 * start does not load the support-bundle code.
 */
export const APP_VERSION: string = version;
