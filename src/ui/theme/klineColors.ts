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
