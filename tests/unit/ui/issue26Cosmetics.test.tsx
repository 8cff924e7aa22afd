// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MFuturesScreen } from '../../../src/ui/screens/trade/TradeScreen.tsx';
import { installClickClock } from './assetsHarness.tsx';
import { renderMarketScreen } from './marketHarness.tsx';

/**
 * Issue 26, the cosmetics a jsdom render can see (texts, elements, classes; the layout ones are
 * measured in tests/e2e/layout26.spec.ts): a below-minimum deposit's confirmations, the copied
 * orders' empty state and the list's full-width sparklines, the help search's marked term, the
 * unknown-pair page, one title style for the dashboard's cards.
 */

installClickClock();

describe('a trade URL with an unknown pair', () => {
  it('is a page with a heading, what happened, the market list and listed pairs', async () => {
    const h = renderMarketScreen({ url: '/mFutures/NOPEUSDT', path: '/mFutures/:pair', screen: <MFuturesScreen /> });
    const page = await screen.findByTestId('unknown-pair');
    expect(within(page).getByRole('heading', { level: 1 }).textContent).toBe('Pair not found');
    expect(page.textContent).toContain('NOPEUSDT is not listed for USDT-M Perpetual. Pick a listed pair or open the market list.');
    expect(within(page).getByRole('link', { name: 'Open the market list' }).getAttribute('href')).toBe('/market');
    const listed = within(within(page).getByRole('navigation', { name: 'Listed pairs' })).getAllByRole('link');
    expect(listed.length).toBeGreaterThan(0);
    for (const a of listed) expect(a.getAttribute('href')).toBe(`/mFutures/${a.textContent}`);
    // Only pairs of this contract: SPXUSDT is a standard-futures pair in the fixtures.
    expect(listed.map((a) => a.textContent)).not.toContain('SPXUSDT');
    h.core.stop();
  });
});
