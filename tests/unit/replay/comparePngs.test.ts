import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { comparePngs, MAX_DIFF_RATIO } from '../../../replay/checkpointShots.ts';

/** A `w` x `h` PNG of one colour with an optional rectangle of another. */
function png(w: number, h: number, bg: [number, number, number], box?: { x: number; y: number; w: number; h: number; rgb: [number, number, number] }): Buffer {
  const img = new PNG({ width: w, height: h });
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const inBox = box && x >= box.x && x < box.x + box.w && y >= box.y && y < box.y + box.h;
      const [r, g, b] = inBox ? box.rgb : bg;
      const i = (y * w + x) * 4;
      img.data[i] = r;
      img.data[i + 1] = g;
      img.data[i + 2] = b;
      img.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(img);
}

describe('comparePngs (pixelmatch on the checkpoint photos)', () => {
  const dark: [number, number, number] = [17, 20, 28];

  it('finds no difference between a photo and itself', () => {
    const a = png(200, 100, dark, { x: 10, y: 10, w: 40, h: 20, rgb: [240, 240, 240] });
    const d = comparePngs(a, a);
    expect(d).toMatchObject({ sizeMismatch: false, differing: 0, ratio: 0 });
  });

  it('counts a changed block (a tab or a row) and reports a share above the match limit', () => {
    const a = png(200, 100, dark);
    const b = png(200, 100, dark, { x: 20, y: 20, w: 30, h: 10, rgb: [46, 189, 133] });
    const d = comparePngs(a, b);
    // Edges of a solid block may count as anti-aliasing; the inside always differs.
    expect(d.differing).toBeGreaterThanOrEqual(28 * 8);
    expect(d.differing).toBeLessThanOrEqual(30 * 10);
    expect(d.ratio).toBeGreaterThan(MAX_DIFF_RATIO);
    expect(d.diffPng).not.toBeNull();
  });

  it('ignores a colour change below the threshold and calls photos of another size different', () => {
    const a = png(120, 60, dark);
    expect(comparePngs(a, png(120, 60, [18, 21, 29])).differing).toBe(0);
    const d = comparePngs(a, png(120, 61, dark));
    expect(d).toMatchObject({ sizeMismatch: true, ratio: 1 });
  });
});
