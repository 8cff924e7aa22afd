/** The two themes (SPEC §1, §4): default dark, stored under 'theme', a class on `<html>`. */
export const THEMES = ['dark', 'light'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'dark';
export const THEME_STORAGE_KEY = 'theme';

/** Any stored value other than 'light' or 'dark' gives the default. */
export function parseTheme(raw: string | null): Theme {
  return raw === 'light' || raw === 'dark' ? raw : DEFAULT_THEME;
}

/** The root class for a theme: `theme-dark` / `theme-light`. */
export function themeClass(theme: Theme): string {
  return `theme-${theme}`;
}
