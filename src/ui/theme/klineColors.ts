import { mixHex, onFill, readableOn } from './contrast.ts';

/**
 * Kline color settings (SPEC §4): a style and a direction decide the page-wide up/buy and
 * down/sell colors. Invariant: `redUpGreenDown` is exactly the swap of `greenUpRedDown`.
 */
export const KLINE_STYLES = ['fresh', 'traditional', 'cvd'] as const;
export type KlineStyle = (typeof KLINE_STYLES)[number];
export const KLINE_DIRECTIONS = ['greenUpRedDown', 'redUpGreenDown'] as const;
export type KlineDirection = (typeof KLINE_DIRECTIONS)[number];

export interface KlineSetting {
  style: KlineStyle;
  direction: KlineDirection;
}

/** Defaults: fresh, green up / red down. */
export const DEFAULT_KLINE: KlineSetting = { style: 'fresh', direction: 'greenUpRedDown' };

/** Storage key of the persisted setting (JSON of {@link KlineSetting}). */
export const KLINE_STORAGE_KEY = 'kline_style';

/** The "positive / negative" pair of each style, in greenUpRedDown orientation. */
const PALETTE: Record<KlineStyle, { positive: string; negative: string }> = {
  fresh: { positive: '#2ebd85', negative: '#f6465d' },
  traditional: { positive: '#74A700', negative: '#E50370' },
  cvd: { positive: '#1F8DF9', negative: '#EC8D42' },
};

/** Up (buy) and down (sell) colors for a style and direction. */
export function klineColors(style: KlineStyle, direction: KlineDirection): { up: string; down: string } {
  const { positive, negative } = PALETTE[style];
  return direction === 'greenUpRedDown' ? { up: positive, down: negative } : { up: negative, down: positive };
}

/** Share of a buy/sell colour in the tints drawn behind text (price flashes, pills): at most this. */
export const TINT_SHARE = 0.14;

/**
 * The page-wide buy/sell colours of a setting in a theme: the SPEC §4 values as fills, a text
 * variant of each that reads at 4.5:1 on every surface of the theme and on the tints of both
 * colours over those surfaces (a red price on a green flash), and the text colour on each fill.
 */
export function themedKlineColors(setting: KlineSetting, surfaces: readonly string[]): { up: string; down: string; upFill: string; downFill: string; onUp: string; onDown: string } {
  const { up, down } = klineColors(setting.style, setting.direction);
  const backgrounds = [...surfaces, ...surfaces.flatMap((s) => [mixHex(s, up, TINT_SHARE), mixHex(s, down, TINT_SHARE)])];
  return { up: readableOn(up, backgrounds), down: readableOn(down, backgrounds), upFill: up, downFill: down, onUp: onFill(up), onDown: onFill(down) };
}

/** Parses the stored JSON; anything unknown or malformed gives the default. */
export function parseKlineSetting(raw: string | null): KlineSetting {
  if (raw == null) return DEFAULT_KLINE;
  try {
    const v: unknown = JSON.parse(raw);
    if (typeof v !== 'object' || v === null) return DEFAULT_KLINE;
    const { style, direction } = v as Record<string, unknown>;
    const okStyle = (KLINE_STYLES as readonly unknown[]).includes(style);
    const okDir = (KLINE_DIRECTIONS as readonly unknown[]).includes(direction);
    return okStyle && okDir ? { style: style as KlineStyle, direction: direction as KlineDirection } : DEFAULT_KLINE;
  } catch {
    return DEFAULT_KLINE;
  }
}
