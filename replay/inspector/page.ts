/**
 * The replay inspector's page (served by replay/inspector/server.ts with its types stripped; plain
 * DOM, no imports, not part of the app bundle). Left: the log's events in a filterable windowed
 * list (only the rows in view exist in the DOM, so a 150,000-record log scrolls like a short one).
 * Right: a scrubber and step buttons, the REAL app in an iframe stepped to the selected event with
 * `window.__rftReplay.stepTo(seq)` (stepping backwards reloads it and steps forward again), and the
 * core's machines, the state and what the event changed, from the server's time-travel index.
 * Keys: ArrowLeft / ArrowRight step, Home / End jump, '/' focuses the filter.
 */

type Row = [number, number, string, string];
interface Timeline {
  name: string;
  records: Row[];
  env: { language?: string; theme?: string; viewport?: { width?: number; height?: number } } | null;
  every: number;
  loadMs: number;
  finalHash: string;
  divergences: string[];
  other: { name: string; records: Row[] } | null;
  diff: { seqA: number | null; seqB: number | null; same: boolean; message: string } | null;
}
interface StateAnswer {
  seq: number;
  record: Record<string, unknown> | null;
  machines: { session: unknown; market: unknown; user: unknown; books: Record<string, { status: unknown; sync: unknown }>; screens?: Record<string, unknown> } | null;
  changes: { path: string; before: unknown; after: unknown }[];
  state: Record<string, unknown> | null;
  violations: string[];
  replayed: number;
  ms: number;
}
interface ReplayHandle {
  stepTo(seq: number): Promise<{ seq: number; hash: string }>;
}

const ROW_H = 22;
const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing`);
  return el as T;
};

let tl: Timeline | null = null;
/** Index into tl.records of the selected event. */
let cur = 0;
let filtered: number[] = [];

/** A windowed list: a tall spacer, and absolutely placed rows for what is in view. */
class WindowedList {
  private spacer = document.createElement('div');
  private items: number[] = [];
  private rows: Row[] = [];
  private selected = -1;
  private marked = new Set<number>();
  constructor(
    private el: HTMLElement,
    private idPrefix: string,
    private onPick: (index: number) => void,
  ) {
    el.appendChild(this.spacer);
    el.addEventListener('scroll', () => this.render());
    el.addEventListener('click', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('.row');
      if (row?.dataset.index) this.onPick(Number(row.dataset.index));
    });
  }
  set(rows: Row[], items: number[], marked: number[] = []): void {
    this.rows = rows;
    this.items = items;
    this.marked = new Set(marked);
    this.spacer.style.height = `${items.length * ROW_H}px`;
    this.render();
  }
  select(index: number, scroll: boolean): void {
    this.selected = index;
    const pos = this.items.indexOf(index);
    if (scroll && pos >= 0) {
      const top = pos * ROW_H;
      if (top < this.el.scrollTop || top + ROW_H > this.el.scrollTop + this.el.clientHeight) this.el.scrollTop = Math.max(0, top - this.el.clientHeight / 2);
    }
    this.el.setAttribute('aria-activedescendant', pos >= 0 ? `${this.idPrefix}-${index}` : '');
    this.render();
  }
  private render(): void {
    const first = Math.max(0, Math.floor(this.el.scrollTop / ROW_H) - 5);
    const last = Math.min(this.items.length, Math.ceil((this.el.scrollTop + this.el.clientHeight) / ROW_H) + 5);
    const frag = document.createDocumentFragment();
    frag.appendChild(this.spacer);
    for (let pos = first; pos < last; pos++) {
      const index = this.items[pos] as number;
      const r = this.rows[index];
      if (!r) continue;
      const div = document.createElement('div');
      div.className = `row${this.marked.has(index) ? ' diverges' : ''}`;
      div.id = `${this.idPrefix}-${index}`;
      div.setAttribute('role', 'option');
      div.setAttribute('aria-selected', String(index === this.selected));
      div.dataset.index = String(index);
      div.dataset.seq = String(r[0]);
      div.style.top = `${pos * ROW_H}px`;
      const t = document.createElement('span');
      t.className = 't';
      t.textContent = `${(r[1] / 1000).toFixed(3)}s`;
      const k = document.createElement('span');
      k.className = 'k';
      k.textContent = r[2];
      div.append(`#${r[0]} `, t, k, ` ${r[3]}${this.marked.has(index) ? '  ← first divergence' : ''}`);
      frag.appendChild(div);
    }
    this.el.replaceChildren(frag);
  }
}

const listA = new WindowedList($('list-a'), 'a', (i) => select(i, false));
const listB = new WindowedList($('list-b'), 'b', () => undefined);

// ---- the app iframe, driven by the browser replay ----
const frame = $<HTMLIFrameElement>('app');
let appAt = -1;
let appTarget = -1;
let appBusy = false;
let appGen = 0;

