import { assign, emit, fromPromise, setup } from 'xstate';
import type { ApiClient } from '../api/client.ts';
import { errorMessage } from '../api/client.ts';
import type { Envelope } from '../protocol/envelope.ts';
import type { AuthType, AuthTypeResult, LoginResult, UserInfo } from '../protocol/user.ts';
import type { Storage } from '../ports/types.ts';

/**
 * The login session (SPEC §4): guest → authenticating → securityStep → loggingIn → loggedIn →
 * loggingOut → guest. The machine itself never touches storage, HTTP or the router: HTTP calls are
 * the `fromPromise` actors below, token persistence is the `persistToken`/`forgetToken` actions,
 * and navigation/toasts are emitted outputs. {@link provideSession} wires the real implementations.
 *
 * Invariant: `context.token` is non-null exactly in `loggedIn` and `loggingOut`.
 * NOTE: the password lives in context only between `user.checkAuthType` and the end of login
 * (it is needed for the form payload) and is cleared on every exit to guest or loggedIn.
 */

export const SESSION_TOKEN_KEY = 'token';

export interface SessionContext {
  token: string | null;
  userInfo: UserInfo | null;
  authType: AuthType | null;
  email: string;
  password: string;
  codeSent: boolean;
  /** Last server message of a failed call, cleared when a new call starts. */
  error: string | null;
}

export type SessionEvent =
  | { type: 'user.checkAuthType'; email: string; password: string }
  | { type: 'user.sendCode' }
  | { type: 'user.login'; code: string }
  | { type: 'user.cancel' }
  | { type: 'user.logout' }
  | { type: 'user.resetToken' }
  | { type: 'user.fetchInfo' }
  | { type: 'user.loggedInWithToken'; token: string }
  | { type: 'session.unauthorized' };

/** One-shot outputs for the React edge: it shows toasts and navigates with the router. */
export type CoreOutput =
  | { type: 'toast'; level: 'success' | 'error' | 'info'; msg: string }
  | { type: 'navigate'; to: string };

export interface SessionInput {
  /** The token read from storage at start; non-null starts the session in `loggedIn`. */
  token: string | null;
}

const notProvided = (name: string) =>
  fromPromise<never, unknown>(async () => {
    throw new Error(`sessionMachine: actor '${name}' not provided (use provideSession)`);
  });

