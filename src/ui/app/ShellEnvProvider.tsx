import type { ReactNode } from 'react';
import { ShellEnvContext, type ShellEnv } from '../hooks/useShellEnv.ts';

/** Provides the {@link ShellEnv} (prefs stores, storage, language effects, clipboard). */
export function ShellEnvProvider({ env, children }: { env: ShellEnv; children: ReactNode }) {
  return <ShellEnvContext.Provider value={env}>{children}</ShellEnvContext.Provider>;
}
