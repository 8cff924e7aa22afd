import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contrast, mixHex, onFill, readableOn } from '../../../src/ui/theme/contrast.ts';
import { KLINE_DIRECTIONS, KLINE_STYLES, TINT_SHARE, klineColors, themedKlineColors } from '../../../src/ui/theme/klineColors.ts';
import { THEMES, THEME_SURFACES } from '../../../src/ui/theme/themes.ts';

/**
 * Text contrast of the theme (issue 14, WCAG AA): the readable variant of any colour reaches
 * 4.5:1 on every background it is computed for, moves no further than needed, and every
 * kline setting in both themes gives buy/sell text that reads on every surface and tint, with
 * the SPEC §4 hex values kept exactly as fills.
 */

const hexArb = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([r, g, b]) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`);

describe('theme contrast', () => {
  it('readableOn reaches 4.5:1 on every background of a one-sided set, and keeps a colour that already does', () => {
    fc.assert(
      fc.property(hexArb, fc.array(hexArb, { minLength: 1, maxLength: 5 }), fc.boolean(), (c, raw, dark) => {
        // surfaces of one theme are all dark or all light: map the generated ones to one side
        const bgs = raw.map((b) => mixHex(b, dark ? '#000000' : '#ffffff', 0.6));
        const r = readableOn(c, bgs);
        for (const b of bgs) expect(contrast(r, b)).toBeGreaterThanOrEqual(4.5);
        if (bgs.every((b) => contrast(c, b) >= 4.5)) expect(r).toBe(c);
      }),
    );
  });

  it('onFill picks the text colour that contrasts more with the fill', () => {
    fc.assert(
      fc.property(hexArb, (fill) => {
        const t = onFill(fill);
        const other = t === '#ffffff' ? '#0b0e14' : '#ffffff';
        expect(contrast(t, fill)).toBeGreaterThanOrEqual(contrast(other, fill));
      }),
    );
  });

  it('every kline setting in both themes: exact fills, readable text on surfaces and tints', () => {
    for (const theme of THEMES) {
      for (const style of KLINE_STYLES) {
        for (const direction of KLINE_DIRECTIONS) {
          const surfaces = THEME_SURFACES[theme];
          const c = themedKlineColors({ style, direction }, surfaces);
          const spec = klineColors(style, direction);
          expect([c.upFill, c.downFill]).toEqual([spec.up, spec.down]);
          for (const s of surfaces) {
            for (const bg of [s, mixHex(s, spec.up, TINT_SHARE), mixHex(s, spec.down, TINT_SHARE)]) {
              expect(contrast(c.up, bg), `${theme} ${style} ${direction} up on ${bg}`).toBeGreaterThanOrEqual(4.5);
              expect(contrast(c.down, bg), `${theme} ${style} ${direction} down on ${bg}`).toBeGreaterThanOrEqual(4.5);
            }
          }
        }
      }
    }
  });

  it('THEME_SURFACES mirror the surface tokens of theme.css', () => {
    const css = readFileSync(new URL('../../../src/ui/theme/theme.css', import.meta.url), 'utf8');
    const block = (sel: string) => css.slice(css.indexOf(sel), css.indexOf('}', css.indexOf(sel)));
    for (const [theme, sel] of [['dark', '.theme-dark {'], ['light', '.theme-light {']] as const) {
      const b = block(sel);
      const tokens = ['--bg', '--surface', '--surface-2', '--surface-3', '--hover', '--input-bg'].map((t) => new RegExp(`${t}:\\s*(#[0-9a-fA-F]{6})`).exec(b)?.[1]?.toLowerCase());
      expect(new Set(tokens)).toEqual(new Set(THEME_SURFACES[theme]));
      // the static text tokens read on every surface of their theme
      for (const t of ['--text', '--text-2', '--text-3', '--primary', '--up', '--down', '--warning', '--danger', '--success']) {
        const v = new RegExp(`${t}:\\s*(#[0-9a-fA-F]{6})`).exec(b)?.[1];
        if (v === undefined) continue;
        for (const s of THEME_SURFACES[theme]) expect(contrast(v, s), `${theme} ${t} on ${s}`).toBeGreaterThanOrEqual(4.5);
      }
      // status chips draw a status colour on its own tint
      for (const t of ['--text-2', '--primary', '--warning', '--danger', '--success']) {
        const v = new RegExp(`${t}:\\s*(#[0-9a-fA-F]{6})`).exec(b)?.[1];
        expect(v, `${theme} ${t}`).toBeDefined();
        for (const s of THEME_SURFACES[theme]) expect(contrast(v ?? '', mixHex(s, v ?? '', 0.16)), `${theme} ${t} on its tint over ${s}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
});
