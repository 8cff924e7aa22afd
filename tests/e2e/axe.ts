import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Resolves once every finite CSS transition and animation on the page has ended (a theme switch's
 * colour transitions, a toast sliding in, a dialog fading in): axe computes contrast from the
 * colours of the moment, so a scan during a fade reports a contrast the user never settles on. A
 * fixed pause was luck on a loaded machine (withdrawSafety at 390x844, a toast's title mid-fade:
 * 'color-contrast: div[data-title=""]'). Infinite ones (spinners, skeleton shimmer) never end and
 * are not waited for. Reading a computed style first makes a class change made just before start
 * its transitions, so they are seen.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(() => void getComputedStyle(document.documentElement).color);
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
}

/** Serious or critical axe violations on the page as it is now (an open dialog included), once its transitions ended. Needs a context with bypassCSP. */
export async function axeSerious(page: Page): Promise<string[]> {
  await animationsSettled(page);
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
