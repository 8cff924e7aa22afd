/**
 * WCAG 2.x contrast arithmetic for the theme: the page-wide buy/sell colours come from the kline
 * setting (SPEC §4: exact hex values for candles and fills), but several of them are too light
 * (or too dark) to be read as text on a theme's surfaces. Text uses a variant of the same hue
 * whose lightness is moved just far enough to reach 4.5:1 against every surface of the theme,
 * and text on a solid buy/sell fill uses whichever of near-white / near-black reads better.
 */

type Rgb = readonly [number, number, number];

/** `#rgb` or `#rrggbb` (case-insensitive) to 0..255 channels. */
export function parseHex(hex: string): Rgb {
  const h = hex.trim().replace(/^#/, '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  if (!/^[0-9a-fA-F]{6}$/.test(full)) throw new Error(`not a hex colour: ${hex}`);
  return [parseInt(full.slice(0, 2), 16), parseInt(full.slice(2, 4), 16), parseInt(full.slice(4, 6), 16)];
}

export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('')}`;
}

/** Relative luminance (WCAG 2.x definition). */
export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast ratio of two colours, 1..21. */
export function contrast(a: string, b: string): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Mixes `hex` toward `target` by t in 0..1 (keeps the hue family while moving lightness). */
export function mixHex(hex: string, target: string, t: number): string {
  const a = parseHex(hex);
  const b = parseHex(target);
  return toHex([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]);
}

const WHITE = '#ffffff';
const BLACK = '#000000';

/**
 * The colour closest to `hex` (mixed toward white on dark backgrounds, toward black on light
 * ones) that reaches `min` contrast against every colour of `backgrounds`. Returns `hex` itself
 * when it already does. Always succeeds: the far end of the mix (white or black) reaches at
 * least 4.58:1 against any background on its side of the crossover luminance.
 */
export function readableOn(hex: string, backgrounds: readonly string[], min = 4.5): string {
  const ok = (c: string) => backgrounds.every((bg) => contrast(c, bg) >= min);
  if (ok(hex)) return hex;
  const darkest = Math.min(...backgrounds.map(luminance));
  const lightest = Math.max(...backgrounds.map(luminance));
  // Light text on dark surfaces, dark text on light ones; mixed surfaces pick the side that works.
  const towardWhite = (1.05 / (lightest + 0.05)) >= (darkest + 0.05) / 0.05;
  const target = towardWhite ? WHITE : BLACK;
  for (let step = 1; step <= 100; step++) {
    const c = mixHex(hex, target, step / 100);
    if (ok(c)) return c;
  }
  return target;
}

/** Text colour for a solid fill: near-white or near-black, whichever contrasts more. */
export function onFill(fill: string, light = '#ffffff', dark = '#0b0e14'): string {
  return contrast(light, fill) >= contrast(dark, fill) ? light : dark;
}
