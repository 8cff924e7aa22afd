import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SimulatedClock } from 'xstate';
import { createEventLog } from '../../../src/ports/eventLog.ts';
import { createRecordingPorts } from '../../../src/ports/recording.ts';
import { createRedactor } from '../../../src/ports/redact.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope } from '../../../src/ports/fakes.ts';

function recorded() {
  const clock = new SimulatedClock();
  const log = createEventLog({ now: () => clock.now() });
  const http = createScriptedHttp();
  const socket = createScriptedSocketFactory();
  const ports = createRecordingPorts(
    { clock, http, socket, storage: createMemoryStorage({ token: 'stored-token-xyz' }), random: { id: () => 'r1' } },
    log,
  );
  return { clock, log, http, socket, ports };
}

describe('recording ports', () => {
  it('records http request/response pairs, storage, sockets, random and timers', async () => {
    const { clock, log, http, socket, ports } = recorded();
    http.on('GET', '/user/info', envelope(200, 'ok', { id: 1 }));
    await ports.http.request({ method: 'GET', path: '/user/info' });
    ports.storage.get('token');
    ports.storage.get('token');
    ports.storage.set('lang', 'en');
    const c = ports.socket.open('/api/ws/market', { onOpen() {}, onFrame() {}, onClose() {}, onError() {} });
    socket.last().open();
    c.send('{"action":"ping","ts":1}');
    socket.last().frame({ type: 'pong', ts: 1 });
    socket.last().close(1006, 'x');
    ports.random.id();
    ports.clock.setTimeout(() => {}, 10);
    clock.increment(10);
    expect(log.records().map((r) => r.kind)).toEqual([
      'http.request', 'http.response', 'storage.init', 'storage.set', 'ws.open', 'ws.opened', 'ws.out', 'ws.in', 'ws.close', 'random', 'timer',
    ]);
    expect(log.records()[1]).toMatchObject({ id: 1, envelope: { code: 200, data: { id: 1 } } });
    expect(log.records()[2]).toMatchObject({ key: 'token', value: '<redacted:token#1>' });
    expect(log.records().at(-1)).toMatchObject({ kind: 'timer', ms: 10, t: 10 });
  });

  it('redacts tokens, passwords, codes and secrets with stable placeholders everywhere', async () => {
    const { log, http, socket, ports } = recorded();
    http.on('POST', '/user/login', envelope(200, 'ok', { token: 'new-token-123456' }));
    ports.storage.get('token');
    await ports.http.request({ method: 'POST', path: '/user/login', form: true, body: { email: 'a@b.c', password: 'hunter22', code: '654321' } });
    await ports.http.request({ method: 'POST', path: '/user/login', body: { password: 'hunter22', confirmPassword: 'hunter22', code: '654321' } });
    const c = ports.socket.open('/api/ws/user', { onOpen() {}, onFrame() {}, onClose() {}, onError() {} });
    c.send(JSON.stringify({ action: 'auth', token: 'new-token-123456' }));
    socket.last().frame({ type: 'error', msg: 'bad token new-token-123456' });
    ports.storage.set('token', 'new-token-123456');
    http.on('GET', '/user/get-google-code', envelope(200, 'ok', { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' }));
    await ports.http.request({ method: 'GET', path: '/user/get-google-code' });

    const text = log.toJsonLines();
    for (const secret of ['stored-token-xyz', 'new-token-123456', 'hunter22', '654321', 'JBSWY3DPEHPK3PXP']) {
      expect(text).not.toContain(secret);
    }
    const recs = log.records();
    expect(recs[1]).toMatchObject({ body: { email: 'a@b.c', password: '<redacted:password#1>', code: '<redacted:code#1>' } });
    expect(recs[3]).toMatchObject({ body: { password: '<redacted:password#1>', confirmPassword: '<redacted:password#1>' } });
    expect(text).toContain('{\\"action\\":\\"auth\\",\\"token\\":\\"<redacted:token#2>\\"}');
    expect(text).toContain('bad token <redacted:token#2>');
  });

  it('a KYC submit (FormData) logs no document number and no photo bytes, only file descriptions', async () => {
    const { log, http, ports } = recorded();
    http.on('POST', '/kyc/submit', envelope(200, 'ok', { status: 'review', latest: { docNumberMasked: '*****4567' } }));
    const form = new FormData();
    form.append('country', 'FR');
    form.append('docNumber', 'AB1234567');
    form.append('cover', new File([new Uint8Array(64).fill(9)], 'cover.png', { type: 'image/png' }));
    await ports.http.request({ method: 'POST', path: '/kyc/submit', body: form });
    const text = log.toJsonLines();
    expect(text).not.toContain('AB1234567');
    expect(log.records()[0]).toMatchObject({
      body: { formData: [['country', 'FR'], ['docNumber', '<redacted:secret#1>'], ['cover', { file: 'cover.png', size: 64, type: 'image/png' }]] },
    });
  });

  it('property: no generated secret value ever appears in the exported log', () => {
    const secretish = fc.string({ minLength: 6, maxLength: 24 }).filter((s) => /^[A-Za-z0-9_-]+$/.test(s));
    fc.assert(
      fc.property(secretish, secretish, fc.stringMatching(/^\d{6}$/), (token, password, code) => {
        const log = createEventLog({ now: () => 0 });
        const redactor = createRedactor();
        log.append('http.request', redactor.redact({ headers: { Authorization: token }, body: { password, code, nested: [{ oldPassword: password }] } }));
        log.append('ws.out', { data: redactor.redactText(JSON.stringify({ action: 'auth', token })) });
        log.append('note', redactor.redact({ text: `echo ${password} and ${token}` }));
        const text = log.toJsonLines();
        expect(text).not.toContain(token);
        expect(text).not.toContain(password);
        expect(text).not.toContain(`"${code}"`);
      }),
    );
  });
});
