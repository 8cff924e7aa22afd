import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { parseReplayText } from '../../src/core/replay/parse.ts';
import { replayLog } from '../../src/core/replay/driver.ts';
import { openReplayPage } from '../../replay/replayPage.ts';
import { MAX_DIFF_RATIO, readCheckpoints, replayShotAt, SHOT_CONTEXT } from '../../replay/checkpointShots.ts';

/**
 * Record and replay end to end, against the real server and the built app:
 * 1. the app records by default; on /help-center 'Report a problem' downloads a support bundle;
 * 2. the bundle carries the env (version, language, theme, viewport) and no password or token;
 * 3. replayed headless in Node through the real machines it reaches the exported actor state;
 * 4. opened in the browser with `?replay=` (no API traffic allowed) it shows the same screen.
 */
test('a support bundle exported from the help centre replays to the same state and screen', async ({ page }, testInfo) => {
  await page.goto('/');
  await page.evaluate(() => {
    localStorage.clear();
    localStorage.setItem('lang', 'en');
    localStorage.setItem('theme', 'light');
  });
  await page.goto('/help-center');
  await expect(page.getByTestId('help-center')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Help centre' })).toBeVisible();
  await page.waitForTimeout(1500); // some market traffic into the ring

  const downloadP = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download report' }).click();
  const download = await downloadP;
  expect(download.suggestedFilename()).toMatch(/^rft-support-.*\.jsonl\.gz$/);
  const path = testInfo.outputPath('bundle.jsonl.gz');
  await download.saveAs(path);
  await expect(page.getByRole('status')).toContainText('Report saved as');
  const text = gunzipSync(readFileSync(path)).toString('utf8'); // the download is gzipped (issue 16)

  const log = parseReplayText(text);
  expect(log.header.bundle).toMatchObject({ appVersion: '1.0.0', language: 'en', theme: 'light', viewport: { width: 1440, height: 900 }, path: '/help-center' });
  expect(log.records.some((r) => r.kind === 'ui.route' && r.path === '/help-center')).toBe(true);
  expect(log.records.some((r) => r.kind === 'ws.open')).toBe(true);

  const result = await replayLog(log);
  expect(result.divergences.filter((d) => d.what !== 'http')).toEqual([]);
  expect(result.final.actorsHash).toBe(result.bundleHash);

  // Browser replay: the same built app, but every HTTP and socket answer comes from the bundle.
  const replayPage = await page.context().newPage();
  const { leaked, stepTo } = await openReplayPage(replayPage, text);
  const last = log.records[log.records.length - 1]?.seq ?? 0;
  const cp = await stepTo(last);
  expect(cp.seq).toBe(last);
  await expect(replayPage.getByTestId('help-center')).toBeVisible();
  await expect(replayPage.getByRole('heading', { name: 'Help centre' })).toBeVisible();
  expect(leaked).toEqual([]);
  await replayPage.screenshot({ path: testInfo.outputPath('replayed-help-center.png') });
});

for (const name of ['login-google-ui', 'reconnect-storm-ui', 'orderbook-gap-ui', 'liquidation-ui', 'kyc-rejection-ui', 'compensation-ui', 'convert-expired-ui', 'withdrawal-lock-ui', 'copy-follow-ui', 'flip-partial-close-ui']) {
  test(`${name}: recorded through the UI, replays in the browser to the same hash as headless`, async ({ page }) => {
    const text = readFileSync(`fixtures/sessions/${name}.jsonl`, 'utf8');
    const spec = JSON.parse(readFileSync(`fixtures/sessions/${name}.expect.json`, 'utf8')) as { hash: string };
    await page.addInitScript(() => localStorage.setItem('lang', 'en')); // the recorded language, as the CLI does
    const { leaked, stepTo } = await openReplayPage(page, text);
    const cp = await stepTo(parseReplayText(text).records.at(-1)?.seq ?? 0);
    expect(cp.divergences).toEqual([]);
    expect(cp.violations).toEqual([]);
    expect(cp.hash).toBe(spec.hash);
    await expect(page.getByTestId('help-center')).toBeVisible();
    if (name === 'login-google-ui') await expect(page.getByRole('button', { name: 'Account', exact: true })).toBeVisible();
    expect(leaked).toEqual([]);
  });
}

/**
 * View state in the record (issue 16): the flip fixture's user switched the chart to 1H and the
 * account panel to 'Order history' before going to the help centre; stepped to just before that
 * route, the replayed trade screen shows both (the recorded `view.set` intents, not the defaults).
 */
test('flip-partial-close-ui: the replayed trade screen shows the tab and interval the user had', async ({ page }) => {
  const text = readFileSync('fixtures/sessions/flip-partial-close-ui.jsonl', 'utf8');
  const records = parseReplayText(text).records;
  const views = records.filter((r) => r.kind === 'ui.intent' && r.actor === 'view').map((r) => r.event as { key: string; value: unknown });
  expect(views).toEqual(expect.arrayContaining([{ type: 'view.set', key: 'trade.accountTab', value: 'orderHistory' }, { type: 'view.set', key: 'trade.interval', value: '1h' }]));
  const leaked = await replayUntilHelpCentre(page, text);
  await expect(page.getByRole('region', { name: 'Account' }).getByRole('tab', { name: /^Order history/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: 'Account' }).getByRole('tab', { name: /^Positions/ })).toHaveAttribute('aria-selected', 'false');
  await expect(page.getByRole('tablist', { name: 'Interval' }).getByRole('tab', { name: '1H', exact: true })).toHaveAttribute('aria-selected', 'true');
  expect(leaked).toEqual([]);
});

test('withdrawal-lock-ui: the replayed wallet history shows the type filter the user picked', async ({ page }) => {
  const text = readFileSync('fixtures/sessions/withdrawal-lock-ui.jsonl', 'utf8');
  // the user went on to the wallet overview (the transfer dialog) before the help centre
  const leaked = await replayUntilRoute(page, text, '/my/assets/overview');
  await expect(page.getByRole('heading', { level: 1, name: 'Wallet history' })).toBeVisible();
  await expect(page.getByTestId('history-type')).toHaveValue('withdrawal');
  expect(leaked).toEqual([]);
});

/**
 * Opens a fixture in the browser replay (English) and steps to the record before it leaves for the
 * help centre, with no divergence on the way. Returns the secrets the page leaked (none expected).
 */
async function replayUntilHelpCentre(page: Page, text: string): Promise<string[]> {
  return replayUntilRoute(page, text, '/help-center');
}

/** The same, stepping to the record before the first route to `path`. */
async function replayUntilRoute(page: Page, text: string, path: string): Promise<string[]> {
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  const { leaked, stepTo } = await openReplayPage(page, text);
  const cp = await stepTo(seqOf(text, (r) => r.kind === 'ui.route' && r.path === path) - 1);
  expect(cp.divergences).toEqual([]);
  return leaked;
}

/** The seq of the first record matching `pred` (the test fails loudly when the fixture lacks it). */
function seqOf(text: string, pred: (r: Record<string, unknown>) => boolean): number {
  const r = parseReplayText(text).records.find((x) => pred(x as unknown as Record<string, unknown>));
  if (!r) throw new Error('record not in the fixture');
  return r.seq;
}

const intent = (type: string) => (r: Record<string, unknown>) => r.kind === 'ui.intent' && (r.event as { type?: string } | undefined)?.type === type;

test('convert-expired-ui: the browser replay shows the countdown, the expired quote at the recorded time, then the fill', async ({ page }) => {
  const text = readFileSync('fixtures/sessions/convert-expired-ui.jsonl', 'utf8');
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  const { leaked, stepTo } = await openReplayPage(page, text);
  const quoteId = seqOf(text, (r) => r.kind === 'http.request' && r.path === '/convert/quote');
  const firstQuote = seqOf(text, (r) => r.kind === 'http.response' && r.id === parseReplayText(text).records.find((x) => x.seq === quoteId)?.id);
  await stepTo(firstQuote + 1);
  await expect(page.getByTestId('cv-countdown')).toContainText('Rate locked for');
  // The 8 s window runs on the replay's clock: still counting 7 s after the answer, expired 8 s after it.
  const records = parseReplayText(text).records;
  const answeredAt = records.find((r) => r.seq === firstQuote)?.t ?? 0;
  await stepTo(records.filter((r) => r.t < answeredAt + 7000).at(-1)?.seq ?? 0);
  await expect(page.getByTestId('cv-countdown')).toBeVisible();
  await stepTo(records.find((r) => r.t >= answeredAt + 8000)?.seq ?? 0);
  await expect(page.getByTestId('cv-error')).toHaveText('The quote has expired, please get a new quote');
  const requote = seqOf(text, intent('convert.requote'));
  await stepTo(requote - 1);
  await expect(page.getByTestId('cv-error')).toHaveText('The quote has expired, please get a new quote');
  await expect(page.getByTestId('cv-requote')).toBeVisible();
  await expect(page.getByTestId('cv-countdown')).toHaveCount(0);
  const confirm = seqOf(text, intent('convert.confirm'));
  await stepTo(confirm - 1);
  await expect(page.getByTestId('cv-countdown')).toBeVisible();
  const leave = seqOf(text, (r) => r.kind === 'ui.route' && r.path === '/help-center');
  await stepTo(leave - 1);
  await expect(page.getByTestId('cv-done')).toBeVisible();
  expect(leaked).toEqual([]);
});

test('withdrawal-lock-ui: the browser replay shows the lock banner with its wording and time left', async ({ page }) => {
  const text = readFileSync('fixtures/sessions/withdrawal-lock-ui.jsonl', 'utf8');
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  const { leaked, stepTo } = await openReplayPage(page, text);
  // the user went on to the wallet history (view state, issue 16) before the help centre
  await stepTo(seqOf(text, (r) => r.kind === 'ui.route' && r.path === '/my/order/wallet-history') - 1);
  await expect(page.getByTestId('withdraw-lock')).toContainText('Withdrawals, C2C sales and payments are disabled for 24 hours after a password change');
  await expect(page.getByTestId('withdraw-lock-left')).toHaveText(/Time left: (24 h 0|23 h 5\d) min/);
  expect(leaked).toEqual([]);
});

/**
 * Checkpoint photos (issue 16; replay/checkpointShots.ts): the UI recorder photographed the live
 * screen's main content at a few moments and stored each as fixtures/sessions/<name>.checkpoints/<seq>.png;
 * the browser replay stepped to the same seq must look the same (pixel compare with a per-channel
 * tolerance and at most MAX_DIFF_RATIO of the pixels differing; toasts masked in both photos).
 */
test.use(SHOT_CONTEXT); // UTC, en-US: as the recorder took the checkpoint photos

for (const name of ['withdrawal-lock-ui', 'compensation-ui', 'flip-partial-close-ui', 'orderbook-gap-ui', 'liquidation-ui', 'reconnect-storm-ui']) {
  test(`${name}: the browser replay looks like the live screen at each checkpoint photo`, async ({ page }, testInfo) => {
    const text = readFileSync(`fixtures/sessions/${name}.jsonl`, 'utf8');
    const shots = readCheckpoints('fixtures/sessions', name);
    expect(shots.length).toBeGreaterThanOrEqual(2);
    const { leaked, stepTo } = await openShotReplay(page, text);
    for (const s of shots) {
      const { diff, actual } = await replayShotAt(page, stepTo, s.seq, s.png);
      testInfo.annotations.push({ type: 'checkpoint', description: `${name} @${s.seq}: ${diff.differing} px differ (${(diff.ratio * 100).toFixed(4)} %)` });
      if (diff.sizeMismatch || diff.ratio > MAX_DIFF_RATIO) {
        writeFileSync(testInfo.outputPath(`${s.seq}.replayed.png`), actual);
        if (diff.diffPng) writeFileSync(testInfo.outputPath(`${s.seq}.diff.png`), diff.diffPng);
      }
      expect(diff.sizeMismatch, `checkpoint @${s.seq}: photo size`).toBe(false);
      expect(diff.ratio, `checkpoint @${s.seq}: share of differing pixels`).toBeLessThanOrEqual(MAX_DIFF_RATIO);
    }
    expect(leaked).toEqual([]);
  });
}

/**
 * The compare can fail: the withdrawal fixture's photo of the history filtered to withdrawals does
 * not match the replay stepped to the moment before the filter was picked (same screen, same empty
 * list, only the type filter differs), nor the photo of the open transfer dialog the screen after
 * Esc closed it.
 */
test('withdrawal-lock-ui: a checkpoint photo compared with the replay at the wrong filter or with the dialog closed fails', async ({ page }) => {
  const name = 'withdrawal-lock-ui';
  const text = readFileSync(`fixtures/sessions/${name}.jsonl`, 'utf8');
  const shots = readCheckpoints('fixtures/sessions', name);
  const records = parseReplayText(text).records;
  const filterSet = records.find((r) => r.kind === 'ui.intent' && r.actor === 'view' && (r.event as { key?: string }).key === 'wallet.history.filters');
  const dialogOpen = records.find((r) => r.kind === 'ui.intent' && r.actor === 'view' && (r.event as { key?: string; value?: unknown }).key === 'dialog.transfer' && (r.event as { value?: unknown }).value !== null);
  const dialogClosed = records.find((r) => r.kind === 'ui.intent' && r.actor === 'view' && (r.event as { key?: string; value?: unknown }).key === 'dialog.transfer' && (r.event as { value?: unknown }).value === null);
  if (!filterSet || !dialogOpen || !dialogClosed) throw new Error('the fixture lacks the filter or dialog intents');
  const filtered = shots.find((s) => s.seq >= filterSet.seq && s.seq < dialogOpen.seq);
  const withDialog = shots.find((s) => s.seq >= dialogOpen.seq && s.seq < dialogClosed.seq);
  if (!filtered || !withDialog) throw new Error('the fixture lacks the filtered / dialog photos');
  const { stepTo } = await openShotReplay(page, text);
  const wrongFilter = await replayShotAt(page, stepTo, filterSet.seq - 1, filtered.png, 1500);
  expect(wrongFilter.diff.ratio).toBeGreaterThan(MAX_DIFF_RATIO);
  const right = await replayShotAt(page, stepTo, filtered.seq, filtered.png);
  expect(right.diff.ratio).toBeLessThanOrEqual(MAX_DIFF_RATIO);
  const closed = await replayShotAt(page, stepTo, dialogClosed.seq, withDialog.png, 1500);
  expect(closed.diff.ratio).toBeGreaterThan(MAX_DIFF_RATIO);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

/** The browser replay as the recorder photographed it: English, dark theme. */
async function openShotReplay(page: Page, text: string) {
  await page.addInitScript(() => {
    localStorage.setItem('lang', 'en');
    localStorage.setItem('theme', 'dark');
  });
  return openReplayPage(page, text);
}

/** View state of the re-recorded fixtures (issue 16): the tab, filter and dialog the user had. */
test('reconnect-storm-ui and compensation-ui: the replayed screens show the chart tab and the status filter the user picked', async ({ page }) => {
  const storm = readFileSync('fixtures/sessions/reconnect-storm-ui.jsonl', 'utf8');
  const leaked = await replayUntilHelpCentre(page, storm);
  await expect(page.getByRole('tablist', { name: 'Market views' }).getByRole('tab', { name: 'Depth', exact: true })).toHaveAttribute('aria-selected', 'true');
  expect(leaked).toEqual([]);
  const comp = readFileSync('fixtures/sessions/compensation-ui.jsonl', 'utf8');
  const other = await page.context().newPage();
  const leaked2 = await replayUntilHelpCentre(other, comp);
  const filter = other.getByRole('tablist', { name: 'Compensation status' });
  await expect(filter.getByRole('tab', { name: 'Completed', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(filter.getByRole('tab', { name: 'All', exact: true })).toHaveAttribute('aria-selected', 'false');
  expect(leaked2).toEqual([]);
});

test('withdrawal-lock-ui: the replay opens the transfer dialog the user opened (fund → USDT-M perpetual) and closes it on the recorded Esc', async ({ page }) => {
  const text = readFileSync('fixtures/sessions/withdrawal-lock-ui.jsonl', 'utf8');
  const isDialog = (open: boolean) => (r: Record<string, unknown>) =>
    r.kind === 'ui.intent' && r.actor === 'view' && (r.event as { key?: string }).key === 'dialog.transfer' && ((r.event as { value?: unknown }).value !== null) === open;
  const { leaked, stepTo } = await openShotReplay(page, text);
  await stepTo(seqOf(text, isDialog(true)));
  const dialog = page.getByRole('dialog', { name: 'Transfer' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('From')).toHaveValue('fund');
  await expect(dialog.getByLabel('To')).toHaveValue('perp');
  await stepTo(seqOf(text, isDialog(false)));
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(leaked).toEqual([]);
});

/**
 * The close-position confirmation is the close machine's state (docs/REPLAY.md "Dialogs"): its
 * recorded intents (`close.open` with the position, `close.pct`, `close.confirm`) open it in the
 * replay for the same position with the same choice, and it is gone once the close went through.
 */
test('flip-partial-close-ui: the replay shows the close confirmation the user had open (50 % of the short) and then none', async ({ page }) => {
  const text = readFileSync('fixtures/sessions/flip-partial-close-ui.jsonl', 'utf8');
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  const { leaked, stepTo } = await openReplayPage(page, text);
  await stepTo(seqOf(text, intent('close.pct')));
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: '50% of the position' })).toHaveAttribute('aria-pressed', 'true');
  await expect(dialog.getByTestId('close-qty')).toHaveText('0.015 BTC');
  await stepTo(seqOf(text, (r) => r.kind === 'ui.route' && r.path === '/help-center') - 1);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(leaked).toEqual([]);
});
