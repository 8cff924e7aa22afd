/**
 * What the UI's own presentation preferences (theme, kline colours: src/ui/theme/uiPrefs.ts;
 * language: src/ui/i18n/runtime.ts) need of a key-value store. They live outside the replayable
 * core, so the composition root (src/main.tsx) hands them the browser's Storage port, which has
 * this shape; the UI itself never imports the ports (the dependency-cruiser rule `ui-imports-ports`):
 * everything else it stores goes through the core.
 */
export interface PrefsStorage {
  get(key: string): string | null;
  set(key: string, value: string): void;
}
