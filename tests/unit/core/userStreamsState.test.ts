import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/api/client.ts';
import { createUserStreams } from '../../../src/core/userStreams.ts';
import type { InboundFrame } from '../../../src/machines/socketMachine.ts';
import { createScriptedHttp } from '../../../src/ports/fakes.ts';

describe('user streams state()', () => {
  it('a state taken at one record does not change with later frames (the inspector keeps states per record)', () => {
    const frames$ = new Subject<InboundFrame>();
    const api = createApiClient({ http: createScriptedHttp(), onUnauthorized: () => {}, onNetworkError: () => {} });
    const user = createUserStreams({ frames$, api, token$: new BehaviorSubject<string | null>('t') });
    const position = (id: string, closed: boolean) => ({ type: 'position', data: { id, symbol: 'BTCUSDT', contract: 'perp', qty: 0.01, closed } }) as unknown as InboundFrame;
    frames$.next(position('P1', false));
    frames$.next(position('P2', false));
    frames$.next(position('P1', true));
    const before = JSON.stringify(user.state());
    const kept = user.state();
    frames$.next(position('P2', true));
    expect(JSON.stringify(kept)).toBe(before);
    expect((kept as { closedPositions: string[] }).closedPositions).toEqual(['P1']);
    expect((user.state() as { closedPositions: string[] }).closedPositions).toEqual(['P1', 'P2']);
  });
});
