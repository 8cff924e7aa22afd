import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import type { LogRecord } from '../src/ports/eventLog.ts';

/**
 * Screenshots at checkpoints (issue 16, docs/REPLAY.md "Checkpoint screenshots"): the UI recorder
 * (scripts/record-ui-session.ts) photographs the LIVE screen at a few moments of a recording and
 * stores each as `fixtures/sessions/<name>.checkpoints/<seq>.png`, where `seq` is the last record
 * the app had logged when the photo was taken. The browser replay test
 * (tests/e2e/replay.spec.ts) steps the replay to that seq, photographs the replayed screen the
 * same way and compares the two with pixelmatch ({@link comparePngs}).
 *
 * The photo is the app's main content (`main.rf-main`: no header, so no live clock or ticker
 * strip), with the mouse parked in the corner (no hover styles), animations stopped and the caret
 * hidden. Hidden in both photos: the toasts (they come and go on wall-clock timers, so the live
 * photo and the replayed one catch them at different moments). Masked (painted over in both, so
 * they always match there): anything marked `data-replay-mask`. Nothing else is masked: the
 * replay shows the recorded data at the recorded virtual time, so dates, amounts and countdowns
 * are pixel-equal.
 */
/** The page options both photos are taken with (the zone and locale dates and numbers render in). */
export const SHOT_CONTEXT = { timezoneId: 'UTC', locale: 'en-US' } as const;

export const SHOT_MASKS = ['[data-replay-mask]'] as const;
/**
 * The photo's fonts are named, not left to the machine: the app's stacks (Arial, Helvetica …) fall
 * back to DejaVu on a bare Debian with Chromium (CI installs it without recommends), but a machine
 * with fonts-liberation maps Arial to Liberation Sans and every glyph moved (1-5 % of the pixels
 * differed on all six photographed fixtures). DejaVu ships with fontconfig, so it is on every
 * machine that runs Chromium; the stored photos were taken with it.
 */
const SHOT_FONTS = ":root { --font: 'DejaVu Sans', sans-serif !important; --font-mono: 'DejaVu Sans Mono', monospace !important; }";
const SHOT_STYLE = '[data-sonner-toaster] { visibility: hidden !important; }';

/**
 * Names the photo's fonts (SHOT_FONTS) from the page's first script on, on every page a photo is
 * taken of (the live recording and the browser replay): not in the photo's own stylesheet, since the
 * candle chart reads --font once when it is created and draws its axes on a canvas, which a
 * stylesheet added at the photo cannot change any more.
 */
export async function pinShotFonts(page: Page): Promise<void> {
  await page.addInitScript((css) => {
    const add = () => {
      const style = document.createElement('style');
      style.setAttribute('data-shot-fonts', '');
      style.textContent = css;
      document.head.append(style);
    };
    if (document.head) add();
    else document.addEventListener('DOMContentLoaded', add, { once: true });
  }, SHOT_FONTS);
}

/** The main content of the page as a PNG, the same way for the live screen and the replay. */
export async function mainShot(page: Page): Promise<Buffer> {
  await page.mouse.move(0, 0);
  const main = page.locator('main.rf-main');
  return main.screenshot({ animations: 'disabled', caret: 'hide', scale: 'css', mask: SHOT_MASKS.map((m) => page.locator(m)), maskColor: '#ff00ff', style: SHOT_STYLE });
}

/** A photo taken while recording, at the page's wall time (the log's `t` is `now - startedAt`). */
export interface LiveShot {
  label: string;
  wallMs: number;
  png: Buffer;
}

/**
 * Takes a live photo of a screen that stands still: the caller holds the market frames back
 * (scripts/record-ui-session.ts), this waits `settleMs` for frames already on their way to render,
 * then photographs and compares the main content's markup before and after. A photo during which
 * the content changed (a timer-driven countdown, a late frame) is taken again, so the photo shows
 * the state of the wall time read BEFORE it, which {@link seqAtWall} maps to a seq.
 */
export async function liveShot(page: Page, label: string, settleMs = 600, attempts = 8): Promise<LiveShot> {
  await page.waitForTimeout(settleMs);
  // The main content's markup; the screenshot itself sets and removes inline styles, so the check
  // is the markup before against after, not every mutation in between.
  const markup = () => page.evaluate(() => document.querySelector('main.rf-main')?.innerHTML ?? '');
  for (let i = 1; ; i++) {
    const before = await markup();
    const wallMs = await page.evaluate(() => Date.now());
    const png = await mainShot(page);
    const after = await markup();
    if (before === after) return { label, wallMs, png };
    if (i >= attempts) {
      let at = 0;
      while (at < before.length && before[at] === after[at]) at++;
      throw new Error(`checkpoint '${label}': the screen kept changing while photographed (attempt ${i}; first change at '${before.slice(Math.max(0, at - 80), at + 40)}' → '${after.slice(Math.max(0, at - 80), at + 40)}')`);
    }
    await page.waitForTimeout(150);
  }
}

