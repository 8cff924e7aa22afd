import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_KLINE,
  KLINE_DIRECTIONS,
  KLINE_STYLES,
  klineColors,
  parseKlineSetting,
} from '../../../src/ui/theme/klineColors.ts';
import { parseTheme, themeClass } from '../../../src/ui/theme/themes.ts';
import { deviceClassOf } from '../../../src/ui/theme/uiPrefs.ts';

describe('klineColors (SPEC §4)', () => {
  it('gives the SPEC pairs for greenUpRedDown', () => {
    expect(klineColors('fresh', 'greenUpRedDown')).toEqual({ up: '#2ebd85', down: '#f6465d' });
    expect(klineColors('traditional', 'greenUpRedDown')).toEqual({ up: '#74A700', down: '#E50370' });
    expect(klineColors('cvd', 'greenUpRedDown')).toEqual({ up: '#1F8DF9', down: '#EC8D42' });
  });
  it('redUpGreenDown swaps them', () => {
    expect(klineColors('fresh', 'redUpGreenDown')).toEqual({ up: '#f6465d', down: '#2ebd85' });
  });
  it('property: reversing is an involution and up ≠ down', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KLINE_STYLES), (style) => {
        const a = klineColors(style, 'greenUpRedDown');
        const b = klineColors(style, 'redUpGreenDown');
        expect(b).toEqual({ up: a.down, down: a.up });
        expect(a.up).not.toBe(a.down);
        expect(a.up).toMatch(/^#[0-9a-fA-F]{6}$/);
      }),
    );
  });
  it('default is fresh green-up', () => {
    expect(DEFAULT_KLINE).toEqual({ style: 'fresh', direction: 'greenUpRedDown' });
  });
  it('property: stored setting round-trips, garbage gives the default', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KLINE_STYLES), fc.constantFrom(...KLINE_DIRECTIONS), (style, direction) => {
        expect(parseKlineSetting(JSON.stringify({ style, direction }))).toEqual({ style, direction });
      }),
    );
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = parseKlineSetting(s);
        expect(KLINE_STYLES).toContain(r.style);
        expect(KLINE_DIRECTIONS).toContain(r.direction);
      }),
    );
    expect(parseKlineSetting('{"style":"neon","direction":"greenUpRedDown"}')).toEqual(DEFAULT_KLINE);
  });
});

describe('theme and device class', () => {
  it('theme defaults to dark and maps to the root class', () => {
    expect(parseTheme(null)).toBe('dark');
    expect(parseTheme('light')).toBe('light');
    expect(parseTheme('blue')).toBe('dark');
    expect(themeClass('light')).toBe('theme-light');
  });
  it('breakpoints 767 / 1199', () => {
    expect(deviceClassOf(767)).toBe('mobile');
    expect(deviceClassOf(768)).toBe('tablet');
    expect(deviceClassOf(1199)).toBe('tablet');
    expect(deviceClassOf(1200)).toBe('desktop');
    fc.assert(
      fc.property(fc.nat(5000), fc.nat(5000), (a, b) => {
        const order = { mobile: 0, tablet: 1, desktop: 2 } as const;
        if (a <= b) expect(order[deviceClassOf(a)]).toBeLessThanOrEqual(order[deviceClassOf(b)]);
      }),
    );
  });
});
