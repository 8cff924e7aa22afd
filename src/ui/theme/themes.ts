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

/**
 * The surfaces text is drawn on in each theme (--bg, --surface, --surface-2, --surface-3,
 * --hover, --input-bg of theme.css; a unit test keeps them equal). The readable buy/sell text
 * colours are computed against all of them.
 */
export const THEME_SURFACES: Record<Theme, readonly string[]> = {
  dark: ['#0b0e14', '#12161f', '#1a1f2b', '#232a38', '#1f2532', '#161b25'],
  light: ['#f5f6f8', '#ffffff', '#f2f3f6', '#e8eaef', '#eef0f4', '#f5f6f8'],
};
