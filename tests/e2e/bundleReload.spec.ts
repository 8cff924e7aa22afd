import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { parseReplayText } from '../../src/core/replay/parse.ts';
import { replayLog } from '../../src/core/replay/driver.ts';
import { SEGMENT_KIND } from '../../src/ports/logSegments.ts';
import { openReplayPage } from '../../replay/replayPage.ts';
import { pushRoute } from './navigate.ts';

/**
 * A bundle survives reloads (issue 27, point 7), in Chromium with its real IndexedDB against the
 * real server: the trade screen, reloaded twice, then 'Report a problem' on the help centre. The
 * bundle holds every page load as a segment (the trade screen's first load included), replays
 * headless to the exported state with the same hash twice, and the browser replay (the app
 * remounted on a fresh core at each segment) ends on the same hash.
 */
test('a support bundle taken after two reloads holds every page load and replays to one hash', async ({ page }, testInfo) => {
  await page.goto('/');
  await page.evaluate(() => {
    localStorage.clear();
    localStorage.setItem('lang', 'en');
    localStorage.setItem('theme', 'dark');
  });
  // The store writes every second: give each load more than that before it goes.
  await page.waitForTimeout(2500);
  await page.goto('/mFutures/BTCUSDT');
  await expect(page.getByRole('region', { name: 'Place order' })).toBeVisible();
  await page.waitForTimeout(2500);
  for (let i = 0; i < 2; i++) {
    await page.reload();
    await expect(page.getByRole('region', { name: 'Place order' })).toBeVisible();
    await page.waitForTimeout(2500);
  }
  await pushRoute(page, '/help-center');
  await expect(page.getByTestId('help-center')).toBeVisible();
  await page.waitForTimeout(500);
  const downloadP = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download report' }).click();
  const path = testInfo.outputPath('bundle.jsonl.gz');
  await (await downloadP).saveAs(path);
  const text = gunzipSync(readFileSync(path)).toString('utf8');

  const log = parseReplayText(text);
  const segments = log.records.filter((r) => r.kind === SEGMENT_KIND);
  // '/' (where the test set the language) and the trade screen's three loads, in order
  expect(segments.map((s) => s.path)).toEqual(['/', '/mFutures/BTCUSDT', '/mFutures/BTCUSDT', '/mFutures/BTCUSDT']);
  expect((log.header.bundle as { contents: { loads: number } }).contents.loads).toBe(4);
  // every load kept its records from its start: its env record, its first route, its market socket
  for (const [i, seg] of segments.entries()) {
    const next = segments[i + 1];
    const own = log.records.filter((r) => r.seq > seg.seq && (!next || r.seq < next.seq));
    expect(own[0]?.kind, `load ${i + 1} starts with its env record`).toBe('env');
    expect(own.some((r) => r.kind === 'ui.route' && r.path === seg.path)).toBe(true);
    expect(own.some((r) => r.kind === 'ws.open')).toBe(true);
  }
  // the trade screen's first load (before both reloads) got its BTCUSDT market frames
  const firstTrade = segments[1];
  expect(log.records.some((r) => r.seq > (firstTrade?.seq ?? 0) && r.seq < (segments[2]?.seq ?? 0) && r.kind === 'ws.in' && String(r.data).includes('BTCUSDT'))).toBe(true);

  const a = await replayLog(log);
  const b = await replayLog(log);
  expect(a.divergences.filter((d) => d.what !== 'http')).toEqual([]);
  expect(a.final.actorsHash).toBe(a.bundleHash);
  expect(b.final.hash).toBe(a.final.hash);

  const replayPage = await page.context().newPage();
  const { leaked, stepTo } = await openReplayPage(replayPage, text);
  const last = log.records[log.records.length - 1]?.seq ?? 0;
  const cp = await stepTo(last);
  expect(cp.seq).toBe(last);
  expect(cp.hash).toBe(a.final.hash);
  await expect(replayPage.getByTestId('help-center')).toBeVisible();
  expect(leaked).toEqual([]);
});
