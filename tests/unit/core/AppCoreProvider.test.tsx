// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { VirtualClock } from '../../../src/ports/virtualClock.ts';
import { createAppCore } from '../../../src/core/createAppCore.ts';
import type { CoreOutput } from '../../../src/machines/sessionMachine.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope } from '../../../src/ports/fakes.ts';
import { useMemo } from 'react';
import { AppCoreProvider, useAppCore, useCoreOutputs, useMarketSocket, useSession, useSessionSend } from '../../../src/ui/app/AppCoreProvider.tsx';
import { useStream } from '../../../src/ui/hooks/useStream.ts';
import { initialOrderBook } from '../../../src/streams/orderBook.ts';

function Probe({ outputs }: { outputs: CoreOutput[] }) {
  const s = useSession();
  const send = useSessionSend();
  const m = useMarketSocket();
  const market = useAppCore().streams.market;
  useStream(useMemo(() => market.book$('BTCUSDT'), [market]), initialOrderBook('BTCUSDT'));
  useCoreOutputs((o) => outputs.push(o));
  return (
    <div>
      <span data-testid="status">{s.status}</span>
      <span data-testid="socket">{`${m.status}:${String(m.connected)}`}</span>
      <button onClick={() => send({ type: 'user.resetToken' })}>reset</button>
    </div>
  );
}

describe('AppCoreProvider', () => {
  it('exposes session and socket slices, topics and outputs to components', async () => {
    const clock = new VirtualClock(0);
    const http = createScriptedHttp();
    http.on('GET', '/user/info', envelope(200, 'ok', { id: 1 }));
    const socket = createScriptedSocketFactory();
    const core = createAppCore(
      { clock, http, socket, storage: createMemoryStorage({ token: 't' }), random: { id: () => 'x' } },
      { location: () => '/' },
    );
    const outputs: CoreOutput[] = [];
    render(
      <AppCoreProvider core={core}>
        <Probe outputs={outputs} />
      </AppCoreProvider>,
    );
    // The book reader's topic goes out after the render's synchronous work (one batch per commit).
    await act(async () => {});
    expect(core.market.getSnapshot().context.topics).toEqual({ 'btcusdt@depth': 1 });
    expect(screen.getByTestId('status').textContent).toBe('loggedIn');
    expect(screen.getByTestId('socket').textContent).toBe('connecting:false');
    act(() => socket.sockets[0]?.open());
    expect(screen.getByTestId('socket').textContent).toBe('open:true');
    expect(socket.sockets[0]?.sent).toEqual(['{"action":"subscribe","topics":["btcusdt@depth"]}']);
    // A 401 drops the session: the components see the guest and the core's navigate output.
    act(() => core.session.send({ type: 'session.unauthorized' }));
    expect(screen.getByTestId('status').textContent).toBe('guest');
    expect(outputs).toEqual([{ type: 'navigate', to: '/login?redirect=%2F' }]);
    act(() => screen.getByText('reset').click());
    expect(screen.getByTestId('status').textContent).toBe('guest');
    core.stop();
  });
});
