import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { chromium, type Browser, type Page, type WebSocketRoute } from '@playwright/test';
import { TOTP } from 'otpauth';
import { makePng } from './png.ts';
import { openReplayPage } from '../replay/replayPage.ts';
import { liveShot, MAX_DIFF_RATIO, pinShotFonts, replayShotAt, seqAtWall, SHOT_CONTEXT, writeCheckpoints, type LiveShot } from '../replay/checkpointShots.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { OPERATOR_HEADER } from '../server/http/operator.ts';
import { dbFile, openDb } from '../server/db/connection.ts';
import { migrateToLatest } from '../server/db/migrations.ts';
import { latestMails } from '../server/db/repos/mailCodes.ts';
import { seedDemo } from '../server/db/seed.ts';
import { createPlatform } from '../server/platform.ts';
import { INSTRUMENTS } from '../server/market/instruments.ts';
import { ControlledMarketSource } from '../server/trading/controlledSource.ts';
import { createFeatures } from '../server/features.ts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../server/db/connection.ts';
import { replayLog } from '../src/core/replay/driver.ts';
import { checkExpectations, type Expectation, type FixtureExpect } from '../src/core/replay/expect.ts';
import { parseReplayText, type ParsedLog } from '../src/core/replay/parse.ts';
import type { LogRecord } from '../src/ports/eventLog.ts';
import { SEGMENT_KIND } from '../src/ports/logSegments.ts';
import { CONVERT_MSG, CONVERT_PATHS } from '../src/protocol/convert.ts';
import { COPY_PATHS } from '../src/protocol/copy.ts';
import { MONEY_PATHS, WALLET_MSG } from '../src/protocol/wallet.ts';
import { USER_MSG } from '../src/protocol/user.ts';

/**
 * `npm run build && npx tsx scripts/record-ui-session.ts [--only <name>] [--out fixtures/sessions] [--dist dist]`
 *
 * Records a fixture the way a user produces a support bundle: the REAL built UI in Chromium
 * (Playwright) against the REAL server (in-process, serving dist/), a person's clicks and typing,
 * then 'Report a problem' in the help centre. The downloaded bundle IS the fixture; before it
 * is written (plus `<name>.expect.json`) it must replay headless to its expectations and to the
 * exported state, AND replay in the browser (no network) to the same hash with no divergence.
 */

async function mail(db: Db, email: string): Promise<string> {
  const [m] = await latestMails(db, email, 1);
  if (!m) throw new Error(`no mail to ${email}`);
  return m.code;
}

/** Client-side navigation (keeps the page, the core and its recording). */
async function navigate(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

interface UiServer {
  app: FastifyInstance;
  db: Db;
  base: string;
  /** Set when the market is moved by hand (liquidation scenario). */
  source: ControlledMarketSource | null;
  close(): Promise<void>;
}

/**
 * The real server in-process serving dist/: as `npm run serve` builds it (simulator market,
 * sockets, trading), or with the market moved by hand (ControlledMarketSource, the trading
 * engine's own test source) so a liquidation happens when the recorder says so.
 */
async function startUiServer(controlled: boolean, distDir: string): Promise<UiServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rf-record-ui-'));
  const config = { ...loadConfig({}), dataDir, logLevel: 'silent' as const, serveStatic: true, distDir, rateLimitScale: 100, operatorToken: RECORDER_OPERATOR_TOKEN };
  const db = openDb({ filename: dbFile(dataDir) });
  await migrateToLatest(db);
  const clock = { now: () => Date.now() };
  await seedDemo(db, clock.now());
  let source: ControlledMarketSource | null = null;
  if (controlled) {
    source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), clock.now());
    for (const i of INSTRUMENTS) source.setPrice(i.info.symbol, i.startPrice);
  }
  const platform = createPlatform({ db, clock, ...(source ? { source } : {}) });
  const plugins = [...platform.plugins, ...createFeatures({ db, clock, bus: platform.bus, source: platform.source })];
  const app = buildApp({ db, clock, config, plugins });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    db,
    source,
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    async close() {
      await app.close();
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface SocketControl {
  /** Closes the page side of every open market socket now (the app sees a network drop). */
  drop(): void;
  /** Loses the n-th BTCUSDT depth diff between the server and the page. */
  loseDepthDiff(n: number): void;
  /**
   * Holds the server's frames back from the page (queued, in order) until {@link release}: the
   * screen stands still for a checkpoint photo. The app logs a frame when it arrives, so held
   * frames are simply later in the log; the replay sees what the page saw.
   */
  hold(): void;
  release(): void;
}

/** Proxies the page's market socket to the real server so the recorder can drop it or lose a frame. */
async function controlMarketSocket(page: Page): Promise<SocketControl> {
  const open = new Set<WebSocketRoute>();
  let loseAt = -1;
  let diffs = 0;
  let held: { ws: WebSocketRoute; m: string | Buffer }[] | null = null;
  const deliver = (ws: WebSocketRoute, m: string | Buffer) => {
    if (open.has(ws)) ws.send(m);
  };
  await page.routeWebSocket(/\/api\/ws\/market/, (ws) => {
    open.add(ws);
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      const text = typeof m === 'string' ? m : m.toString();
      if (text.includes('"type":"depth"') && text.includes('"symbol":"BTCUSDT"') && text.includes('"snapshot":false')) {
        diffs += 1;
        if (diffs === loseAt) return;
      }
      if (held) held.push({ ws, m });
      else deliver(ws, m);
    });
    ws.onClose(() => open.delete(ws));
  });
  return {
    drop() {
      for (const ws of open) void ws.close({ code: 1006, reason: '' });
      open.clear();
    },
    loseDepthDiff(n) {
      loseAt = n;
      diffs = 0;
    },
    hold() {
      held ??= [];
    },
    release() {
      const queued = held ?? [];
      held = null;
      for (const { ws, m } of queued) deliver(ws, m);
    },
  };
}

interface UiScenario {
  name: string;
  description: string;
  /** Run against the hand-moved market (ControlledMarketSource) instead of the simulator. */
  controlled?: boolean;
  /** `ctx.shot(label)` photographs the live screen: a checkpoint the browser replay must look like (issue 16). */
  run(page: Page, ctl: SocketControl, ctx: { server: UiServer; account: Account; shot(label: string): Promise<void> }): Promise<void>;
  expect(log: ParsedLog, lastSeq: number): Expectation[];
  /** Text that must not reach the bundle besides the password and token (redaction check). */
  secrets?: string[];
}

