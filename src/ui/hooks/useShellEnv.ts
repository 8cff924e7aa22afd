import { createContext, useContext } from 'react';
import type { LanguageChangeDeps } from '../i18n/runtime.ts';
import type { UiPrefs } from '../theme/uiPrefs.ts';

/** Clipboard seam: the browser's `navigator.clipboard`, or a fake in tests. */
export interface ClipboardLike {
  writeText(text: string): Promise<void>;
}

/**
 * What the shell needs from the browser besides the core: UI preference stores, language-change
 * effects and the clipboard. Built once in main.tsx; tests build one over fakes. (What the screens
 * store otherwise, the last trade pair or the favourites, goes through the core.)
 */
export interface ShellEnv {
  prefs: UiPrefs;
  language: LanguageChangeDeps;
  clipboard: ClipboardLike | null;
}

export const ShellEnvContext = createContext<ShellEnv | null>(null);

/** The shell environment; throws (programmer error) outside `ShellEnvProvider`. */
export function useShellEnv(): ShellEnv {
  const env = useContext(ShellEnvContext);
  if (!env) throw new Error('useShellEnv must be used inside <ShellEnvProvider>');
  return env;
}