function frameLoaded(): Promise<ReplayHandle> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      const w = frame.contentWindow as (Window & { __rftReplay?: ReplayHandle }) | null;
      if (w?.__rftReplay) resolve(w.__rftReplay);
      else if (Date.now() - started > 20_000) reject(new Error('the app did not start its replay'));
      else setTimeout(poll, 50);
    };
    poll();
  });
}

async function reloadApp(): Promise<ReplayHandle> {
  appGen += 1;
  appAt = 0;
  frame.src = `/?replay=/__replay/log.jsonl&gen=${appGen}`;
  // Wait for the new document (the old one may still answer for a moment).
  await new Promise<void>((r) => frame.addEventListener('load', () => r(), { once: true }));
  return frameLoaded();
}

let handle: Promise<ReplayHandle> | null = null;

async function driveApp(seq: number): Promise<void> {
  appTarget = seq;
  if (appBusy) return;
  appBusy = true;
  const status = $('app-status');
  try {
    while (appAt !== appTarget) {
      const target = appTarget;
      if (!handle || target < appAt) {
        status.textContent = 'reloading…';
        handle = reloadApp();
      }
      const h = await handle;
      status.textContent = `stepping to #${target}…`;
      await h.stepTo(target);
      appAt = target;
    }
    status.textContent = `at #${appAt}`;
    status.dataset.seq = String(appAt);
  } catch (e) {
    status.textContent = `error: ${e instanceof Error ? e.message : String(e)}`;
    handle = null;
    appAt = -1;
  } finally {
    appBusy = false;
  }
}

function fitFrame(): void {
  const vp = tl?.env?.viewport ?? {};
  const w = vp.width ?? 1440;
  const h = vp.height ?? 900;
  const box = $('frame-box');
  const scale = Math.min(1, box.clientWidth / w);
  frame.style.width = `${w}px`;
  frame.style.height = `${h}px`;
  frame.style.transform = `scale(${scale})`;
  box.style.height = `${Math.ceil(h * scale)}px`;
}

// ---- state panes ----
const show = (v: unknown): string => (v === undefined ? '(none)' : JSON.stringify(v));
let stateReq = 0;

async function loadState(seq: number): Promise<void> {
  const mine = ++stateReq;
  const res = await fetch(`/__inspector/api/state?seq=${seq}`);
  const s = (await res.json()) as StateAnswer;
  if (mine !== stateReq) return;
  const dl = $('machines');
  dl.replaceChildren();
  const add = (k: string, v: unknown) => {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = typeof v === 'string' ? v : show(v);
    dl.append(dt, dd);
  };
  if (s.machines) {
    add('session', s.machines.session);
    add('market socket', s.machines.market);
    add('user socket', s.machines.user);
    for (const [sym, b] of Object.entries(s.machines.books)) add(`book ${sym}`, `${show(b.status)} / resync ${show(b.sync)}`);
    for (const [key, value] of Object.entries(s.machines.screens ?? {})) add(`screen ${key}`, value);
  }
  for (const v of s.violations) add('VIOLATION', v);
  add('rebuilt', `${s.replayed} records past a snapshot in ${s.ms} ms`);
  document.body.dataset.stateSeq = String(s.seq);

  const changes = $('changes');
  if (s.changes.length === 0) changes.textContent = 'Nothing in the core state changed.';
  else {
    const table = document.createElement('table');
    const head = table.createTHead().insertRow();
    for (const h of ['path', 'before', 'after']) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = h;
      head.appendChild(th);
    }
    const body = table.createTBody();
    for (const c of s.changes) {
      const tr = body.insertRow();
      for (const v of [c.path || '(all)', show(c.before), show(c.after)]) tr.insertCell().textContent = v.length > 300 ? `${v.slice(0, 299)}…` : v;
    }
    changes.replaceChildren(table);
  }

  const state = $('state');
  state.replaceChildren();
  if (s.state) {
    const sections: [string, unknown][] = [
      ['session', s.state.session],
      ['market', s.state.market],
      ['user', s.state.user],
      ...Object.entries((s.state.streams ?? {}) as Record<string, unknown>).map(([k, v]) => [`streams.${k}`, v] as [string, unknown]),
    ];
    for (const [k, v] of sections) {
      const d = document.createElement('details');
      const sum = document.createElement('summary');
      sum.textContent = k;
      const pre = document.createElement('pre');
      d.addEventListener('toggle', () => {
        if (d.open && !pre.textContent) pre.textContent = JSON.stringify(v, null, 1);
      });
      d.append(sum, pre);
      state.appendChild(d);
    }
  } else state.textContent = 'Before the first event.';
}

// ---- selection ----
let appTimer: ReturnType<typeof setTimeout> | null = null;

function select(index: number, scroll = true): void {
  if (!tl || tl.records.length === 0) return;
  cur = Math.max(0, Math.min(tl.records.length - 1, index));
  const r = tl.records[cur] as Row;
  listA.select(cur, scroll);
  $<HTMLInputElement>('scrub').value = String(cur);
  $('cur-seq').textContent = `#${r[0]}`;
  $('cur-t').textContent = `t=${r[1]} ms · ${r[2]}`;
  $('record').textContent = `${r[2]} ${r[3]}`;
  void loadState(r[0]);
  // The app follows once the selection rests (a dragged scrubber does not queue every step).
  if (appTimer !== null) clearTimeout(appTimer);
  appTimer = setTimeout(() => void driveApp(r[0]), 120);
}

