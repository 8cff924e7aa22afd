import { describe, expect, it } from 'vitest';
import { SimulatedClock, waitFor } from 'xstate';
import type { CoreOutput } from '../../../src/machines/sessionMachine.ts';
import { createAppCore } from '../../../src/core/createAppCore.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope } from '../../../src/ports/fakes.ts';
import { USER_SOCKET_CLOSE_UNAUTHORIZED } from '../../../src/protocol/market.ts';

/**
 * The server closes the user socket with 4001 when its token is revoked (logout elsewhere, password
 * reset or change) or expired: the core must run SPEC §8's 401 flow, exactly as for an envelope 401.
 */
function boot(path: string, { subscribe = true } = {}) {
  const clock = new SimulatedClock();
  clock.set(1_700_000_000_000);
  const http = createScriptedHttp();
  http.on('GET', '/user/info', envelope(200, 'ok', { id: 1, cover_email: 'a***@b.c', avatar: '' }));
  const socket = createScriptedSocketFactory();
  const storage = createMemoryStorage({ token: 'stored-1' });
  const core = createAppCore({ clock, http, socket, storage, random: { id: () => 'id' } }, { location: () => path });
  const outputs: CoreOutput[] = [];
  if (subscribe) core.outputs$.subscribe((o) => outputs.push(o));
  return { clock, socket, storage, core, outputs };
}

describe('user socket closed with 4001', () => {
  it('clears the token, navigates to /login?redirect=<path> and never reconnects the user socket', async () => {
    const { core, socket, storage, outputs, clock } = boot('/my/assets/overview?tab=spot');
    await waitFor(core.session, (s) => s.context.userInfo !== null);
    const user = socket.sockets[1];
    expect(user?.url).toBe('/api/ws/user');
    user?.open();
    user?.close(USER_SOCKET_CLOSE_UNAUTHORIZED, 'Session ended');

    expect(core.session.getSnapshot().value).toBe('guest');
    expect(storage.get('token')).toBeNull();
    expect(outputs).toContainEqual({ type: 'navigate', to: `/login?redirect=${encodeURIComponent('/my/assets/overview?tab=spot')}` });
    expect(core.user.getSnapshot().value).toBe('idle');
    clock.increment(60_000);
    expect(socket.sockets.filter((s) => s.url === '/api/ws/user')).toHaveLength(1);
    core.stop();
  });

  it('a 4001 before the shell subscribes (React not mounted yet) still reaches it: the navigation is held, not lost', async () => {
    const { core, socket, outputs } = boot('/my/dashboard', { subscribe: false });
    await waitFor(core.session, (s) => s.context.userInfo !== null);
    socket.sockets[1]?.open();
    socket.sockets[1]?.close(USER_SOCKET_CLOSE_UNAUTHORIZED, 'Session ended');
    expect(core.session.getSnapshot().value).toBe('guest');
    expect(outputs).toEqual([]);
    core.outputs$.subscribe((o) => outputs.push(o));
    expect(outputs).toEqual([{ type: 'navigate', to: `/login?redirect=${encodeURIComponent('/my/dashboard')}` }]);
    // Delivered once: a later subscriber (the shell remounted) does not navigate again.
    const later: CoreOutput[] = [];
    core.outputs$.subscribe((o) => later.push(o));
    expect(later).toEqual([]);
    core.stop();
  });

  it('any other close code keeps the session and reconnects after 10 s', async () => {
    const { core, socket, storage, clock } = boot('/market');
    await waitFor(core.session, (s) => s.context.userInfo !== null);
    socket.sockets[1]?.open();
    socket.sockets[1]?.close(1006, '');
    expect(core.session.getSnapshot().matches('loggedIn')).toBe(true);
    expect(storage.get('token')).toBe('stored-1');
    clock.increment(10_000);
    expect(socket.sockets.filter((s) => s.url === '/api/ws/user')).toHaveLength(2);
    core.stop();
  });
});
