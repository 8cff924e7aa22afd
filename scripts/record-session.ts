import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TOTP } from 'otpauth';
import { createRecordedCore, type RecordedCore } from '../src/core/replay/record.ts';
import { parseReplayText } from '../src/core/replay/parse.ts';
import { replayLog } from '../src/core/replay/driver.ts';
import { checkExpectations, type Expectation, type FixtureExpect } from '../src/core/replay/expect.ts';
import type { LogRecord } from '../src/ports/eventLog.ts';
import { latestMails } from '../server/db/repos/mailCodes.ts';
import { orderBookStreams } from '../src/streams/wire.ts';
import type { MarketFrame } from '../src/protocol/market.ts';
import type { Observable } from 'rxjs';
import { dropAllSockets, FollowClock, lossySocket, nodePorts, sleep, startLiveServer, waitFor, type LiveServer } from './recordKit.ts';

/**
 * `npx tsx scripts/record-session.ts [--only <name>] [--out fixtures/sessions]`
 *
 * Records QA fixtures by driving the REAL app core (session and socket machines, api client,
 * recording ports, intents) against the REAL server started in-process, then replays each
 * recording headless and writes `<name>.jsonl` + `<name>.expect.json` only if the replay meets
 * the scenario's expectations with no divergence (so a fixture is never committed broken).
 * Intents are sent the way the screens send them (core.session.send, core.market.send), so the
 * log holds `ui.intent` records exactly as a browser recording would.
 */

const ENV = { appVersion: 'record-session', language: 'en', theme: 'dark', viewport: { width: 1440, height: 900 }, userAgent: 'node record-session' };

interface Ctx {
  server: LiveServer;
  clock: FollowClock;
  rec: RecordedCore;
  /** Finds the seq of the n-th (0-based) record matching `pred`. */
  seqOf(pred: (r: LogRecord) => boolean, n?: number): number;
}

interface Scenario {
  name: string;
  description: string;
  lossy?: (data: string) => boolean;
  run(ctx: Ctx): Promise<Expectation[]>;
}

async function mailCode(server: LiveServer, email: string): Promise<string> {
  const [m] = await latestMails(server.db, email, 1);
  if (!m) throw new Error(`no mail to ${email}`);
  return m.code;
}

