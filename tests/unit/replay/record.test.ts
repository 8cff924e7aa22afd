import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/ports/virtualClock.ts';
import { createRecordedCore } from '../../../src/core/replay/record.ts';
import { buildSupportBundle } from '../../../src/core/supportBundle.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope } from '../../../src/ports/fakes.ts';

const ENV = { appVersion: 't', language: 'en', theme: 'dark', viewport: { width: 390, height: 844 }, userAgent: 'test' };

function recorded(stored: Record<string, string> = {}) {
  const clock = new VirtualClock(1_760_000_000_000);
  const http = createScriptedHttp();
  http.on('GET', '/user/info', envelope(200, 'success', { id: 1 }));
  http.on('POST', '/user/kyc', envelope(200, 'submitted'));
  const sockets = createScriptedSocketFactory();
  const rec = createRecordedCore({ clock, http, socket: sockets, storage: createMemoryStorage(stored), random: { id: () => 'r' } }, { location: () => '/', env: ENV });
  return { rec, clock, sockets };
}

describe('createRecordedCore', () => {
  it('logs env first, then UI intents (redacted) but not the events the core derives itself', async () => {
    const { rec } = recorded({ token: 'tok-abcdef-123456' });
    rec.core.market.send({ type: 'socket.subscribe', topics: ['btcusdt@depth'] });
    rec.core.session.send({ type: 'user.logout' });
    rec.core.user.send({ type: 'socket.setToken', token: null }); // what the core itself does on logout
    rec.recordRoute('/market');
    rec.recordRoute('/market'); // unchanged: not logged twice
    const recs = rec.log.records();
    expect(recs[0]).toMatchObject({ seq: 1, kind: 'env', language: 'en', viewport: { width: 390, height: 844 } });
    expect(recs.filter((r) => r.kind === 'ui.intent').map((r) => [r.actor, (r.event as { type: string }).type])).toEqual([
      ['market', 'socket.subscribe'],
      ['session', 'user.logout'],
    ]);
    expect(recs.filter((r) => r.kind === 'ui.route').map((r) => r.path)).toEqual(['/market']);
    expect(JSON.stringify(recs)).not.toContain('tok-abcdef-123456');
    rec.core.stop();
  });

  it('a KYC upload keeps the document out of the log and out of a bundle', async () => {
    const { rec, clock } = recorded();
    const photo = new File([new Uint8Array(2048).fill(7)], 'passport.jpg', { type: 'image/jpeg' });
    const form = new FormData();
    form.append('name', 'Ada');
    form.append('front', photo);
    await rec.core.api.post('/user/kyc', form);
    await rec.core.api.post('/user/kyc', { name: 'Ada', image: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB' });
    const bundle = buildSupportBundle({ log: rec.log, actors: rec.core, env: ENV, now: clock.now() });
    expect(bundle).toContain('"file":"passport.jpg","size":2048,"type":"image/jpeg"');
    expect(bundle).not.toContain('iVBORw0KGgo');
    expect(bundle).toContain('<redacted:secret#');
    rec.core.stop();
  });
});
