/** VOL, BRAR, CR, PSY, VR and DMI on tiny series; expected values worked out by hand. */
import { describe, expect, it } from 'vitest';
import { brar, cr, dmi, dmiWilder, psy, vol, vr } from '../../../src/indicators/sentiment.ts';
import { expectSeries, fromCloses, k } from './helpers.ts';

describe('VOL', () => {
  it('passes the volume through and averages it', () => {
    const candles = [10, 20, 30, 40].map((v) => k(1, 1, 1, 1, v));
    const r = vol(candles, [2, 3]);
    expectSeries(r.volume, [10, 20, 30, 40]);
    expectSeries(r.ma[0], [null, 15, 25, 35]);
    expectSeries(r.ma[1], [null, null, 20, 30]);
  });
});

// Shared by BRAR and CR:      o   h   l   c
const trend = [
  k(10, 12, 9, 11), // 0
  k(11, 13, 10, 12), // 1
  k(12, 14, 11, 13), // 2
  k(13, 13, 10, 11), // 3
  k(11, 12, 10, 11.5), // 4
  k(11.5, 12, 11, 11.8), // 5
];

describe('BRAR', () => {
  it('BRAR(3)', () => {
    const r = brar(trend.slice(0, 4), 3);
    // AR idx2: Σ(H−O) = 2+2+2 = 6, Σ(O−L) = 1+1+1 = 3 → 200
    // AR idx3: (2+2+0)/(1+1+3) → 80
    expectSeries(r.ar, [null, null, 200, 80]);
    // BR idx3 over candles 1..3 with the previous close C′ = 11, 12, 13:
    // Σ max(0, H−C′) = 2+2+0 = 4; Σ max(0, C′−L) = 1+1+3 = 5 → 80
    expectSeries(r.br, [null, null, null, 80]);
  });
  it('gives 0 (not Infinity) when the denominator is zero', () => {
    const r = brar(fromCloses([1, 1, 1]), 2);
    expectSeries(r.ar, [null, 0, 0]);
    expectSeries(r.br, [null, null, 0]);
  });
});

describe('CR', () => {
  it('CR(3) with one MA(2) shifted by floor(2/2.5)+1 = 1', () => {
    // MID (previous candle's (H+L)/2): c1 10.5, c2 11.5, c3 12.5, c4 11.5, c5 11
    // up = max(0, H − MID):  c1 2.5, c2 2.5, c3 0.5, c4 0.5, c5 1
    // down = max(0, MID − L): c1 0.5, c2 0.5, c3 2.5, c4 1.5, c5 0
    // idx3: 5.5/3.5·100 = 1100/7; idx4: 3.5/4.5·100 = 700/9; idx5: 2/4·100 = 50
    // MA2 at idx4 = (1100/7 + 700/9)/2, shown one candle later at idx5
    const r = cr(trend, 3, [2]);
    expectSeries(r.cr, [null, null, null, 1100 / 7, 700 / 9, 50]);
    expectSeries(r.ma[0], [null, null, null, null, null, (1100 / 7 + 700 / 9) / 2]);
  });
  it('shifts the default MAs by 5, 9, 17 and 25 candles', () => {
    const candles = Array.from({ length: 120 }, (_, i) => k(10, 11 + (i % 3), 9 - (i % 2), 10));
    const r = cr(candles);
    // CR from index 26; MA(m) from 26 + m − 1; then + floor(m/2.5) + 1
    expect(r.ma.map((s) => s.findIndex((v) => v !== null))).toEqual([26 + 9 + 5, 26 + 19 + 9, 26 + 39 + 17, 26 + 59 + 25]);
    // and the shifted value is the MA of the CR window that ended 5 candles earlier
    const at = 60;
    const window = r.cr.slice(at - 5 - 9, at - 5 + 1) as number[];
    expect(r.ma[0]?.[at]).toBeCloseTo(window.reduce((a, b) => a + b, 0) / 10, 10);
  });
});

describe('PSY', () => {
  it('PSY(3, 2): share of rising closes', () => {
    // closes 10 11 12 13 12 12 → rises at 1, 2, 3 (an equal close is not a rise)
    // idx3: 3/3 → 100; idx4: 2/3 → 66.67; idx5: 1/3 → 33.33; PSYMA2: idx4 250/3, idx5 50
    const r = psy(fromCloses([10, 11, 12, 13, 12, 12]), 3, 2);
    expectSeries(r.psy, [null, null, null, 100, 200 / 3, 100 / 3]);
    expectSeries(r.psyma, [null, null, null, null, 250 / 3, 50]);
  });
});

describe('VR', () => {
  it('VR(3, 2) = (2·TH + TQ)/(2·TL + TQ)·100', () => {
    // close/volume: 10/5, 11/10 (up), 11/20 (same), 10/30 (down), 12/40 (up)
    // idx3: TH 10, TQ 20, TL 30 → (20+20)/(60+20)·100 = 50
    // idx4: TH 40, TQ 20, TL 30 → (80+20)/(60+20)·100 = 125; MAVR2 = 87.5
    const candles = [
      [10, 5],
      [11, 10],
      [11, 20],
      [10, 30],
      [12, 40],
    ].map(([c, v]) => k(c as number, c as number, c as number, c as number, v));
    const r = vr(candles, 3, 2);
    expectSeries(r.vr, [null, null, null, 50, 125]);
    expectSeries(r.mavr, [null, null, null, null, 87.5]);
  });
});