const guestContext = (): SessionContext => ({
  token: null,
  userInfo: null,
  authType: null,
  email: '',
  password: '',
  codeSent: false,
  error: null,
});

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    emitted: {} as CoreOutput,
  },
  actors: {
    checkAuthType: notProvided('checkAuthType') as ReturnType<
      typeof fromPromise<AuthTypeResult, { email: string; password: string }>
    >,
    sendCode: notProvided('sendCode') as ReturnType<typeof fromPromise<Envelope<unknown>, { email: string }>>,
    login: notProvided('login') as ReturnType<
      typeof fromPromise<Envelope<LoginResult>, { email: string; password: string; code: string }>
    >,
    fetchInfo: notProvided('fetchInfo') as ReturnType<typeof fromPromise<UserInfo, void>>,
    logout: notProvided('logout') as ReturnType<typeof fromPromise<Envelope<unknown>, void>>,
  },
  actions: {
    /** Persist the token (Storage port key 'token'); provided by {@link provideSession}. */
    persistToken: (_, _params: { token: string }) => {},
    /** Remove the persisted token; provided by {@link provideSession}. */
    forgetToken: () => {},
    /** Emit navigate to /login?redirect=<current path>; provided by {@link provideSession}. */
    navigateToLogin: () => {},
    resetToGuest: assign(() => guestContext()),
    clearError: assign({ error: null }),
    setError: assign({ error: (_, params: { error: unknown }) => errorMessage(params.error) }),
    toastError: emit((_, params: { error: unknown }) => ({
      type: 'toast' as const,
      level: 'error' as const,
      msg: errorMessage(params.error),
    })),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    isEmailAuth: ({ context }) => context.authType === 'email',
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ ...guestContext(), token: input.token }),
  initial: 'init',
  on: {
    // A 401 from any call, in any state: drop the token and go to login with a way back.
    'session.unauthorized': { target: '.guest', actions: ['forgetToken', 'resetToGuest', 'navigateToLogin'] },
    'user.resetToken': { target: '.guest', actions: ['forgetToken', 'resetToGuest'] },
  },
  states: {
    init: {
      always: [{ guard: 'hasToken', target: 'loggedIn' }, { target: 'guest' }],
    },
    guest: {
      on: {
        // A visitor has no session to lose: a 401 from a background call (a screen asking for a
        // user's data while the visitor browses a public page) must not send them to /login.
        'session.unauthorized': {},
        'user.checkAuthType': {
          target: 'authenticating',
          actions: assign(({ event }) => ({ email: event.email, password: event.password, error: null })),
        },
        'user.loggedInWithToken': {
          target: 'loggedIn',
          actions: [
            assign(({ event }) => ({ token: event.token, error: null })),
            { type: 'persistToken', params: ({ event }) => ({ token: event.token }) },
          ],
        },
      },
    },
    authenticating: {
      invoke: {
        src: 'checkAuthType',
        input: ({ context }) => ({ email: context.email, password: context.password }),
        onDone: {
          target: 'securityStep',
          actions: assign(({ event }) => ({ authType: event.output.authType, codeSent: false })),
        },
        onError: {
          target: 'guest',
          actions: [
            assign({ password: '' }),
            { type: 'setError', params: ({ event }) => ({ error: event.error }) },
            { type: 'toastError', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
      on: { 'user.cancel': { target: 'guest', actions: 'resetToGuest' } },
    },
    securityStep: {
      initial: 'idle',
      on: {
        'user.login': { target: 'loggingIn', actions: 'clearError' },
        'user.cancel': { target: 'guest', actions: 'resetToGuest' },
      },
      states: {
        idle: {
          on: { 'user.sendCode': { guard: 'isEmailAuth', target: 'sendingCode', actions: 'clearError' } },
        },
        sendingCode: {
          invoke: {
            src: 'sendCode',
            input: ({ context }) => ({ email: context.email }),
            onDone: {
              target: 'idle',
              actions: [
                assign({ codeSent: true }),
                emit(({ event }) => ({ type: 'toast' as const, level: 'success' as const, msg: event.output.msg })),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'setError', params: ({ event }) => ({ error: event.error }) },
                { type: 'toastError', params: ({ event }) => ({ error: event.error }) },
              ],
            },
          },
        },
      },
    },
    loggingIn: {
      invoke: {
        src: 'login',
        input: ({ context, event }) => ({
          email: context.email,
          password: context.password,
          code: event.type === 'user.login' ? event.code : '',
        }),
        onDone: {
          target: 'loggedIn',
          actions: [
            assign(({ event }) => ({ token: event.output.data.token, password: '', error: null })),
            { type: 'persistToken', params: ({ event }) => ({ token: event.output.data.token }) },
            emit(({ event }) => ({ type: 'toast' as const, level: 'success' as const, msg: event.output.msg })),
          ],
        },
        onError: {
          target: 'securityStep',
          actions: [
            { type: 'setError', params: ({ event }) => ({ error: event.error }) },
            { type: 'toastError', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
    loggedIn: {
      initial: 'fetchingInfo',
      on: {
        'user.logout': { target: 'loggingOut', actions: 'clearError' },
        'user.loggedInWithToken': {
          target: '.fetchingInfo',
          actions: [
            assign(({ event }) => ({ token: event.token })),
            { type: 'persistToken', params: ({ event }) => ({ token: event.token }) },
          ],
        },
      },
      states: {
        // NOTE: user.fetchInfo is handled only when idle, so a second request (the top bar mounting while the
        // login's own fetch runs) does not cancel the first one.
        idle: { on: { 'user.fetchInfo': { target: 'fetchingInfo' } } },
        fetchingInfo: {
          invoke: {
            src: 'fetchInfo',
            onDone: { target: 'idle', actions: assign(({ event }) => ({ userInfo: event.output })) },
            onError: {
              target: 'idle',
              actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    loggingOut: {
      invoke: {
        src: 'logout',
        onDone: { target: 'guest', actions: ['forgetToken', 'resetToGuest', 'navigateToLogin'] },
        onError: {
          target: 'loggedIn.idle',
          actions: [
            { type: 'setError', params: ({ event }) => ({ error: event.error }) },
            { type: 'toastError', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
  },
});

export type SessionLogic = typeof sessionMachine;

export interface SessionDeps {
  api: ApiClient;
  storage: Storage;
  /** Current path + search of the app, for `/login?redirect=...` (a port: never `window` here). */
  location: () => string;
}

/** The login route with a way back to `path` (SPEC §2 top bar, §4 logout and 401). */
export function loginRedirect(path: string): string {
  return `/login?redirect=${encodeURIComponent(path)}`;
}

/** The session machine with real implementations: HTTP through `api`, token in `storage`. */
export function provideSession(deps: SessionDeps): SessionLogic {
  const { api, storage } = deps;
  return sessionMachine.provide({
    actors: {
      checkAuthType: fromPromise(({ input, signal }) =>
        api.post<AuthTypeResult>('/user/authType', input, { signal }),
      ),
      sendCode: fromPromise(({ input, signal }) =>
        api.request<unknown>({ method: 'POST', path: '/user/sendMailCode', body: { email: input.email, type: 'login' } }, signal),
      ),
      login: fromPromise(({ input, signal }) =>
        api.request<LoginResult>({ method: 'POST', path: '/user/login', body: input, form: true }, signal),
      ),
      fetchInfo: fromPromise(({ signal }) => api.get<UserInfo>('/user/info', undefined, signal)),
      logout: fromPromise(({ signal }) => api.request<unknown>({ method: 'GET', path: '/user/logout' }, signal)),
    },
    actions: {
      persistToken: (_, params) => storage.set(SESSION_TOKEN_KEY, params.token),
      forgetToken: () => storage.remove(SESSION_TOKEN_KEY),
      navigateToLogin: emit(() => ({ type: 'navigate' as const, to: loginRedirect(deps.location()) })),
    },
  });
}

/** The top-level state name, which is what the UI shows (`useSession().status`). */
export type SessionStatus = 'init' | 'guest' | 'authenticating' | 'securityStep' | 'loggingIn' | 'loggedIn' | 'loggingOut';
