import type { AppCore } from '../createAppCore.ts';
import type { LogRecord } from '../../ports/eventLog.ts';
import type { ReplayHost } from '../../ports/types.ts';
import { createReplayHandle, segmentsOf, takeCheckpoint, type ReplayHandle } from './driver.ts';
import { parseReplayText, ReplayParseError } from './parse.ts';
import { SCREEN_ACTOR_PREFIX } from '../screenActors.ts';

/**
 * The in-page half of `npm run replay -- <file> --browser` (docs/REPLAY.md): the built app opened
 * with `?replay=<url>` fetches the log, builds the core on replay ports (VirtualClock, recorded
 * HTTP answers and socket frames, recorded storage and randomness) instead of browser ports, and
 * exposes `window.__rftReplay` so Playwright can step it and take screenshots. No server needed.
 *
 * Differences from headless replay, on purpose: `ui.route` records navigate the real router, and
 * the mounted screens make their own view reads. Like headless, the core's actors get their intents
 * from the log only: what the mounted screens send them themselves (their readers' socket topics,
 * the KYC screen's user-info refresh) is dropped, since the log holds each such send as the intent
 * it recorded, at its record (`intents: 'log'`). So the state hash is the headless one at every
 * record, not only at the end.
 *
 * A log of several page loads (`segment` records, src/ports/logSegments.ts) replays each load like
 * the reload it was, as headless: at a segment the core of the load before stops and a fresh one
 * on fresh replay ports takes over on the same virtual clock; the page remounts the app on it
 * ({@link BrowserReplay.onCore}, main.tsx), so the screens start afresh too.
 */
export interface BrowserReplay {
  /** The running load's core (a new one at each `segment` record). */
  readonly core: AppCore;
  /** Called with the new core (and the load's number from 0) when a later page load starts: the page remounts the app on it. */
  onCore(fn: (core: AppCore, load: number) => void): void;
  /** seq, t and kind of every record (for the stepping side to choose checkpoints). */
  records: { seq: number; t: number; kind: string; path?: string }[];
  /** Connects `ui.route` records to the router once it exists (replays the latest route now). */
  setNavigate(navigate: (path: string) => void): void;
  /** Delivers every record up to and including `seq`; resolves with the state hash there. */
  stepTo(seq: number): Promise<{ seq: number; t: number; hash: string; divergences: string[]; violations: string[]; notes: string[] }>;
  /** Where the app started (the first `ui.route` of the log, else '/'). */
  initialPath: string;
}

/**
 * Real time the replayed app gets to make a recorded request (or mount a recorded screen) before the
 * replay moves on. The wait ends as soon as it happens (a few ms on a quiet machine); the bound only
 * matters when the screen never does, which is a divergence. 1 s was luck on a loaded machine: a
 * screen mounting late under load was reported as 'not on screen' and later answers moved ahead of
 * it (issue 25).
 */
const REQUEST_WAIT_MS = 5000;

async function waitUntil(host: ReplayHost, done: () => boolean, maxMs: number): Promise<void> {
  for (let waited = 0; !done() && waited < maxMs; waited += 10) await host.wait(10);
}

/** Real time a newly routed screen gets to load and mount before the next record. */
const ROUTE_SETTLE_MS = 300;

/** Fetches and parses the log at `url` through the page's `host`; a parse error names the line. */
export async function loadBrowserReplay(url: string, host: ReplayHost): Promise<BrowserReplay> {
  const res = await host.fetchText(url);
  if (!res.ok) throw new Error(`replay: cannot load ${url} (HTTP ${res.status})`);
  try {
    return startBrowserReplay(res.text, host);
  } catch (e) {
    if (e instanceof ReplayParseError) throw new Error(`replay: ${url}: ${e.message}`, { cause: e });
    throw e;
  }
}