describe('DMI', () => {
  it('DMI(3, 2), tongdaxin sums', () => {
    const candles = [
      k(9, 10, 8, 9), //    0
      k(9, 12, 9, 11), //   1: TR max(3, 3, 0) = 3; up 2, down −1 → +DM 2
      k(11, 11, 7, 8), //   2: TR max(4, 0, 4) = 4; up −1, down 2 → −DM 2
      k(8, 13, 8, 12), //   3: TR max(5, 5, 0) = 5; up 2, down −1 → +DM 2
      k(12, 12, 6, 7), //   4: TR max(6, 0, 6) = 6; up −1, down 2 → −DM 2
      k(7, 9, 5, 6), //     5: TR max(4, 2, 2) = 4; up −3, down 1 → −DM 1
      k(6, 8, 6, 7), //     6: TR max(2, 2, 0) = 2; up −1, down −1 → none
    ];
    // idx3: ΣTR 12, Σ+DM 4, Σ−DM 2 → PDI 100/3, MDI 50/3, DX (50/3)/50·100 = 100/3
    // idx4: ΣTR 15, Σ+DM 2, Σ−DM 4 → PDI 40/3, MDI 80/3, DX (40/3)/40·100 = 100/3
    // idx5: ΣTR 15, Σ+DM 2, Σ−DM 3 → PDI 40/3, MDI 20,   DX (20/3)/(100/3)·100 = 20
    // idx6: ΣTR 12, Σ+DM 0, Σ−DM 3 → PDI 0,    MDI 25,   DX 100
    // ADX = MA2(DX): idx4 100/3, idx5 (100/3 + 20)/2 = 80/3, idx6 (20 + 100)/2 = 60
    // ADXR = (ADX + ADX two candles earlier)/2: idx6 (60 + 100/3)/2 = 140/3
    const r = dmi(candles, 3, 2);
    const n3 = [null, null, null];
    expectSeries(r.pdi, [...n3, 100 / 3, 40 / 3, 40 / 3, 0]);
    expectSeries(r.mdi, [...n3, 50 / 3, 80 / 3, 20, 25]);
    expectSeries(r.adx, [...n3, null, 100 / 3, 80 / 3, 60]);
    expectSeries(r.adxr, [...n3, null, null, null, 140 / 3]);
  });
});

describe("DMI, Wilder's form (TA-Lib PLUS_DI / MINUS_DI / ADX / ADXR)", () => {
  it('DMIW(3) on the same candles plus one, worked by hand', () => {
    const candles = [
      k(9, 10, 8, 9),
      k(9, 12, 9, 11), //   1: TR 3, +DM 2
      k(11, 11, 7, 8), //   2: TR 4, −DM 2
      k(8, 13, 8, 12), //   3: TR 5, +DM 2
      k(12, 12, 6, 7), //   4: TR 6, −DM 2
      k(7, 9, 5, 6), //     5: TR 4, −DM 1
      k(6, 8, 6, 7), //     6: TR 2
      k(7, 10, 7, 9), //    7: TR max(3, 3, 0) = 3; up 2, down −1 → +DM 2
    ];
    // First sums over candles 1..2: TR 7, +DM 2, −DM 2; then S = S − S/3 + X.
    // 3: TR 29/3,   +DM 10/3,  −DM 4/3    → PDI 1000/29, MDI 400/29, DX 300/7
    // 4: TR 112/9,  +DM 20/9,  −DM 26/9   → PDI 125/7,   MDI 325/14, DX 300/23
    // 5: TR 332/27, +DM 40/27, −DM 79/27  → PDI 1000/83, MDI 1975/83, DX 3900/119
    // 6: TR 826/81, +DM 80/81, −DM 158/81 → PDI 4000/413, MDI 7900/413, DX 3900/119
    // 7: TR 2381/243, +DM 646/243, −DM 316/243 → PDI 64600/2381, MDI 31600/2381, DX 16500/481
    const adx5 = (300 / 7 + 300 / 23 + 3900 / 119) / 3; // mean of the first three DX
    const adx6 = (adx5 * 2 + 3900 / 119) / 3;
    const adx7 = (adx6 * 2 + 16500 / 481) / 3;
    const r = dmiWilder(candles, 3);
    const n3 = [null, null, null];
    expectSeries(r.pdi, [...n3, 1000 / 29, 125 / 7, 1000 / 83, 4000 / 413, 64600 / 2381]);
    expectSeries(r.mdi, [...n3, 400 / 29, 325 / 14, 1975 / 83, 7900 / 413, 31600 / 2381]);
    expectSeries(r.adx, [...n3, null, null, adx5, adx6, adx7]);
    expectSeries(r.adxr, [...n3, null, null, null, null, (adx7 + adx5) / 2]);
  });

  it('differs from the tongdaxin sums on the same candles (both are offered)', () => {
    const candles = [k(9, 10, 8, 9), k(9, 12, 9, 11), k(11, 11, 7, 8), k(8, 13, 8, 12), k(12, 12, 6, 7)];
    expect(dmiWilder(candles, 3).pdi[3]).not.toBeCloseTo(dmi(candles, 3, 2).pdi[3] as number, 6);
  });
});
