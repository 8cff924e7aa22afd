import type { AppCore, AppCoreOptions } from '../createAppCore.ts';
import { createAppCore } from '../createAppCore.ts';
import type { EventLog } from '../../ports/eventLog.ts';
import { createEventLog } from '../../ports/eventLog.ts';
import type { LoadRecords } from '../../ports/logSegments.ts';
import { createRecordingPorts } from '../../ports/recording.ts';
import type { Redactor } from '../../ports/redact.ts';
import { classifyField, createRedactor } from '../../ports/redact.ts';
import { describeBlobs, SCREEN_ACTOR_PREFIX } from '../screenActors.ts';
import type { Ports } from '../../ports/types.ts';
import { VIEW_ACTOR, VIEW_SET } from '../viewState.ts';

/**
 * Recording the whole app (DESIGN §2–§3): the transport records of src/ports/recording.ts plus the
 * kinds only the composition root knows about:
 * - `env` {appVersion, language, theme, viewport:{width,height}, userAgent, path} once at start
 *   (and again whenever {@link RecordedCore.recordEnv} is called: a theme or language change);
 * - `ui.intent` {actor:'session'|'market'|'user'|'screen:<name>', event}: every event the UI sends to
 *   an actor (core actors here, screen-owned ones through `core.screens`, src/core/screenActors.ts),
 *   redacted with the SAME redactor as the transport (so a password typed in an intent and the
 *   one in the request body get the same placeholder and the replayed request still matches);
 * - `ui.route` {path}: the screen the user is on (the browser replay opens it);
 * - `ui.intent` {actor:'view', event:{type:'view.set', key, value}}: view state the user changed
 *   (tab, filter, page, chart setting, open dialog; src/core/viewState.ts).
 * Events the core derives itself (`socket.setToken`, `session.unauthorized`) are not intents:
 * replay re-derives them, so logging them would deliver them twice.
 */

export type IntentActor = 'session' | 'market' | 'user';
export const INTENT_ACTORS: readonly IntentActor[] = ['session', 'market', 'user'];
export const DERIVED_EVENTS: ReadonlySet<string> = new Set(['socket.setToken', 'session.unauthorized']);

/**
 * Redacts an intent: secret fields by name (the transport's redactor, so placeholders match the
 * request bodies), and a form edit `{field, value}` whose FIELD NAME is secret (a document number
 * typed into the KYC form) gets its value replaced as if it were that field.
 */
export function redactIntent<T extends { type: string }>(redactor: Redactor, event: T): T {
  const e = event as T & { field?: unknown; value?: unknown };
  if (typeof e.field === 'string' && typeof e.value === 'string' && e.value !== '') {
    const cls = classifyField(e.field);
    if (cls) return { ...redactor.redact(e), value: redactor.secret(e.value, cls) };
  }
  return redactor.redact(event);
}

export interface EnvInfo {
  appVersion: string;
  language: string;
  theme: string;
  viewport: { width: number; height: number };
  userAgent: string;
  path?: string;
}

/**
 * Wraps `send` of the core's actors so each UI intent is appended to `log` before it is
 * delivered. Returns a function that restores the original `send`s.
 */
export function instrumentIntents(core: Pick<AppCore, IntentActor>, log: EventLog, redactor: Redactor): () => void {
  const restore: (() => void)[] = [];
  for (const name of INTENT_ACTORS) {
    const actor = core[name] as { send(e: { type: string }): void };
    const original = actor.send;
    const bound = original.bind(actor);
    actor.send = (event: { type: string }) => {
      if (!DERIVED_EVENTS.has(event.type)) log.append('ui.intent', { actor: name, event: redactor.redact(event) });
      bound(event);
    };
    restore.push(() => {
      actor.send = original;
    });
  }
  return () => restore.forEach((r) => r());
}

export interface RecordedCore {
  core: AppCore;
  log: EventLog;
  redactor: Redactor;
  /** Appends an `env` record (call again after a language / theme / viewport change). */
  recordEnv(env: EnvInfo): void;
  /** Appends a `ui.route` record when the path changes. */
  recordRoute(path: string): void;
}

/**
 * Builds the core with recording on: one log and ONE redactor shared by the transport recorders
 * and the intent recorder. Use it instead of `createAppCore` in the browser composition root.
 */
export function createRecordedCore(raw: Ports, options: AppCoreOptions & { env?: EnvInfo }): RecordedCore {
  const log = options.log ?? createEventLog({ now: () => raw.clock.now(), maxBytes: options.logBytes });
  const redactor = createRedactor();
  registerRedactor(log, redactor);
  if (options.env) log.append('env', { ...options.env });
  const ports = createRecordingPorts(raw, log, redactor);
  const core = createAppCore(ports, { ...options, log, record: false });
  instrumentIntents(core, log, redactor);
  core.view.onIntent = (key, value) => log.append('ui.intent', { actor: VIEW_ACTOR, event: redactIntent(redactor, { type: VIEW_SET, key, value }) });
  core.screens.onIntent = (name, event) => log.append('ui.intent', { actor: `${SCREEN_ACTOR_PREFIX}${name}`, event: redactIntent(redactor, describeBlobs(event)) });
  let lastPath: string | null = null;
  return {
    core,
    log,
    redactor,
    recordEnv: (env) => void log.append('env', { ...env }),
    recordRoute(path) {
      if (path === lastPath) return;
      lastPath = path;
      log.append('ui.route', { path: redactor.redact(path) });
    },
  };
}

const storedLoads = new WeakMap<EventLog, () => Promise<LoadRecords[]>>();

/**
 * Connects a log to the page loads kept before it in the browser (main.tsx, with
 * src/ports/logStore.ts loaded after the first paint): 'Report a problem' joins them into the bundle.
 */
export function registerStoredLoads(log: EventLog, earlier: () => Promise<LoadRecords[]>): void {
  storedLoads.set(log, earlier);
}

/** The page loads kept before this log's (none when nothing stores them: tests, Node, no IndexedDB). */
export async function storedLoadsOf(log: EventLog): Promise<LoadRecords[]> {
  const earlier = storedLoads.get(log);
  if (!earlier) return [];
  try {
    return await earlier();
  } catch {
    return [];
  }
}

const redactors = new WeakMap<EventLog, Redactor>();

/** The redactor that wrote `log` (registered by {@link createRecordedCore}); null for other logs. */
export function redactorFor(log: EventLog): Redactor | null {
  return redactors.get(log) ?? null;
}

/** Remembers which redactor wrote a log, so exports redact live state with the same placeholders. */
export function registerRedactor(log: EventLog, redactor: Redactor): void {
  redactors.set(log, redactor);
}
