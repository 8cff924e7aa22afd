import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createActor, SimulatedClock } from 'xstate';
import { createApiClient } from '../../src/api/client.ts';
import type { CoreOutput, SessionEvent } from '../../src/machines/sessionMachine.ts';
import { provideSession } from '../../src/machines/sessionMachine.ts';
import { createMemoryStorage, createScriptedHttp, envelope } from '../../src/ports/fakes.ts';

/**
 * Random user intents against random server answers (success, error code, 401, network error).
 * After every step settles:
 * - the token is in context exactly in loggedIn/loggingOut, and storage always agrees with context;
 * - the password is held only while a login is in progress (authenticating, securityStep, loggingIn);
 * - every navigate output goes to /login?redirect=<current path>;
 * - the machine is never stuck in a pending state once the server has answered.
 */

const settle = async () => {
  for (let i = 0; i < 4; i++) await new Promise((r) => setImmediate(r));
};

const eventArb: fc.Arbitrary<SessionEvent> = fc.oneof(
  fc.constant<SessionEvent>({ type: 'user.checkAuthType', email: 'a@b.c', password: 'secret1' }),
  fc.constant<SessionEvent>({ type: 'user.sendCode' }),
  fc.constant<SessionEvent>({ type: 'user.login', code: '123456' }),
  fc.constant<SessionEvent>({ type: 'user.cancel' }),
  fc.constant<SessionEvent>({ type: 'user.logout' }),
  fc.constant<SessionEvent>({ type: 'user.resetToken' }),
  fc.constant<SessionEvent>({ type: 'user.fetchInfo' }),
  fc.constant<SessionEvent>({ type: 'user.loggedInWithToken', token: 'qr-token' }),
  fc.constant<SessionEvent>({ type: 'session.unauthorized' }),
);
const answerArb = fc.constantFrom('ok', 'fail', 'unauthorized', 'network', 'google');

describe('sessionMachine properties', () => {
  it('token, storage, password and navigation invariants hold for any intent sequence', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(fc.tuple(eventArb, answerArb), { maxLength: 25 }), async (startLoggedIn, steps) => {
        const http = createScriptedHttp();
        const storage = createMemoryStorage(startLoggedIn ? { token: 'stored' } : {});
        const outputs: CoreOutput[] = [];
        let answer = 'ok';
        let send: ((e: SessionEvent) => void) | null = null;
        const api = createApiClient({ http, onUnauthorized: () => send?.({ type: 'session.unauthorized' }), onNetworkError: () => {} });
        const reply = (data: unknown) => () => {
          switch (answer) {
            case 'fail':
              return envelope(400, 'Nope');
            case 'unauthorized':
              return envelope(401, 'Expired');
            case 'network':
              return { kind: 'networkError' as const, message: 'offline' };
            default:
              return envelope(200, 'OK', data);
          }
        };
        http.on('POST', '/user/authType', () => reply({ authType: answer === 'google' ? 'google' : 'email' })());
        http.on('POST', '/user/sendMailCode', reply(null));
        http.on('POST', '/user/login', reply({ token: 'login-token' }));
        http.on('GET', '/user/info', reply({ id: 1 }));
        http.on('GET', '/user/logout', reply(null));
        const actor = createActor(provideSession({ api, storage, location: () => '/here' }), {
          clock: new SimulatedClock(),
          input: { token: storage.get('token') },
        });
        send = actor.send;
        actor.on('*', (o) => outputs.push(o));
        actor.start();
        await settle();
        for (const [event, a] of steps) {
          answer = a;
          actor.send(event);
          await settle();
          const snap = actor.getSnapshot();
          const top = typeof snap.value === 'string' ? snap.value : Object.keys(snap.value)[0];
          expect(['authenticating', 'loggingIn', 'loggingOut']).not.toContain(top);
          expect(snap.matches({ securityStep: 'sendingCode' })).toBe(false);
          expect(snap.matches({ loggedIn: 'fetchingInfo' })).toBe(false);
          expect(snap.context.token !== null).toBe(top === 'loggedIn' || top === 'loggingOut');
          expect(storage.get('token')).toBe(snap.context.token);
          if (snap.context.password !== '') expect(top).toBe('securityStep');
        }
        for (const o of outputs) if (o.type === 'navigate') expect(o.to).toBe('/login?redirect=%2Fhere');
        actor.stop();
      }),
      { numRuns: 150 },
    );
  });
});