function find(log: ParsedLog, pred: (r: LogRecord) => boolean, what: string): number {
  const r = log.records.find(pred);
  if (!r) throw new Error(`no record for ${what}`);
  return r.seq;
}

/**
 * Replays `text` in the built UI with every API and socket request blocked (?replay=), and lists
 * what differs from the headless replay: divergences, violations, another final hash.
 */
async function browserReplayProblems(browser: Browser, base: string, text: string, headlessHash: string, shots: readonly { seq: number; label: string; png: Buffer }[]): Promise<string[]> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, ...SHOT_CONTEXT });
  try {
    await pinShotFonts(page);
    await page.addInitScript(() => {
      localStorage.setItem('lang', 'en');
      localStorage.setItem('theme', 'dark');
    });
    const { leaked, stepTo } = await openReplayPage(page, text, base);
    // The checkpoint photos (issue 16): the replay stepped to each seq must look like the live screen.
    const shotProblems: string[] = [];
    for (const s of shots) {
      const { diff } = await replayShotAt(page, stepTo, s.seq, s.png);
      if (diff.sizeMismatch || diff.ratio > MAX_DIFF_RATIO) {
        const kept = join(tmpdir(), `checkpoint-${s.seq}`);
        writeFileSync(`${kept}.live.png`, s.png);
        if (diff.diffPng) writeFileSync(`${kept}.diff.png`, diff.diffPng);
        shotProblems.push(`checkpoint '${s.label}' @${s.seq}: ${diff.sizeMismatch ? 'size differs' : `${(diff.ratio * 100).toFixed(3)} % of pixels differ`} (live photo and diff in ${kept}.*.png)`);
      }
    }
    const cp = await stepTo(parseReplayText(text).records.at(-1)?.seq ?? 0);
    return [
      ...shotProblems,
      ...cp.divergences.map((d) => `browser replay: divergence ${d}`),
      ...cp.violations.map((v) => `browser replay: ${v}`),
      ...leaked.map((u) => `browser replay: request left the recording: ${u}`),
      ...(cp.hash === headlessHash ? [] : [`browser replay ends on ${cp.hash}, headless on ${headlessHash}`]),
    ];
  } finally {
    await page.close();
  }
}

interface Account {
  email: string;
  password: string;
  token: string;
  totp: TOTP;
}

/** One call to the recorder's server outside the recording (setup and "the other side": reviewers, time). */
/** The in-process server's operator token (its /dev/* routes need it, server/http/operator.ts). */
const RECORDER_OPERATOR_TOKEN = randomBytes(32).toString('hex');

