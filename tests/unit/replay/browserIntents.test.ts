import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseReplayText } from '../../../src/core/replay/parse.ts';
import { createReplayHandle } from '../../../src/core/replay/driver.ts';

/**
 * Browser = headless at every record (issue 27, point 3): with `intents: 'log'` (the browser replay)
 * the core's actors take their intents from the log only; a send the mounted screens make themselves
 * (a reader's topic subscription) is dropped, the recorded one is delivered at its record.
 */
const log = parseReplayText(readFileSync('fixtures/sessions/compensation-ui.jsonl', 'utf8'));
const subscribe = log.records.find((r) => r.kind === 'ui.intent' && r.actor === 'market' && (r.event as { type?: string }).type === 'socket.subscribe');
const topicsOf = (h: ReturnType<typeof createReplayHandle>) => ({ ...h.core.market.getSnapshot().context.topics });

describe('browser replay intents', () => {
  it('the fixture records a market subscribe intent', () => {
    expect(subscribe).toBeDefined();
  });

  it("drops the screens' own sends to the core's actors and delivers the recorded ones", () => {
    const h = createReplayHandle(log, { path: '/' }, { intents: 'log', screens: 'mounted' });
    h.core.market.send({ type: 'socket.subscribe', topics: ['ethusdt@ticker'] });
    expect(topicsOf(h)).toEqual({});
    h.core.session.send({ type: 'user.fetchInfo' });
    expect(h.core.session.getSnapshot().value).not.toEqual({ loggedIn: 'fetchingInfo' });
    expect(h.deliver(subscribe!)).toBe(true);
    const recorded = (subscribe!.event as { topics: string[] }).topics;
    expect(topicsOf(h)).toEqual(Object.fromEntries(recorded.map((t) => [t, 1])));
    h.core.stop();
  });

  it('headless (the default) lets every send through', () => {
    const h = createReplayHandle(log, { path: '/' });
    h.core.market.send({ type: 'socket.subscribe', topics: ['ethusdt@ticker'] });
    expect(topicsOf(h)).toEqual({ 'ethusdt@ticker': 1 });
    h.core.stop();
  });
});