async function api<T>(server: LiveServer, path: string, body?: unknown, token?: string, form = false): Promise<T> {
  const headers: Record<string, string> = { Client: 'web' };
  if (token) headers.Authorization = token;
  let payload: string | undefined;
  if (body !== undefined) {
    headers['Content-Type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
    payload = form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
  }
  const res = await fetch(`${server.base}/api${path}`, { method: payload === undefined ? 'GET' : 'POST', headers, body: payload });
  const env = (await res.json()) as { code: number; msg: string; data: T };
  if (env.code !== 200) throw new Error(`${path}: ${env.code} ${env.msg}`);
  return env.data;
}

/** Setup outside the recording: a registered account with Google authenticator bound. */
async function googleAccount(server: LiveServer, email: string, password: string): Promise<TOTP> {
  await api(server, '/user/sendMailCode', { email, type: 'register' });
  await api(server, '/user/register', { email, password, confirmPassword: password, code: await mailCode(server, email), agree: true });
  await api(server, '/user/sendMailCode', { email, type: 'login' });
  const { token } = await api<{ token: string }>(server, '/user/login', { email, password, code: await mailCode(server, email) }, undefined, true);
  const g = await api<{ secret: string }>(server, '/user/get-google-code', undefined, token);
  const totp = new TOTP({ issuer: 'RiskFree', secret: g.secret, algorithm: 'SHA1', digits: 6, period: 30 });
  await api(server, '/user/bind-google-authen', { code: totp.generate() }, token);
  return totp;
}

const isDepthDiff = (sym: string) => (data: string) => data.includes('"type":"depth"') && data.includes(`"symbol":"${sym}"`) && data.includes('"snapshot":false');

const SCENARIOS: Scenario[] = [
  {
    name: 'login-google',
    description: 'Guest logs in with email + password, the server asks for the Google authenticator code, the TOTP logs in; user info loads and the user socket authenticates.',
    async run({ server, rec, seqOf }) {
      const email = 'replay.google@example.com';
      const password = 'Secret123';
      const totp = await googleAccount(server, email, password);
      const { core } = rec;
      core.market.send({ type: 'socket.subscribe', topics: ['btcusdt@ticker'] });
      await sleep(400);
      core.session.send({ type: 'user.checkAuthType', email, password });
      await waitFor(() => core.session.getSnapshot().matches('securityStep'), 'security step');
      const askedAt = seqOf((r) => r.kind === 'http.response' && (r.envelope as { data?: { authType?: string } } | undefined)?.data?.authType === 'google');
      await sleep(300);
      // The binding used this step's code (spent by the replay guard): type the next step's code.
      core.session.send({ type: 'user.login', code: totp.generate({ timestamp: Date.now() + 30_000 }) });
      await waitFor(() => core.session.getSnapshot().matches({ loggedIn: 'idle' }) && core.user.getSnapshot().context.connected, 'logged in + user socket');
      await sleep(800);
      const infoAt = seqOf((r) => r.kind === 'http.request' && r.path === '/user/info');
      return [
        { atSeq: askedAt, select: 'session.value', equals: { securityStep: 'idle' }, note: 'google account: the security step asks for the authenticator code' },
        { atSeq: askedAt, select: 'session.context.authType', equals: 'google' },
        { atSeq: infoAt, select: 'session.context.token', equals: '<redacted:token#1>', note: 'the token is redacted in the log and replays as its placeholder' },
        { atSeq: seqOf(() => true, rec.log.records().length - 1), select: 'session.context.userInfo.googleBound', equals: true },
        { atSeq: seqOf(() => true, rec.log.records().length - 1), select: 'user.context.connected', equals: true },
      ];
    },
  },
  {
    name: 'reconnect-storm',
    description: 'The market socket is dropped by the server four times in a row; each time the client waits the 10 s reconnect delay, reconnects and resubscribes every topic; the book is live again at the end.',
    async run({ server, clock, rec, seqOf }) {
      const { core } = rec;
      core.market.send({ type: 'socket.subscribe', topics: ['btcusdt@depth', 'btcusdt@trade', 'all@ticker'] });
      await sleep(1500);
      for (let i = 0; i < 4; i++) {
        dropAllSockets(server.app);
        await waitFor(() => core.market.getSnapshot().matches('reconnecting'), `drop ${i + 1}`);
        await sleep(i === 1 ? 50 : 300);
        clock.skip(10_000);
        await waitFor(() => core.market.getSnapshot().context.connected, `reconnect ${i + 1}`);
        await sleep(i === 3 ? 1500 : 200);
      }
      const last = seqOf(() => true, rec.log.records().length - 1);
      const firstDrop = seqOf((r) => r.kind === 'ws.close');
      return [
        { atSeq: firstDrop, select: 'market.value', equals: 'reconnecting' },
        { atSeq: firstDrop, select: 'market.context.connected', equals: false },
        { atSeq: last, select: 'market.value', equals: { live: { open: 'alive' } } },
        { atSeq: last, select: 'market.context.topics', equals: { 'btcusdt@depth': 1, 'btcusdt@trade': 1, 'all@ticker': 1 }, note: 'every topic survives the storm' },
        { atSeq: last, select: 'streams.books.BTCUSDT.status', equals: 'live', note: 'each reconnect re-snapshots the book' },
      ];
    },
  },
  {
    name: 'orderbook-gap',
    description: 'One BTCUSDT depth diff is lost on the network; the book detects the gap (prevSeq mismatch), the screen fetches GET /market/depth, the REST snapshot plus the buffered diffs make it live again.',
    lossy: (() => {
      let seen = 0;
      const diff = isDepthDiff('BTCUSDT');
      return (d: string) => diff(d) && ++seen === 12;
    })(),
    async run({ rec, seqOf }) {
      const { core } = rec;
      // What useTradeMarket does: on a resync request, fetch the REST snapshot (and inject it).
      const { resync$ } = orderBookStreams(core.marketFrames$ as Observable<MarketFrame>, 'BTCUSDT');
      let resyncs = 0;
      const sub = resync$.subscribe(() => {
        resyncs += 1;
        void core.api.get('/market/depth', { symbol: 'BTCUSDT', limit: 100 }).catch(() => undefined);
      });
      core.market.send({ type: 'socket.subscribe', topics: ['btcusdt@depth'] });
      await waitFor(() => resyncs > 0, 'the gap', 20_000);
      await waitFor(() => rec.log.records().some((r) => r.kind === 'http.response' && r.id !== undefined && rec.log.records().some((q) => q.kind === 'http.request' && q.path === '/market/depth' && q.id === r.id)), 'REST snapshot');
      await sleep(1500);
      sub.unsubscribe();
      const depthReq = seqOf((r) => r.kind === 'http.request' && r.path === '/market/depth');
      const depthRes = seqOf((r) => r.kind === 'http.response' && rec.log.records().some((q) => q.kind === 'http.request' && q.path === '/market/depth' && q.id === r.id));
      const last = seqOf(() => true, rec.log.records().length - 1);
      return [
        { atSeq: depthReq, select: 'streams.books.BTCUSDT.status', equals: 'resync', note: 'the lost diff is detected as a gap' },
        { atSeq: depthReq, select: 'streams.books.BTCUSDT.reason.code', equals: 'gap' },
        { atSeq: depthRes, select: 'streams.books.BTCUSDT.status', equals: 'live', note: 'REST snapshot + buffered diffs resync the book' },
        { atSeq: last, select: 'streams.books.BTCUSDT.status', equals: 'live' },
      ];
    },
  },
];

async function record(s: Scenario, outDir: string): Promise<void> {
  const server = await startLiveServer();
  const clock = new FollowClock();
  clock.start();
  try {
    const raw = nodePorts(server.base, clock);
    const ports = s.lossy ? { ...raw, socket: lossySocket(raw.socket, s.lossy) } : raw;
    const rec = createRecordedCore(ports, { location: () => '/', env: ENV, logBytes: 64 * 1024 * 1024 });
    rec.recordRoute(s.name === 'login-google' ? '/login' : '/mFutures/BTCUSDT');
    const seqOf = (pred: (r: LogRecord) => boolean, n = 0): number => {
      const hits = rec.log.records().filter(pred);
      const r = hits[n];
      if (!r) throw new Error(`${s.name}: no matching record #${n}`);
      return r.seq;
    };
    await sleep(300);
    const expectations = await s.run({ server, clock, rec, seqOf });
    // NOTE: export before stopping: stop() closes the sockets, which is not part of the session.
    const text = rec.log.toJsonLines();
    rec.core.stop();
    const log = parseReplayText(text);
    const result = await replayLog(log, { checkpointAt: expectations.map((e) => e.atSeq) });
    const expect: FixtureExpect = { description: s.description, hash: result.final.hash, expectations };
    const failures = checkExpectations(result, expect);
    const problems = [...failures.map((f) => f.message), ...result.divergences.map((d) => `divergence @${d.seq}: ${d.message}`), ...result.final.violations];
    if (problems.length > 0) throw new Error(`${s.name}: the recording does not replay as expected:\n  ${problems.join('\n  ')}`);
    writeFileSync(join(outDir, `${s.name}.jsonl`), text);
    writeFileSync(join(outDir, `${s.name}.expect.json`), `${JSON.stringify(expect, null, 2)}\n`);
    console.log(`${s.name}: ${log.records.length} records, hash ${result.final.hash}`);
  } finally {
    clock.stop();
    await server.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, out: { type: 'string', default: 'fixtures/sessions' } } });
  for (const s of SCENARIOS) if (!values.only || values.only === s.name) await record(s, values.out);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