function applyFilter(): void {
  if (!tl) return;
  const q = $<HTMLInputElement>('filter').value.trim().toLowerCase();
  filtered = [];
  tl.records.forEach((r, i) => {
    if (!q || `#${r[0]} ${r[2]} ${r[3]}`.toLowerCase().includes(q)) filtered.push(i);
  });
  $('filter-count').textContent = `${filtered.length} / ${tl.records.length}`;
  const mark = tl.diff?.seqA != null ? [tl.records.findIndex((r) => r[0] === tl?.diff?.seqA)] : [];
  listA.set(tl.records, filtered, mark);
  listA.select(cur, true);
}

/** Step within the filtered list when a filter is on, else record by record. */
function step(delta: number): void {
  if (!tl) return;
  const pos = filtered.indexOf(cur);
  if (pos >= 0 && filtered.length < tl.records.length) {
    const next = filtered[Math.max(0, Math.min(filtered.length - 1, pos + delta))];
    if (next !== undefined) select(next);
  } else select(cur + delta);
}

async function loadTimeline(): Promise<void> {
  const res = await fetch('/__inspector/api/timeline');
  tl = (await res.json()) as Timeline;
  document.title = `Replay inspector: ${tl.name}`;
  $('log-name').textContent = tl.name;
  $('summary').textContent = `${tl.records.length} events · indexed in ${tl.loadMs} ms · a snapshot every ${tl.every} events · final hash ${tl.finalHash}${tl.divergences.length ? ` · ${tl.divergences.length} divergences` : ''}`;
  const scrub = $<HTMLInputElement>('scrub');
  scrub.max = String(Math.max(0, tl.records.length - 1));
  const lang = tl.env?.language;
  if (typeof lang === 'string') localStorage.setItem('lang', lang);
  const theme = tl.env?.theme;
  if (typeof theme === 'string') localStorage.setItem('theme', theme);
  const banner = $('diff-banner');
  if (tl.diff) {
    banner.hidden = false;
    banner.textContent = tl.diff.message;
  } else banner.hidden = true;
  const otherBox = $('other');
  if (tl.other) {
    otherBox.hidden = false;
    $('other-name').textContent = tl.other.name;
    const seqB = tl.diff?.seqB;
    const markB = seqB != null ? tl.other.records.findIndex((r) => r[0] === seqB) : -1;
    listB.set(tl.other.records, tl.other.records.map((_, i) => i), markB >= 0 ? [markB] : []);
    if (markB >= 0) listB.select(markB, true);
  } else otherBox.hidden = true;
  fitFrame();
  handle = null;
  appAt = -1;
  cur = 0;
  applyFilter();
  const startAt = tl.diff?.seqA != null ? tl.records.findIndex((r) => r[0] === tl?.diff?.seqA) : 0;
  select(Math.max(0, startAt));
}

// ---- wiring ----
$('first').addEventListener('click', () => select(0));
$('last').addEventListener('click', () => select((tl?.records.length ?? 1) - 1));
$('back').addEventListener('click', () => step(-1));
$('fwd').addEventListener('click', () => step(1));
$<HTMLInputElement>('scrub').addEventListener('input', (e) => select(Number((e.target as HTMLInputElement).value)));
$('filter').addEventListener('input', applyFilter);
window.addEventListener('resize', fitFrame);
document.addEventListener('keydown', (e) => {
  const target = e.target as HTMLElement;
  const typing = target instanceof HTMLInputElement && (target.type === 'search' || target.type === 'text');
  if (e.key === '/' && !typing) {
    e.preventDefault();
    $('filter').focus();
    return;
  }
  if (typing || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === 'ArrowRight' || e.key === 'ArrowDown') step(1);
  else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') step(-1);
  else if (e.key === 'Home') select(0);
  else if (e.key === 'End') select((tl?.records.length ?? 1) - 1);
  else return;
  e.preventDefault();
});

async function loadFile(file: File): Promise<void> {
  const status = $('drop-status');
  status.textContent = `loading ${file.name}…`;
  const res = await fetch(`/__inspector/api/load?name=${encodeURIComponent(file.name)}`, { method: 'POST', body: file });
  const body = (await res.json()) as { ok?: boolean; error?: string; records?: number };
  if (!res.ok || !body.ok) {
    status.textContent = `not loaded: ${body.error ?? res.statusText}`;
    return;
  }
  status.textContent = `loaded ${file.name} (${body.records ?? 0} events)`;
  await loadTimeline();
}
const drop = $('drop');
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  const f = e.dataTransfer?.files[0];
  if (f) void loadFile(f);
});
$<HTMLInputElement>('file-input').addEventListener('change', (e) => {
  const f = (e.target as HTMLInputElement).files?.[0];
  if (f) void loadFile(f);
});

void loadTimeline();
export {};
