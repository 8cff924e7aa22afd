import { createContext, useContext, useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { Observable } from 'rxjs';
import type { ApiClient } from '../../api/client.ts';
import type { AppCore } from '../../core/createAppCore.ts';
import type { CoreOutput, SessionContext, SessionEvent } from '../../machines/sessionMachine.ts';
import type { InboundFrame, SocketStatus } from '../../machines/socketMachine.ts';
import type { AuthType, UserInfo } from '../../protocol/user.ts';

/**
 * The React facade over the app core (docs/ARCHITECTURE.md "How React attaches"). Components read
 * small slices with `useSelector` and send intents; they never touch ports. The core is built once
 * by the composition root (main.tsx) or by a test, and passed in.
 */

const CoreContext = createContext<AppCore | null>(null);

export function AppCoreProvider({ core, children }: { core: AppCore; children?: ReactNode }) {
  return <CoreContext.Provider value={core}>{children}</CoreContext.Provider>;
}

/** The core given to the nearest AppCoreProvider; throws (programmer error) outside one. */
export function useAppCore(): AppCore {
  const core = useContext(CoreContext);
  if (!core) throw new Error('useAppCore: no <AppCoreProvider> above this component');
  return core;
}

export type SessionStatusName = 'guest' | 'authenticating' | 'securityStep' | 'loggingIn' | 'loggedIn' | 'loggingOut';

export interface SessionView {
  status: SessionStatusName;
  loggedIn: boolean;
  token: string | null;
  userInfo: UserInfo | null;
  authType: AuthType | null;
  email: string;
  error: string | null;
  /** A user-started request is in flight (check, send code, login, logout). */
  pending: boolean;
  /** The login email code was sent in this security step. */
  codeSent: boolean;
}

export type { SessionEvent, CoreOutput, InboundFrame };

interface SessionSnapshotLike {
  value: unknown;
  context: SessionContext;
}

function topState(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return Object.keys(value)[0] ?? 'guest';
  return 'guest';
}

/** Pure projection of a session snapshot to the view (exported for tests). */
export function selectSessionView(snap: SessionSnapshotLike): SessionView {
  const top = topState(snap.value);
  const status: SessionStatusName = top === 'init' ? 'guest' : (top as SessionStatusName);
  const sub = typeof snap.value === 'object' && snap.value !== null ? (snap.value as Record<string, unknown>)[top] : null;
  const c = snap.context;
  return {
    status,
    loggedIn: c.token !== null,
    token: c.token,
    userInfo: c.userInfo,
    authType: c.authType,
    email: c.email,
    error: c.error,
    pending:
      status === 'authenticating' || status === 'loggingIn' || status === 'loggingOut' || (status === 'securityStep' && sub === 'sendingCode'),
    codeSent: c.codeSent,
  };
}

function shallowEqual<T extends object>(a: T, b: T): boolean {
  const ka = Object.keys(a) as (keyof T)[];
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.is(a[k], b[k]));
}

export function useSession(): SessionView {
  const core = useAppCore();
  return useSelector(core.session, selectSessionView, shallowEqual);
}

export function useSessionSend(): (event: SessionEvent) => void {
  const core = useAppCore();
  return core.session.send;
}

export function useApi(): ApiClient {
  return useAppCore().api;
}

/**
 * Runs `handler` for every toast/navigate output of the core. The latest handler is used without
 * resubscribing, so an inline arrow function is fine.
 */
export function useCoreOutputs(handler: (o: CoreOutput) => void): void {
  const core = useAppCore();
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    const sub = core.outputs$.subscribe((o) => ref.current(o));
    return () => sub.unsubscribe();
  }, [core]);
}

export interface SocketView {
  connected: boolean;
  status: SocketStatus;
  attempts: number;
  lastError: string | null;
}

interface SocketSnapshotLike {
  value: unknown;
  context: { connected: boolean; attempts: number; lastError: string | null };
}

/** Pure projection of a socket snapshot (exported for tests). */
export function selectSocketView(snap: SocketSnapshotLike): SocketView {
  const top = topState(snap.value);
  const status: SocketStatus = top === 'live' ? (topState((snap.value as Record<string, unknown>).live) as SocketStatus) : top === 'init' ? 'idle' : (top as SocketStatus);
  return { connected: snap.context.connected, status, attempts: snap.context.attempts, lastError: snap.context.lastError };
}

export function useMarketSocket(): SocketView {
  return useSelector(useAppCore().market, selectSocketView, shallowEqual);
}

export function useUserSocket(): SocketView {
  return useSelector(useAppCore().user, selectSocketView, shallowEqual);
}

/** Parsed user-socket frames (for screens that reload a list on a frame). */
export function useUserFrames(): Observable<InboundFrame> {
  return useAppCore().userFrames$;
}