/** The seq of the last record logged at or before `wallMs` (the state the live photo shows). */
export function seqAtWall(startedAt: number, records: readonly LogRecord[], wallMs: number): number {
  let seq = records[0]?.seq ?? 0;
  for (const r of records) if (startedAt + r.t <= wallMs) seq = r.seq;
  return seq;
}

export const checkpointDir = (fixturesDir: string, name: string) => join(fixturesDir, `${name}.checkpoints`);

/** Writes the photos of one fixture (replacing the old ones) as `<seq>.png`. */
export function writeCheckpoints(fixturesDir: string, name: string, shots: readonly { seq: number; png: Buffer }[]): void {
  const dir = checkpointDir(fixturesDir, name);
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  if (shots.length === 0) return;
  mkdirSync(dir, { recursive: true });
  for (const s of shots) writeFileSync(join(dir, `${s.seq}.png`), s.png);
}

/** The stored photos of a fixture, by seq (ascending). */
export function readCheckpoints(fixturesDir: string, name: string): { seq: number; png: Buffer }[] {
  const dir = checkpointDir(fixturesDir, name);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^\d+\.png$/.test(f))
    .map((f) => ({ seq: Number(f.slice(0, -4)), png: readFileSync(join(dir, f)) }))
    .sort((a, b) => a.seq - b.seq);
}

export interface PngDiff {
  width: number;
  height: number;
  /** The sizes differ: every pixel counts as different. */
  sizeMismatch: boolean;
  /** Pixels pixelmatch counts as different (anti-aliased pixels excluded). */
  differing: number;
  ratio: number;
  /** A PNG of the same size: differing pixels red on the expected image faded (pixelmatch's output). */
  diffPng: Buffer | null;
}

/** pixelmatch's colour threshold (0..1, perceptual YIQ distance; its default is 0.1): text rendering and focus rings stay below it. */
export const COLOR_THRESHOLD = 0.1;
/** The share of differing pixels a match may have (0.05 %, about 600 px of a 1440 x 836 photo). A wrong tab, filter or row is far above it. */
export const MAX_DIFF_RATIO = 0.0005;

/**
 * Compares two PNGs with pixelmatch (decoded by pngjs): a pixel differs when its perceptual colour
 * distance is above `threshold`; pixels pixelmatch detects as anti-aliasing do not count.
 */
export function comparePngs(expected: Buffer, actual: Buffer, threshold = COLOR_THRESHOLD): PngDiff {
  const x = PNG.sync.read(expected);
  const y = PNG.sync.read(actual);
  if (x.width !== y.width || x.height !== y.height) {
    return { width: y.width, height: y.height, sizeMismatch: true, differing: y.width * y.height, ratio: 1, diffPng: null };
  }
  const diff = new PNG({ width: x.width, height: x.height });
  const differing = pixelmatch(x.data, y.data, diff.data, x.width, x.height, { threshold, includeAA: false });
  return { width: x.width, height: x.height, sizeMismatch: false, differing, ratio: differing / Math.max(1, x.width * x.height), diffPng: PNG.sync.write(diff) };
}

/**
 * Steps an open browser replay to `seq` and photographs it until the photo matches `expected`
 * (the replayed screen may still be mounting, loading a lazy chunk or waiting for a frame), at most
 * `timeoutMs`. Returns the last comparison and photo (a failure shows how far off it was). The bound
 * ends as soon as the photo matches, so it costs nothing on a quiet machine; 6 s was luck with a CPU
 * hog beside the suite (flip-partial-close-ui's 1-hour chart at @194 was still drawing when the
 * bound ran out, once in three loaded runs; issue 25), hence 15 s.
 */
export async function replayShotAt(
  page: Page,
  stepTo: (seq: number) => Promise<unknown>,
  seq: number,
  expected: Buffer,
  timeoutMs = 15_000,
): Promise<{ diff: PngDiff; actual: Buffer }> {
  await stepTo(seq);
  const until = Date.now() + timeoutMs;
  for (;;) {
    await page.waitForTimeout(250);
    const actual = await mainShot(page);
    const diff = comparePngs(expected, actual);
    if ((!diff.sizeMismatch && diff.ratio <= MAX_DIFF_RATIO) || Date.now() > until) return { diff, actual };
  }
}