/** Builds the replaying core from log text (see the module comment); `host` gives it the page's real time. */
export function startBrowserReplay(text: string, host: ReplayHost): BrowserReplay {
  const log = parseReplayText(text);
  const firstRoute = log.records.find((r) => r.kind === 'ui.route' && typeof r.path === 'string');
  const initialPath = firstRoute ? String(firstRoute.path) : '/';
  const location = { path: initialPath };
  let navigate: ((path: string) => void) | null = null;
  let remount: ((core: AppCore, load: number) => void) | null = null;
  const segments = segmentsOf(log);
  const handleFor = (i: number): ReplayHandle =>
    createReplayHandle(segments[i]?.log ?? log, location, {
      intents: 'log',
      onRoute: (path) => navigate?.(path),
      screens: 'mounted',
      startAt: segments[i]?.startAt,
      reloaded: segments[i]?.reloaded,
    });
  let load = 0;
  let h: ReplayHandle = handleFor(0);
  // What the loads before the running one reported (their ports are gone with their cores).
  const earlier: string[] = [];
  const earlierNotes: string[] = [];
  const report = (x: ReplayHandle) => [...x.ports.divergences.map((d) => `@${d.seq ?? '-'} ${d.message}`), ...x.screenMisses];
  // Reads a load's screens made that its recorded page, reloaded first, never made (src/ports/replay.ts ReplayPortsOptions.reloaded).
  const notesOf = (x: ReplayHandle) => x.ports.cutByReload.map((d) => `@${d.seq ?? '-'} ${d.message}`);
  /** The next page load: the old core stops, a fresh one starts at the load's time and path, and the page remounts the app on it. */
  const nextLoad = async () => {
    const old = h;
    // As at the end of the log: the screens get a moment to make what they were expected to.
    await host.wait(250);
    old.ports.finish();
    earlier.push(...report(old));
    earlierNotes.push(...notesOf(old));
    load += 1;
    const seg = segments[load];
    if (seg?.path) location.path = seg.path;
    h = handleFor(load);
    remount?.(h.core, load);
    navigate?.(location.path);
    // The screens of the old load unmount with the remount; then its core stops, and the new one's start-up requests settle.
    await host.wait(ROUTE_SETTLE_MS);
    old.core.stop();
  };
  let next = 0;
  const flush = () => host.wait(0);
  // Reads (`GET path`) the replayed screens did not make within REQUEST_WAIT_MS since the last route:
  // the screen that made them in the recording is gone here (it stayed mounted longer there, its
  // successor's chunk still loading), so its later recorded reads of that path do not wait again.
  // One such screen made ten sparkline reads after the user left it: fifty seconds of waiting.
  const gaveUp = new Set<string>();
  const firstOfLoad = new Set(segments.slice(1).map((sg) => sg.log.records[0]).filter((r): r is LogRecord => r !== undefined));
  return {
    get core() {
      return h.core;
    },
    onCore(fn) {
      remount = fn;
    },
    initialPath,
    records: log.records.map((r: LogRecord) => ({ seq: r.seq, t: r.t, kind: r.kind, ...(r.kind === 'ui.route' ? { path: String(r.path) } : {}) })),
    setNavigate(fn) {
      navigate = fn;
      fn(location.path);
    },
    async stepTo(seq) {
      let last: LogRecord | undefined;
      while (next < log.records.length) {
        const rec = log.records[next];
        if (!rec || rec.seq > seq) break;
        next += 1;
        if (firstOfLoad.has(rec)) {
          await nextLoad();
          gaveUp.clear();
        }
        // A request the user's screen made (over HTTP, or over the user socket: a `ws.out` request):
        // React renders and runs effects asynchronously, so give the replayed screen real time to
        // make it before anything recorded after it happens.
        const read = rec.kind === 'http.request' && rec.method === 'GET' ? `GET ${String(rec.path)}` : null;
        if ((rec.kind === 'http.request' || rec.kind === 'ws.out') && !(read !== null && gaveUp.has(read))) {
          await waitUntil(host, () => h.ports.isIssued(rec), REQUEST_WAIT_MS);
          if (read !== null && !h.ports.isIssued(rec)) {
            gaveUp.add(read);
            h.ports.skip(rec);
          }
        }
        // Likewise a screen intent: the screen showing that actor renders after its data arrived
        // (one animation frame after, through useStream), so give it real time to mount.
        const screenName = rec.kind === 'ui.intent' && typeof rec.actor === 'string' && rec.actor.startsWith(SCREEN_ACTOR_PREFIX) ? rec.actor.slice(SCREEN_ACTOR_PREFIX.length) : null;
        if (screenName) await waitUntil(host, () => h.core.screens.get(screenName) !== undefined, REQUEST_WAIT_MS);
        const target = log.header.startedAt + rec.t;
        if (target > h.ports.clock.now()) h.ports.clock.set(target);
        if (h.deliver(rec)) await flush();
        // NOTE: a route change mounts a lazily loaded screen whose effects subscribe topics and
        // make requests; give it real time to do so (the virtual clock does not move meanwhile).
        if (rec.kind === 'ui.route') {
          gaveUp.clear();
          await host.wait(ROUTE_SETTLE_MS);
        }
        last = rec;
      }
      await flush();
      // At the end, anything the screens were expected to send and never did is a divergence.
      if (next >= log.records.length) {
        await host.wait(250);
        h.ports.finish();
      }
      const cp = takeCheckpoint(h, last?.seq ?? 0, last?.t ?? 0);
      return {
        seq: cp.seq,
        t: cp.t,
        hash: cp.hash,
        divergences: [...earlier, ...report(h)],
        violations: cp.violations,
        notes: [...earlierNotes, ...notesOf(h)],
      };
    },
  };
}
