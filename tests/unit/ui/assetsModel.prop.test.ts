import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WALLETS, type Balance, type WalletType } from '../../../src/protocol/trading.ts';
import { chooseFrom, chooseTo, swapWallets, validateTransfer } from '../../../src/ui/components/transfer/transferForm.ts';
import { applyBalance, balanceKey, bookFromList, futuresSummary, totalEquityUsd, usdValueScaled, walletSummaries } from '../../../src/ui/components/account/assetsModel.ts';
import { initialBalances, reduceBalances, type BalancesEvent } from '../../../src/streams/accountBooks.ts';
import { compareDecimals, formatScaled, parseScaled, sanitizeAmountInput, SCALE, sumDecimals } from '../../../src/protocol/decimal.ts';
import { formatCoinAmount, trimDecimal } from '../../../src/ui/components/account/money.ts';

/** A non-negative decimal string with up to 6 fraction digits, as the server sends USDT. */
const amount = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 6 }))
  .map(([units, d]) => (d === 0 ? units.toString() : `${units / 10n ** BigInt(d)}.${(units % 10n ** BigInt(d)).toString().padStart(d, '0')}`));
const wallet = fc.constantFrom(...WALLETS);
const coin = fc.constantFrom('USDT', 'BTC', 'ETH', 'USD');
const balance: fc.Arbitrary<Balance> = fc.record({ wallet, coin, available: amount, frozen: amount }).map((b) => ({
  ...b,
  total: formatScaled((parseScaled(b.available) ?? 0n) + (parseScaled(b.frozen) ?? 0n), 6),
}));
const prices = fc.record({ BTC: fc.integer({ min: 1, max: 200_000 }), ETH: fc.integer({ min: 1, max: 10_000 }) });

describe('decimal helpers', () => {
  it('parse/format round-trips and compare agrees with exact integers', () => {
    fc.assert(
      fc.property(amount, amount, (a, b) => {
        const x = parseScaled(a) as bigint;
        expect(formatScaled(x, 6)).toBe(formatScaled(parseScaled(formatScaled(x, 6)) as bigint, 6));
        expect(compareDecimals(a, b)).toBe(x < (parseScaled(b) as bigint) ? -1 : x > (parseScaled(b) as bigint) ? 1 : 0);
        expect(sumDecimals([a, b])).toBe(x + (parseScaled(b) as bigint));
      }),
    );
  });

  it('sanitized input is always a plain decimal within the allowed digits', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.integer({ min: 0, max: 8 }), (text, d) => {
        const out = sanitizeAmountInput(text, d);
        const re = d === 0 ? /^\d*$/ : new RegExp(`^(\\d*|\\d+\\.\\d{0,${d}})$`);
        expect(out).toMatch(re);
        expect(sanitizeAmountInput(out, d)).toBe(out);
      }),
    );
  });

  it('Max (trimDecimal) is exactly the available amount, and display never hides a non-zero amount as 0.00', () => {
    fc.assert(
      fc.property(amount, (a) => {
        expect(compareDecimals(trimDecimal(a, 'USDT'), a)).toBe(0);
        if ((parseScaled(a) ?? 0n) > 0n) expect(formatCoinAmount(a, 'USDT')).not.toBe('0.00');
      }),
    );
  });
});

describe('wallet summaries', () => {
  it('the equity is exactly the sum of wallet totals, each the sum of its rows; every row is in one wallet', () => {
    fc.assert(
      fc.property(fc.array(balance, { maxLength: 30 }), prices, (list, p) => {
        const book = bookFromList(list);
        const s = walletSummaries(book, p);
        expect(s.map((w) => w.wallet)).toEqual([...WALLETS]);
        expect(s.reduce((n, w) => n + w.coins.length, 0)).toBe(book.size);
        let all = 0n;
        for (const b of book.values()) all += usdValueScaled(b.coin, b.total, p);
        expect(totalEquityUsd(s)).toBe(all);
        for (const w of s) {
          expect(w.totalUsd).toBe(w.coins.reduce((n, b) => n + usdValueScaled(b.coin, b.total, p), 0n));
          expect(w.totalUsd >= w.availableUsd).toBe(true);
        }
      }),
    );
  });

  it('USDT and USD are valued 1:1; a coin without a price is valued 0', () => {
    fc.assert(
      fc.property(amount, (a) => {
        expect(usdValueScaled('USDT', a, {})).toBe(parseScaled(a));
        expect(usdValueScaled('USD', a, {})).toBe(parseScaled(a));
        expect(usdValueScaled('DOGE', a, {})).toBe(0n);
      }),
    );
  });

  it('futures equity = wallet total + the sum of that contract’s unrealized PnL', () => {
    const pnl = fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }).map((n) => formatScaled(BigInt(n) * 10n ** BigInt(SCALE - 6), 6));
    fc.assert(
      fc.property(balance, fc.array(fc.record({ c: fc.constantFrom('perp' as const, 'std' as const), pnl }), { maxLength: 5 }), (b, ps) => {
        const row = { ...b, wallet: 'perp' as WalletType, coin: 'USDT' };
        const positions = ps.map((x, i) => ({ id: `p${i}`, contract: x.c, unrealizedPnl: x.pnl, symbol: 'BTCUSDT' }) as never);
        const s = futuresSummary(bookFromList([row]), positions, 'perp');
        const expected = (parseScaled(row.total) ?? 0n) + ps.filter((x) => x.c === 'perp').reduce((n, x) => n + (parseScaled(x.pnl) ?? 0n), 0n);
        expect(parseScaled(s.equity)).toBe(expected);
      }),
    );
  });
});

