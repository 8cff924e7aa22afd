/** Shown in bundles and the `env` record; keep in step with package.json "version". A module of its own so the app's start does not load the support-bundle code. */
export const APP_VERSION = '1.0.0';
