import { createContext, useContext } from 'react';
import type { Storage } from '../../ports/types.ts';
import type { LanguageChangeDeps } from '../i18n/runtime.ts';
import type { UiPrefs } from '../theme/uiPrefs.ts';

/** Clipboard seam: the browser's `navigator.clipboard`, or a fake in tests. */
export interface ClipboardLike {
  writeText(text: string): Promise<void>;
}

/**
 * What the shell needs from the browser besides the core: UI preference stores, the Storage
 * port (trade_pair for redirects), language-change effects and the clipboard. Built once in
 * main.tsx; tests build one over fakes.
 */
export interface ShellEnv {
  prefs: UiPrefs;
  storage: Storage;
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