async function api<T>(server: UiServer, path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = { Client: 'web', ...(token ? { Authorization: token } : {}), ...(path.startsWith('/dev/') ? { [OPERATOR_HEADER]: RECORDER_OPERATOR_TOKEN } : {}) };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${server.base}/api${path}`, { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const env = (await res.json()) as { code: number; msg: string; data: T };
  if (env.code !== 200) throw new Error(`${path}: ${env.code} ${env.msg}`);
  return env.data;
}

/** The first record matching `pred` after the response to the first request to `path`. */
function responseTo(log: ParsedLog, path: string): number {
  const req = log.records.find((r) => r.kind === 'http.request' && r.path === path);
  if (!req) throw new Error(`no request to ${path}`);
  return find(log, (r) => r.kind === 'http.response' && r.id === req.id, `the answer to ${path}`);
}

/** The first user-socket frame of `type` whose text contains every one of `parts`. */
function frameWith(log: ParsedLog, type: string, ...parts: string[]): number {
  return find(log, (r) => r.kind === 'ws.in' && typeof r.data === 'string' && r.data.includes(`"type":"${type}"`) && parts.every((p) => (r.data as string).includes(p)), `a ${type} frame with ${parts.join(', ')}`);
}

const KYC_DOC_NUMBER = 'X47120983';
const KYC_REASON = 'The information page photo is blurry';
/** Set in the compensation scenario's setup: the order the recording claims, boosts and withdraws. */
let compensationId = 0;

const NEW_PASSWORD = 'Changed456';

/** Setup outside the recording (through the API): an account with Google authenticator bound. */
async function setupAccount(server: UiServer): Promise<Account> {
  const email = 'replay.ui@example.com';
  const password = 'Secret123';
  const call = async <T>(path: string, body?: unknown, token?: string, form = false): Promise<T> => {
    const headers: Record<string, string> = { Client: 'web', ...(token ? { Authorization: token } : {}) };
    if (body !== undefined) headers['Content-Type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
    const payload = body === undefined ? undefined : form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
    const env = (await (await fetch(`${server.base}/api${path}`, { method: payload ? 'POST' : 'GET', headers, body: payload })).json()) as { code: number; msg: string; data: T };
    if (env.code !== 200) throw new Error(`${path}: ${env.code} ${env.msg}`);
    return env.data;
  };
  await call('/user/sendMailCode', { email, type: 'register' });
  await call('/user/register', { email, password, confirmPassword: password, code: await mail(server.db, email), agree: true });
  await call('/user/sendMailCode', { email, type: 'login' });
  const { token } = await call<{ token: string }>('/user/login', { email, password, code: await mail(server.db, email) }, undefined, true);
  const g = await call<{ secret: string }>('/user/get-google-code', undefined, token);
  const totp = new TOTP({ issuer: 'RiskFree', secret: g.secret, algorithm: 'SHA1', digits: 6, period: 30 });
  await call('/user/bind-google-authen', { code: totp.generate() }, token);
  return { email, password, token, totp };
}

/** The login form and the Google authenticator step, as a person fills them. */
async function loginWithGoogle(page: Page, base: string, acc: Account): Promise<void> {
  await page.goto(`${base}/login`); // the recording starts here (a fresh core)
  await page.getByLabel('Email', { exact: true }).fill(acc.email);
  await page.getByLabel('Password', { exact: true }).fill(acc.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.getByLabel('Google authenticator code').waitFor();
  // The binding used this step's code (spent by the replay guard): type the next step's code.
  await page.getByLabel('Google authenticator code').fill(acc.totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'Account', exact: true }).waitFor();
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'fixtures/sessions' }, only: { type: 'string' }, dist: { type: 'string', default: 'dist' } } });
  const distDir = resolve(values.dist);
  if (!existsSync(join(distDir, 'index.html'))) throw new Error(`${distDir}/index.html not found: run \`npm run build\` first (or pass --dist <dir>)`);
  const tmp = mkdtempSync(join(tmpdir(), 'rf-record-ui-out-'));
  const browser = await chromium.launch({
    executablePath: execSync('command -v chromium', { shell: '/bin/sh' }).toString().trim(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const scenarios: UiScenario[] = [
      {
        name: 'login-google-ui',
        description: 'Recorded from the real UI in Chromium against the real server, then exported with Report a problem: the login form, the Google authenticator step, the home page, the help centre. The bundle replays to the exported state.',
        async run(page, _ctl, { server, account }) {
          await loginWithGoogle(page, server.base, account);
          await page.waitForTimeout(1000);
        },
        expect(log, last) {
          const asked = find(log, (r) => r.kind === 'http.response' && (r.envelope as { data?: { authType?: string } } | undefined)?.data?.authType === 'google', 'authType google');
          return [
            { atSeq: asked, select: 'session.value', equals: { securityStep: 'idle' }, note: 'the security step asks for the authenticator code' },
            { atSeq: last, select: 'session.value', equals: { loggedIn: 'idle' } },
            { atSeq: last, select: 'session.context.userInfo.googleBound', equals: true },
            { atSeq: last, select: 'session.context.password', equals: '', note: 'the password is dropped after the login' },
            { atSeq: last, select: 'user.context.connected', equals: true, note: 'the user socket authenticated with the (redacted) token' },
          ];
        },
      },
      {
        name: 'reload-logout-ui',
        description: "A support bundle that survives reloads (issue 27, point 7): Google-authenticator login, Log out from the account menu (the recording kept in the browser is deleted, this page load's too, and this load is no longer stored), then on a new page load a password + authenticator login again; the USDT-M trade screen for BTCUSDT reloaded, the market list reloaded, then the help centre, where Report a problem joins the three page loads kept in IndexedDB into one bundle: one segment per load, each replayed on a fresh core on the same virtual clock (the session restored from the stored token after each reload), nothing from before the logout.",
        async run(page, _ctl, { server, account }) {
          await loginWithGoogle(page, server.base, account);
          await page.waitForTimeout(1500);
          await page.getByRole('button', { name: 'Account', exact: true }).click();
          await page.getByRole('menuitem', { name: 'Log out' }).click();
          await page.getByRole('button', { name: 'Log in', exact: true }).or(page.getByRole('link', { name: 'Log in' })).first().waitFor();
          await page.waitForTimeout(1500);
          // The first login spent the next step's authenticator code (the replay guard refuses it twice): wait for a new one.
          const step = () => Math.floor((Date.now() + 30_000) / 30_000);
          const used = step();
          while (step() === used) await page.waitForTimeout(500);
          await loginWithGoogle(page, server.base, account);
          await page.waitForTimeout(1500);
          // Two reloads: the trade screen reloaded, then the market list reloaded; the report in the last load.
          for (const path of ['/mFutures/BTCUSDT', '/market']) {
            await navigate(page, path);
            await page.waitForTimeout(2500); // more than the store's 1 s flush
            await page.reload();
            await page.getByRole('button', { name: 'Account', exact: true }).waitFor();
            await page.waitForTimeout(2500);
          }
        },
        expect(log, last) {
          const segs = log.records.filter((r) => r.kind === SEGMENT_KIND);
          if (segs.length !== 3) throw new Error(`the bundle holds ${segs.length} page loads, not 3`);
          if (log.records.some((r) => r.kind === 'ui.intent' && (r.event as { type?: string } | undefined)?.type === 'user.logout')) throw new Error('a record from before the logout reached the bundle');
          const paths = segs.map((sg) => sg.path);
          if (JSON.stringify(paths) !== JSON.stringify(['/login', '/mFutures/BTCUSDT', '/market'])) throw new Error(`the loads opened on ${JSON.stringify(paths)}`);
          // The answer to the load's own user-info read (ids restart in each load).
          const infoIn = (seg: LogRecord, next: LogRecord | undefined) => {
            const inLoad = log.records.filter((r) => r.seq > seg.seq && (!next || r.seq < next.seq));
            const req = inLoad.find((r) => r.kind === 'http.request' && r.path === '/user/info');
            const res = req && inLoad.find((r) => r.kind === 'http.response' && r.id === req.id);
            if (!res) throw new Error(`no user-info answer in load ${String(seg.load)}`);
            return res.seq;
          };
          return [
            ...segs.flatMap((sg, i) => [
              { atSeq: sg.seq, select: 'session.context.userInfo', equals: null, note: `load ${i + 1} starts on a fresh core` },
              { atSeq: infoIn(sg, segs[i + 1]), select: 'session.value', equals: { loggedIn: 'idle' }, note: i === 0 ? 'logged in again after the logout' : 'the stored token restores the session after the reload' },
            ]),
            { atSeq: last, select: 'user.context.connected', equals: true },
            { atSeq: last, select: 'streams.rejected', equals: 0 },
          ];
        },
      },
      {
        name: 'reconnect-storm-ui',
        description: 'The USDT-M trade screen for BTCUSDT with the depth chart tab open (view state); the market socket is dropped three times (Playwright closes the page side, as a network drop looks); each time the app reconnects after 10 s and resubscribes the screen topics; the book is live again at the end.',
        async run(page, ctl, { server, shot }) {
          await page.goto(`${server.base}/mFutures/BTCUSDT`);
          await page.waitForTimeout(2500);
          // View state (issue 16): the user watches the depth chart through the storm.
          await page.getByRole('tablist', { name: 'Market views' }).getByRole('tab', { name: 'Depth', exact: true }).click();
          await page.waitForTimeout(800);
          await shot('depth chart before the storm');
          for (let i = 0; i < 3; i++) {
            ctl.drop();
            await page.waitForTimeout(i === 1 ? 10_600 : 11_500);
          }
          await page.waitForTimeout(1500);
          await shot('depth chart live again');
        },
        expect(log, last) {
          const closes = log.records.filter((r) => r.kind === 'ws.close');
          const firstClose = closes[0]?.seq ?? 0;
          const lastTradeRecord = [...log.records].reverse().find((r) => r.kind === 'ui.route');
          const before = lastTradeRecord ? lastTradeRecord.seq - 1 : last;
          return [
            { atSeq: firstClose, select: 'market.value', equals: 'reconnecting' },
            { atSeq: before, select: 'market.value', equals: { live: { open: 'alive' } } },
            { atSeq: before, select: 'market.context.attempts', equals: 0, note: 'connected again after the last drop' },
            { atSeq: before, select: 'streams.books.BTCUSDT.status', equals: 'live', note: 'every reconnect re-snapshots the book' },
          ];
        },
      },
      {
        name: 'orderbook-gap-ui',
        description: 'The USDT-M trade screen for BTCUSDT; one depth diff is lost on the way (Playwright drops it between server and page); the book detects the gap, the screen fetches GET /market/depth, and the book is live again. Checkpoint photos: the book live again after the gap; the 5-minute chart with EMA (view state).',
        async run(page, ctl, { server, shot }) {
          ctl.loseDepthDiff(15);
          await page.goto(`${server.base}/mFutures/BTCUSDT`);
          await page.waitForTimeout(6000);
          await shot('book live again after the gap');
          // View state (issue 16): a 5-minute chart with EMA added and the indicator menu closed again.
          await page.getByRole('tablist', { name: 'Interval' }).getByRole('tab', { name: '5m', exact: true }).click();
          await page.getByTestId('indicator-menu').click();
          await page.getByRole('dialog', { name: 'Indicators' }).getByLabel('EMA', { exact: true }).check();
          await page.getByTestId('indicator-menu').click();
          await page.waitForTimeout(1500);
          await shot('5-minute chart with EMA');
        },
        expect(log) {
          const depthReq = find(log, (r) => r.kind === 'http.request' && r.path === '/market/depth', 'GET /market/depth');
          const reqId = log.records.find((r) => r.seq === depthReq)?.id;
          const depthRes = find(log, (r) => r.kind === 'http.response' && r.id === reqId, 'the depth answer');
          return [
            { atSeq: depthReq, select: 'streams.books.BTCUSDT.status', equals: 'resync', note: 'the lost diff is detected as a gap' },
            { atSeq: depthReq, select: 'streams.books.BTCUSDT.reason.code', equals: 'gap' },
            { atSeq: depthRes, select: 'streams.books.BTCUSDT.status', equals: 'live', note: 'REST snapshot + buffered diffs resync the book' },
          ];
        },
      },
      {
        name: 'liquidation-ui',
        controlled: true,
        description: 'Trading into a liquidation through the real UI: Google-authenticator login, a BTCUSDT USDT-M market long (0.1 at the default leverage) from the order panel, then the mark price falls to the liquidation price shown; the engine liquidates, the position disappears and the perp balance keeps what is left (never negative).',
        async run(page, _ctl, { server, account, shot }) {
          await loginWithGoogle(page, server.base, account);
          await page.waitForTimeout(1200); // home has loaded (its requests are in the recording)
          await navigate(page, '/mFutures/BTCUSDT');
          const panel = page.getByRole('region', { name: 'Place order' });
          await page.getByTestId('available').waitFor();
          await page.waitForTimeout(1500);
          await panel.getByRole('tab', { name: 'Market' }).click();
          await panel.getByLabel('Quantity').fill('0.1');
          await panel.getByRole('button', { name: 'Buy / Long' }).click();
          await panel.getByText(/Order (filled|placed)/).waitFor();
          const row = page.getByTestId('position-row');
          await row.waitFor();
          const liq = Number((await row.getByTestId('liq-price').innerText()).replace(/,/g, ''));
          if (!(liq > 0)) throw new Error(`no liquidation price shown (${liq})`);
          await page.waitForTimeout(1000);
          await shot('long open');
          const src = server.source;
          if (!src) throw new Error('liquidation needs the controlled market');
          const start = src.markPrice('BTCUSDT') ?? liq * 1.1;
          // The market slides down over a few seconds, then reaches the liquidation price.
          for (let i = 1; i <= 4; i++) {
            src.setPrice('BTCUSDT', Number((start - ((start - liq) * i) / 5).toFixed(1)));
            await page.waitForTimeout(700);
          }
          src.setPrice('BTCUSDT', liq);
          await row.waitFor({ state: 'detached', timeout: 15_000 });
          await page.waitForTimeout(1000);
          // View state (issue 16): the user opens the trade history to see the liquidation fill.
          await page.getByRole('region', { name: 'Account' }).getByRole('tab', { name: /^Trade history/ }).click();
          await page.waitForTimeout(1500);
          await shot('trade history after the liquidation');
        },
        expect(log) {
          const opened = find(log, (r) => r.kind === 'ws.in' && typeof r.data === 'string' && r.data.includes('"type":"position"') && !r.data.includes('"closed":true'), 'the position frame');
          const closed = find(log, (r) => r.kind === 'ws.in' && typeof r.data === 'string' && r.data.includes('"type":"position"') && r.data.includes('"closed":true'), 'the liquidation frame');
          return [
            { atSeq: opened, select: 'session.value', equals: { loggedIn: 'idle' } },
            { atSeq: closed, select: 'streams.positions', equals: {}, note: 'liquidated: the position is gone' },
            { atSeq: closed, select: 'streams.closedPositions.length', equals: 1 },
          ];
        },
      },
      {
        name: 'kyc-rejection-ui',
        description: 'Identity verification rejected, through the real UI: Google-authenticator login, /my/settings/kyc, the form filled with a passport and two photos, submitted (under review); the reviewer rejects it with a reason (dev review endpoint, the other side); the screen shows the reason live from the user socket and offers the prefilled form again. Document number and photos are redacted in the bundle.',
        async run(page, _ctl, { server, account }) {
          await loginWithGoogle(page, server.base, account);
          await page.waitForTimeout(1000);
          await navigate(page, '/my/settings/kyc');
          await page.getByTestId('kyc-country').waitFor();
          await page.getByTestId('kyc-country').selectOption('DE');
          await page.getByTestId('kyc-doc-type').selectOption('passport');
          await page.getByTestId('kyc-first-name').fill('Ada');
          await page.getByTestId('kyc-last-name').fill('Lovelace');
          await page.getByTestId('kyc-doc-number').fill(KYC_DOC_NUMBER);
          await page.getByTestId('kyc-file-cover').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: makePng(96) });
          await page.getByTestId('kyc-file-info').setInputFiles({ name: 'info.png', mimeType: 'image/png', buffer: makePng(96, [46, 189, 133], [24, 26, 32]) });
          await page.waitForTimeout(600);
          await page.getByTestId('kyc-submit').click();
          await page.getByTestId('kyc-review').waitFor();
          await page.waitForTimeout(1200);
          await api(server, '/dev/kyc/review', { email: account.email, decision: 'reject', reason: KYC_REASON });
          await page.getByTestId('kyc-reason').waitFor();
          await page.waitForTimeout(1500);
        },
        expect(log) {
          const submitted = responseTo(log, '/kyc/submit');
          const rejected = frameWith(log, 'kyc', '"status":"rejected"');
          return [
            { atSeq: submitted, select: 'streams.kyc.status', equals: 'review', note: 'submitted: under review' },
            { atSeq: rejected, select: 'streams.kyc.status', equals: 'unverified', note: 'rejected: back to unverified, may resubmit' },
            { atSeq: rejected, select: 'streams.kyc.latest.status', equals: 'rejected' },
            { atSeq: rejected, select: 'streams.kyc.latest.reason', equals: KYC_REASON },
          ];
        },
        secrets: [KYC_DOC_NUMBER, 'iVBORw0KGgo'],
      },
      {
        name: 'compensation-ui',
        controlled: true,
        description: 'The compensation programme through the real UI: the trader (identity verified) closed a BTCUSDT long at a loss before the recording; after a Google-authenticator login /my/compensation/orders shows the not-active order for half the loss; the trader claims it with the welcome loss-protection voucher, two payout days pass (dev fast-forward, the other side), the trader boosts it with the welcome speed voucher, the rest of the schedule passes, and the trader withdraws the paid amount into the fund wallet (completed), then filters the list to Completed (view state). Checkpoint photos: claimed, withdrawn, the Completed filter.',
        async run(page, _ctl, { server, account, shot }) {
          const src = server.source;
          if (!src) throw new Error('compensation needs the controlled market');
          await server.db.updateTable('users').set({ kyc_status: 'verified' }).where('email', '=', account.email).execute();
          await api(server, '/trade/order', { clientOrderId: 'setup-open', symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.5, leverage: 10 }, account.token);
          await page.waitForTimeout(600);
          const mark = src.markPrice('BTCUSDT') ?? 50_000;
          src.setPrice('BTCUSDT', Number((mark * 0.98).toFixed(1)));
          await page.waitForTimeout(600);
          const [pos] = await api<{ id: string }[]>(server, '/trade/positions', undefined, account.token);
          if (!pos) throw new Error('setup: no position to close at a loss');
          await api(server, '/trade/position/close', { positionId: pos.id }, account.token);
          await page.waitForTimeout(600);
          const list = await api<{ list: { id: number; status: string }[] }>(server, '/compensation/orders', undefined, account.token);
          const order = list.list.find((o) => o.status === 'notActive');
          if (!order) throw new Error('setup: the loss made no compensation order');
          compensationId = order.id;

          await loginWithGoogle(page, server.base, account);
          await page.waitForTimeout(1000);
          await navigate(page, '/my/compensation/orders');
          const dialog = page.getByRole('dialog');
          await page.getByTestId(`comp-claim-${order.id}`).click();
          await dialog.locator('input[data-testid^="comp-voucher-"]').first().check();
          await page.waitForTimeout(500); // the confirm button debounces for 450 ms (SPEC §9)
          await dialog.getByTestId('comp-confirm').click();
          await page.getByText('Compensation claimed').waitFor();
          await page.waitForTimeout(1000);
          await shot('claimed');
          await api(server, '/dev/compensation/fast-forward', { email: account.email, days: 2 });
          await page.waitForTimeout(1500);
          await page.getByTestId(`comp-boost-${order.id}`).click();
          await dialog.locator('input[data-testid^="comp-voucher-"]').first().check();
          await page.waitForTimeout(500);
          await dialog.getByTestId('comp-confirm').click();
          await page.getByText('Payouts boosted').waitFor();
          await page.waitForTimeout(1000);
          await api(server, '/dev/compensation/fast-forward', { email: account.email, days: 30 });
          await page.getByTestId(`comp-withdraw-${order.id}`).waitFor();
          await page.waitForTimeout(800);
          await page.getByTestId(`comp-withdraw-${order.id}`).click();
          await page.waitForTimeout(500);
          await dialog.getByTestId('comp-confirm').click();
          await page.getByTestId(`comp-withdraw-${order.id}`).waitFor({ state: 'detached' });
          await page.waitForTimeout(1500);
          await shot('withdrawn, all orders');
          // View state (issue 16): the status filter on 'Completed' (in the record, shown by the replay).
          await page.getByRole('tablist', { name: 'Compensation status' }).getByRole('tab', { name: 'Completed', exact: true }).click();
          await page.waitForTimeout(1500);
          await shot('completed filter');
        },
        expect(log, last) {
          const key = `streams.compensation.${compensationId}`;
          return [
            { atSeq: responseTo(log, '/compensation/orders'), select: `${key}.status`, equals: 'notActive', note: 'half the loss, waiting to be claimed' },
            { atSeq: responseTo(log, '/compensation/claim'), select: `${key}.status`, equals: 'active' },
            { atSeq: frameWith(log, 'compensation', '"status":"inCompensation"'), select: `${key}.status`, equals: 'inCompensation', note: 'the first daily payout' },
            { atSeq: responseTo(log, '/compensation/boost'), select: `${key}.boosts`, equals: 1 },
            { atSeq: frameWith(log, 'compensation', '"status":"pending"'), select: `${key}.status`, equals: 'pending', note: 'fully paid, awaiting withdrawal' },
            { atSeq: responseTo(log, '/compensation/withdraw'), select: `${key}.status`, equals: 'completed' },
            { atSeq: last, select: 'streams.rejected', equals: 0 },
          ];
        },
      },
      {
        name: 'convert-expired-ui',
        description: 'Instant convert through the real UI with a quote left to expire: Google-authenticator login (the new account holds its 10,000 USDT in the fund wallet), /convert, 100 USDT to BTC from the fund account, Preview shows the quote and its countdown; the user waits out the 8 s window (the `after` delays on the core clock) and sees the expired message, asks for a new quote and converts inside its window (fee 0); the fund balances follow from the user socket.',
        async run(page, _ctl, { server, account }) {
          await loginWithGoogle(page, server.base, account);
          await page.waitForTimeout(1000);
          await navigate(page, '/convert');
          await page.getByTestId('cv-available').waitFor();
          await page.getByTestId('cv-amount').fill('100');
          await page.waitForTimeout(400);
          await page.getByTestId('cv-preview').click();
          await page.getByTestId('cv-countdown').waitFor();
          await page.getByText(CONVERT_MSG.quoteExpired).waitFor({ timeout: 15_000 });
          await page.getByTestId('cv-requote').waitFor();
          await page.waitForTimeout(1200);
          await page.getByTestId('cv-requote').click();
          await page.getByTestId('cv-countdown').waitFor();
          await page.waitForTimeout(1500);
          await page.getByTestId('cv-confirm').click();
          await page.getByTestId('cv-done').waitFor();
          await page.waitForTimeout(1500);
        },
        expect(log, last) {
          const quotes = log.records.filter((r) => r.kind === 'http.request' && r.path === CONVERT_PATHS.quote.replace(/^\/api/, ''));
          if (quotes.length !== 2) throw new Error(`expected two quote requests (first, then fresh after expiry), saw ${quotes.length}`);
          const converted = responseTo(log, CONVERT_PATHS.convert.replace(/^\/api/, ''));
          const answer = log.records.find((r) => r.seq === converted)?.envelope as { data?: { toAmount?: string } } | undefined;
          const btc = frameWith(log, 'balance', '"wallet":"fund"', '"coin":"BTC"');
          return [
            { atSeq: converted, select: 'session.value', equals: { loggedIn: 'idle' } },
            { atSeq: btc, select: 'streams.balances.fund:BTC.available', equals: answer?.data?.toAmount ?? 'missing', note: 'the fund wallet received exactly the quoted amount' },
            { atSeq: last, select: 'streams.balances.fund:USDT.available', equals: '9900.000000', note: '10,000 held, 100 converted, fee 0' },
            { atSeq: last, select: 'streams.rejected', equals: 0 },
          ];
        },
      },
      {
        name: 'copy-follow-ui',
        description: 'Copy trading through the real UI (issue 15): Google-authenticator login, /copy, Copy on the simulated lead trader Aurora Quant, the follow dialog (2,000 USDT from the fund wallet, ratio 0.5); the trader\'s next order (placed now through the dev endpoint) is mirrored by the server and the copied position appears live from the `copy` frame; Stop copying, closing the positions: the copy ends and its cash goes back.',
        async run(page, _ctl, { server, account }) {
          await loginWithGoogle(page, server.base, account);
          await page.waitForTimeout(1000);
          await navigate(page, '/copy');
          const copy = page.getByTestId('cp-copy-9000001');
          await copy.waitFor();
          await page.waitForTimeout(800);
          await copy.click();
          const dialog = page.getByRole('dialog');
          await dialog.getByTestId('cp-amount').fill('2000');
          await dialog.getByTestId('cp-ratio').fill('0.5');
          await page.waitForTimeout(300);
          await dialog.getByTestId('cp-follow-submit').click();
          await dialog.getByTestId('cp-follow-done').click();
          await page.getByTestId('cp-follow-9000001').waitFor();
          await page.waitForTimeout(1000);
          await api(server, COPY_PATHS.devTrade, { traderId: 9_000_001, symbol: 'BTCUSDT', side: 'buy', qty: 0.02, kind: 'marketOpen', leverage: 10 });
          await page.getByTestId('cp-my-position').first().waitFor();
          await page.waitForTimeout(1200);
          await page.getByTestId('cp-unfollow-9000001').click();
          await dialog.getByTestId('cp-unfollow-close').check();
          await dialog.getByTestId('cp-unfollow-confirm').click();
          await dialog.getByTestId('cp-unfollow-done').click();
          await page.getByTestId('cp-my-positions-empty').waitFor();
          await page.waitForTimeout(1500);
        },
        expect(log, last) {
          const followed = responseTo(log, COPY_PATHS.follow);
          const fund = frameWith(log, 'balance', '"wallet":"fund"', '"available":"8000.000000"');
          const copied = frameWith(log, 'copy', '"event":"order"', '"status":"filled"');
          const unfollowed = responseTo(log, COPY_PATHS.unfollow);
          if (!(followed < copied && copied < unfollowed)) throw new Error(`follow @${followed}, copied order @${copied}, unfollow @${unfollowed} out of order`);
          return [
            { atSeq: followed, select: 'session.value', equals: { loggedIn: 'idle' } },
            { atSeq: fund, select: 'streams.balances.fund:USDT.available', equals: '8000.000000', note: '2,000 USDT moved from the fund wallet into the copy wallet' },
            { atSeq: last, select: 'streams.rejected', equals: 0 },
          ];
        },
      },
      {
        name: 'flip-partial-close-ui',
        controlled: true,
        description: 'One-way netting and closing through the real UI (issue 14): Google-authenticator login, the BTCUSDT USDT-M order form: a market long 0.05 (the preview says "Opens long 0.05"), then a market sell of 0.08 whose preview says "Flips to short 0.03": the long closes and a short 0.03 opens with the rest; then Close on the position, 50 % in the confirmation dialog (quantity, estimated price and PnL shown), confirm: the short halves to 0.015.',
        async run(page, _ctl, { server, account, shot }) {
          await loginWithGoogle(page, server.base, account);
          await page.waitForTimeout(1200);
          await navigate(page, '/mFutures/BTCUSDT');
          const panel = page.getByRole('region', { name: 'Place order' });
          await page.getByTestId('available').waitFor();
          await page.waitForTimeout(1500);
          await panel.getByRole('tab', { name: 'Market' }).click();
          const side = async (name: 'Buy' | 'Sell') => panel.getByRole('radiogroup', { name: 'Side' }).getByRole('radio', { name, exact: true }).click();
          await side('Buy');
          await panel.getByLabel('Quantity').fill('0.05');
          await panel.getByTestId('order-preview').getByText('Opens long 0.05').waitFor();
          await panel.getByRole('button', { name: 'Buy / Long' }).click();
          const row = page.getByTestId('position-row');
          await row.getByText('Long').first().waitFor();
          await page.waitForTimeout(1000);
          await side('Sell');
          await panel.getByLabel('Quantity').fill('0.08');
          await panel.getByTestId('order-preview').getByText('Flips to short 0.03').waitFor();
          await page.waitForTimeout(500);
          await panel.getByRole('button', { name: 'Sell / Short' }).click();
          await row.getByText('Short').first().waitFor();
          await page.waitForTimeout(1000);
          await shot('short after the flip');
          await row.getByRole('button', { name: 'Close', exact: true }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByRole('button', { name: '50% of the position' }).click();
          await dialog.getByTestId('close-pnl').waitFor();
          await page.waitForTimeout(500);
          await dialog.getByTestId('close-confirm').click();
          await page.getByText(/^Position closed 0\.015 BTC at /).waitFor();
          await page.waitForTimeout(1000);
          // View state (issue 16): the user looks at the order history and the 1-hour chart; the
          // replay must show the screen that way (tests/e2e/replay.spec.ts checks the tabs).
          await page.getByRole('tablist', { name: 'Interval' }).getByRole('tab', { name: '1H', exact: true }).click();
          await page.getByRole('region', { name: 'Account' }).getByRole('tab', { name: /^Order history/ }).click();
          await page.waitForTimeout(1500);
          await shot('order history, 1-hour chart');
        },
        expect(log, last) {
          const frames = log.records.filter((r) => r.kind === 'ws.in' && typeof r.data === 'string' && r.data.includes('"type":"position"'));
          const parsed = frames.map((r) => ({ seq: r.seq, p: (JSON.parse(r.data as string) as { data: { id: string; side: string; qty: number; closed?: boolean } }).data }));
          const short = parsed.find((x) => x.p.side === 'short' && !x.p.closed);
          if (!short) throw new Error('no short position frame: the flip did not happen');
          const halved = parsed.find((x) => x.seq > short.seq && x.p.id === short.p.id && x.p.qty === 0.015);
          if (!halved) throw new Error('no frame of the short at 0.015: the partial close did not happen');
          const longClosed = parsed.find((x) => x.p.side === 'long' && x.p.closed);
          return [
            { atSeq: responseTo(log, '/user/info'), select: 'session.value', equals: { loggedIn: 'idle' } },
            ...(longClosed ? [{ atSeq: longClosed.seq, select: 'streams.closedPositions.length', equals: 1, note: 'the flip closes the long first' }] : []),
            { atSeq: short.seq, select: `streams.positions.${short.p.id}.side`, equals: 'short', note: 'the rest of the sell opens a short' },
            { atSeq: short.seq, select: `streams.positions.${short.p.id}.qty`, equals: 0.03 },
            { atSeq: halved.seq, select: `streams.positions.${short.p.id}.qty`, equals: 0.015, note: '50 % closed after the confirmation' },
            { atSeq: last, select: 'streams.rejected', equals: 0 },
          ];
        },
      },
      {
        name: 'withdrawal-lock-ui',
        description: 'The withdrawal lock after a password change, through the real UI: Google-authenticator login, /my/settings/password (current, new and confirmed password, Confirm change); the user info now carries the 24-hour lock; /my/wallet/withdrawal refuses with the SPEC wording and the time left (24 h 0 min), and no withdrawal is sent. View state: the wallet history filtered to withdrawals, then the transfer dialog opened on the assets overview and closed with Esc. Checkpoint photos: the refusal, the history unfiltered and filtered, the open dialog.',
        async run(page, _ctl, { server, account, shot }) {
          await loginWithGoogle(page, server.base, account);
          await page.waitForTimeout(1000);
          await navigate(page, '/my/settings/password');
          await page.getByLabel('Current password', { exact: true }).fill(account.password);
          await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
          await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
          await page.getByRole('button', { name: 'Confirm change' }).click();
          await page.getByText(USER_MSG.passwordChanged).first().waitFor();
          await page.waitForTimeout(1000);
          await navigate(page, '/my/wallet/withdrawal');
          await page.getByTestId('withdraw-lock').waitFor();
          const left = await page.getByTestId('withdraw-lock-left').innerText();
          if (!/(24 h 0|23 h 5\d) min/.test(left)) throw new Error(`lock banner shows '${left}'`);
          await page.getByText(WALLET_MSG.lockedAfterChange).waitFor();
          await page.waitForTimeout(1000);
          await shot('withdrawal refused'); // checkpoint photo (issue 16): the lock banner
          // View state (issue 16): the wallet history filtered to withdrawals (none was sent).
          await navigate(page, '/my/order/wallet-history');
          await page.getByTestId('history-type').waitFor();
          await page.waitForTimeout(1200);
          await shot('history, all types');
          await page.getByTestId('history-type').selectOption('withdrawal');
          await page.waitForTimeout(1500);
          await shot('history, withdrawals');
          // An open dialog is view state too: the transfer dialog from the assets overview, closed with Esc.
          await navigate(page, '/my/assets/overview');
          await page.getByTestId('assets-total').or(page.getByRole('heading', { level: 1, name: 'Wallet overview' })).first().waitFor();
          await page.waitForTimeout(1500);
          await page.getByRole('button', { name: 'Transfer', exact: true }).first().click();
          await page.getByRole('dialog', { name: 'Transfer' }).waitFor();
          await page.waitForTimeout(800);
          await shot('transfer dialog open');
          await page.keyboard.press('Escape');
          await page.getByRole('dialog').waitFor({ state: 'detached' });
          await page.waitForTimeout(800);
        },
        expect(log, last) {
          const changed = responseTo(log, '/user/modify-password');
          const info = responseTo(log, MONEY_PATHS.withdrawInfo.replace(/^\/api/, ''));
          const lock = (log.records.find((r) => r.seq === info)?.envelope as { data?: { lock?: { until?: number; reason?: string } } } | undefined)?.data?.lock;
          if (lock?.reason !== 'change' || !lock.until) throw new Error(`the withdraw info carries no change lock: ${JSON.stringify(lock)}`);
          if (log.records.some((r) => r.kind === 'http.request' && r.path === MONEY_PATHS.withdraw.replace(/^\/api/, ''))) throw new Error('a withdrawal was sent while locked');
          return [
            { atSeq: responseTo(log, '/user/info'), select: 'session.context.userInfo.withdrawLockUntil', equals: 0, note: 'no lock before the change' },
            { atSeq: changed, select: 'session.value', equals: { loggedIn: 'idle' }, note: 'the caller\'s own session stays' },
            { atSeq: info, select: 'session.context.userInfo.withdrawLockUntil', equals: lock.until, note: 'the refetched user info carries the 24-hour lock' },
            { atSeq: last, select: 'streams.rejected', equals: 0 },
          ];
        },
        secrets: [NEW_PASSWORD],
      },
      {
        name: 'notifications-ui',
        description: "The notification centre through the real UI (issue 26, Major 8): Google-authenticator login, /my/assets/overview with the header's bell and no count; a 25 USDT deposit is sent and confirmed by the chain (dev deposit + fast-forward, the other side); the user socket pushes the 'Deposit credited' notice and the bell shows 1; the user opens the bell (the dialog lists the notice), marks it read (POST /notify/read; the count goes) and closes the dialog with Esc. The dialog and the mark are view intents, so the replay shows and does what the user did. Checkpoint photos: the bell with its count, the open list, after mark read.",
        async run(page, _ctl, { server, account, shot }) {
          await loginWithGoogle(page, server.base, account);
          await page.waitForTimeout(1000);
          await navigate(page, '/my/assets/overview');
          await page.getByTestId('notify-bell').waitFor();
          await page.waitForTimeout(1500);
          await api(server, MONEY_PATHS.devDeposit.replace(/^\/api/, ''), { email: account.email, coin: 'USDT', network: 'TRC20', amount: '25' });
          await api(server, MONEY_PATHS.devFastForward.replace(/^\/api/, ''), { email: account.email, hours: 1 });
          await page.getByTestId('notify-count').waitFor({ timeout: 20_000 });
          await page.waitForTimeout(1500);
          await shot('bell with one unread');
          await page.getByTestId('notify-bell').click();
          const dialog = page.getByRole('dialog', { name: 'Notifications' });
          await dialog.waitFor();
          await page.waitForTimeout(1000);
          await shot('notification list');
          await dialog.getByRole('button', { name: 'Mark as read' }).first().click();
          await page.getByTestId('notify-count').waitFor({ state: 'detached' });
          await page.waitForTimeout(1000);
          await shot('marked read');
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'detached' });
          await page.waitForTimeout(800);
        },
        expect(log, last) {
          const pushed = frameWith(log, 'notification', '"kind":"depositCredited"');
          const read = responseTo(log, '/notify/read');
          return [
            { atSeq: pushed, select: 'streams.notifications.unread', equals: 1, note: 'the credited deposit rang the bell' },
            { atSeq: read, select: 'streams.notifications.unread', equals: 0, note: 'marked read on the server' },
            { atSeq: last, select: 'streams.rejected', equals: 0 },
          ];
        },
      },
    ];
    for (const sc of scenarios) {
      if (values.only && values.only !== sc.name) continue;
      const server = await startUiServer(sc.controlled ?? false, distDir);
      try {
        const account = await setupAccount(server);
        // UTC and en-US: the checkpoint photos show dates and numbers as any replaying machine renders them.
        const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, acceptDownloads: true, ...SHOT_CONTEXT });
        await pinShotFonts(page);
        await page.goto(`${server.base}/`);
        await page.evaluate(() => {
          localStorage.clear();
          localStorage.setItem('lang', 'en');
          localStorage.setItem('theme', 'dark');
        });
        const ctl = await controlMarketSocket(page);
        const live: LiveShot[] = [];
        // A checkpoint photo holds the market frames back so the screen stands still while it is taken.
        const shot = async (label: string) => {
          ctl.hold();
          try {
            live.push(await liveShot(page, label));
          } finally {
            ctl.release();
          }
        };
        await sc.run(page, ctl, { server, account, shot });
        await navigate(page, '/help-center');
        await page.getByTestId('help-center').waitFor();
        await page.waitForTimeout(500);
        const dl = page.waitForEvent('download');
        await page.getByRole('button', { name: 'Download report' }).click();
        const file = join(tmp, `${sc.name}.jsonl.gz`);
        await (await dl).saveAs(file);
        await page.close();
        // The download is gzipped (issue 16); the fixture is its plain JSON Lines.
        const text = gunzipSync(readFileSync(file)).toString('utf8');
        const log = parseReplayText(text);
        const last = log.records[log.records.length - 1]?.seq ?? 0;
        const expectations = sc.expect(log, last);
        const result = await replayLog(log, { checkpointAt: expectations.map((e) => e.atSeq) });
        const spec: FixtureExpect = { description: sc.description, hash: result.final.hash, expectations };
        const problems = [
          ...checkExpectations(result, spec).map((f) => f.message),
          ...result.divergences.map((d) => `divergence @${d.seq}: ${d.message}`),
          ...result.final.violations,
          ...(result.bundleHash === result.final.actorsHash ? [] : [`bundle checkpoint ${result.bundleHash} != replayed ${result.final.actorsHash}`]),
        ];
        const shots = live.map((s) => ({ seq: seqAtWall(log.header.startedAt, log.records, s.wallMs), label: s.label, png: s.png }));
        problems.push(...(await browserReplayProblems(browser, server.base, text, result.final.hash, shots)));
        if (problems.length > 0) {
          const kept = join(tmpdir(), `${sc.name}.failed.jsonl`);
          writeFileSync(kept, text);
          throw new Error(`${sc.name}: the UI recording does not replay as expected (kept in ${kept}):\n  ${problems.join('\n  ')}`);
        }
        for (const secret of [account.password, account.token, ...(sc.secrets ?? [])]) if (text.includes(secret)) throw new Error(`${sc.name}: a secret reached the bundle`);
        writeFileSync(join(values.out, `${sc.name}.jsonl`), text);
        writeFileSync(join(values.out, `${sc.name}.expect.json`), `${JSON.stringify(spec, null, 2)}\n`);
        writeCheckpoints(values.out, sc.name, shots);
        console.log(`${sc.name}: ${log.records.length} records, hash ${result.final.hash}${shots.length ? `, checkpoints ${shots.map((s) => `${s.label}@${s.seq}`).join(' ')}` : ''}`);
      } finally {
        await server.close();
      }
    }
  } finally {
    await browser.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