describe('balances reducer (snapshot vs live frames)', () => {
  const event: fc.Arbitrary<BalancesEvent> = fc.oneof(
    fc.constant({ type: 'requested' as const }),
    fc.array(balance, { maxLength: 6 }).map((list) => ({ type: 'snapshot' as const, list })),
    balance.map((b) => ({ type: 'frame' as const, item: b })),
    fc.constant({ type: 'failed' as const, msg: 'Error' }),
  );

  it('a frame received after the latest request always wins over the snapshot; without frames the book is the snapshot', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        let s = initialBalances();
        // Model: frames since the latest request (that request's snapshot must not override them).
        let since: Balance[] = [];
        let snap: Balance[] | null = null;
        let inFlight = true;
        for (const e of events) {
          s = reduceBalances(s, e);
          const answered = inFlight && (e.type === 'snapshot' || e.type === 'failed');
          if (e.type === 'requested') {
            since = [];
            inFlight = true;
          } else if (e.type === 'frame') {
            since.push(e.item);
          } else if (answered) {
            if (e.type === 'snapshot') snap = [...e.list];
            inFlight = false;
          }
          for (const b of since) {
            const last = [...since].reverse().find((x) => x.wallet === b.wallet && x.coin === b.coin);
            expect(s.book.get(balanceKey(b.wallet, b.coin))).toEqual(last);
          }
          if (answered && e.type === 'snapshot' && since.length === 0) expect(s.book).toEqual(bookFromList(snap ?? []));
          expect(s.inFlight).toBe(inFlight);
        }
      }),
    );
  });

  it('applyBalance keeps one row per (wallet, coin) whatever the order of frames for different rows', () => {
    fc.assert(
      fc.property(fc.uniqueArray(balance, { selector: (b) => balanceKey(b.wallet, b.coin), maxLength: 10 }), (list) => {
        const a = list.reduce(applyBalance, bookFromList([]));
        const b = [...list].reverse().reduce(applyBalance, bookFromList([]));
        expect(a).toEqual(b);
        expect(a.size).toBe(list.length);
      }),
    );
  });
});

describe('transfer validation', () => {
  it('empty / non-numeric / zero → amount required; positive ≤ available ⇔ accepted (different wallets)', () => {
    fc.assert(
      fc.property(wallet, wallet, amount, fc.oneof(amount, fc.constantFrom('', '0', '0.000', 'abc', '.')), (from, to, available, typed) => {
        const err = validateTransfer({ from, to, coin: 'USDT', amount: typed }, available);
        const v = parseScaled(typed);
        if (from === to) expect(err).toBe('sameWallet');
        else if (v === null) expect(err).toBe('transferAmountRequired');
        else if (v <= 0n) expect(err).toBe('transferAmountPositive');
        else expect(err).toBe(compareDecimals(typed, available) > 0 ? 'insufficientBalance' : null);
      }),
    );
  });

  it('choosing or swapping wallets never makes source and destination equal', () => {
    fc.assert(
      fc.property(wallet, wallet, fc.array(fc.tuple(fc.constantFrom('from', 'to', 'swap'), wallet), { maxLength: 20 }), (a, b, steps) => {
        fc.pre(a !== b);
        let d = { from: a, to: b, coin: 'USDT', amount: '' };
        for (const [op, w] of steps) {
          d = op === 'from' ? chooseFrom(d, w) : op === 'to' ? chooseTo(d, w) : swapWallets(d);
          expect(d.from).not.toBe(d.to);
        }
      }),
    );
  });
});
