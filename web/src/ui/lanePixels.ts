// SPDX-License-Identifier: GPL-2.0-only
// The time axis's CPU lanes as pixels, made in one pass over the intervals
// instead of a fillRect() each: a long run has a million intervals, a dozen
// to a device pixel, and the canvas's calls and rasterising were most of
// its first frame. Each pixel gets the colours that cover it, mixed by how
// much of it each covers, as a canvas antialiases one rectangle; where two
// rectangles share a pixel their shares add up (a canvas would lay the
// second over the first, and let the background show through the seam).

/** A horizontal band of rows, in CSS pixels from the top of the canvas: where a kind of interval is drawn in a lane. */
export interface Band {
  y: number;
  h: number;
}

export interface LanePixels {
  /** The first device row painted: put `data` there (putImageData), the full width of the canvas. */
  top: number;
  rows: number;
  /** RGBA, not premultiplied, `rows` x the canvas's width in device pixels. */
  data: Uint8ClampedArray<ArrayBuffer>;
}

/** 0xRRGGBB of a colour given as #rgb or #rrggbb (the palette's and the stylesheet's form). */
export function rgbOf(color: string): number {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) throw new Error(`lanePixels: colour ${JSON.stringify(color)} is not #rgb or #rrggbb`);
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return parseInt(h, 16);
}

/**
 * Paints intervals [x0, x1) (CSS pixels) in bands of rows, at `dpr` device pixels to a CSS pixel, `width` device
 * pixels wide. An interval narrower than `minWidth` counts as that wide, so that a short one is still seen. Each
 * band's intervals are summed per device column first, and rows that the same bands cover alike are made once: the
 * cost is the intervals plus a few rows per lane.
 */
export function paintLanes(
  width: number,
  dpr: number,
  bands: readonly Band[],
  minWidth: number,
  each: (paint: (band: number, rgb: number, x0: number, x1: number) => void) => void,
): LanePixels {
  // Per band and device column: red, green, blue (each times its share) and the share of the column covered.
  const acc = new Float64Array(bands.length * width * 4);
  const add = (k: number, rgb: number, share: number) => {
    acc[k] += ((rgb >> 16) & 255) * share;
    acc[k + 1] += ((rgb >> 8) & 255) * share;
    acc[k + 2] += (rgb & 255) * share;
    acc[k + 3] += share;
  };
  each((band, rgb, x0, x1) => {
    const a = Math.max(0, x0 * dpr);
    const b = Math.min(width, Math.max(x1, x0 + minWidth) * dpr);
    if (b <= a) return;
    const first = Math.floor(a);
    const base = band * width * 4;
    // Most intervals lie in one pixel.
    if (b <= first + 1) return add(base + first * 4, rgb, b - a);
    add(base + first * 4, rgb, first + 1 - a);
    const last = Math.ceil(b) - 1;
    for (let c = first + 1; c < last; c++) add(base + c * 4, rgb, 1);
    add(base + last * 4, rgb, b - last);
  });
  if (bands.length === 0) return { top: 0, rows: 0, data: new Uint8ClampedArray(0) };
  const top = Math.floor(Math.min(...bands.map((b) => b.y)) * dpr);
  const rows = Math.ceil(Math.max(...bands.map((b) => b.y + b.h)) * dpr) - top;
  // Which bands cover each row, and how much of it. Rows that the same bands cover as much are the same pixels (most
  // of a lane's rows): each is worked out once, and copied.
  const cover: number[][] = Array.from({ length: rows }, () => []); // band, share, band, share...
  bands.forEach((band, i) => {
    const y0 = band.y * dpr;
    const y1 = (band.y + band.h) * dpr;
    for (let row = Math.floor(y0); row < Math.ceil(y1); row++) {
      const share = Math.min(y1, row + 1) - Math.max(y0, row);
      if (share > 0) cover[row - top].push(i, share);
    }
  });
  const data = new Uint8ClampedArray(rows * width * 4);
  const made = new Map<string, number>();
  for (let row = 0; row < rows; row++) {
    const by = cover[row];
    if (by.length === 0) continue;
    const key = by.join(' ');
    const out = row * width * 4;
    const same = made.get(key);
    if (same !== undefined) {
      data.copyWithin(out, same * width * 4, (same + 1) * width * 4);
      continue;
    }
    made.set(key, row);
    for (let c = 0; c < width; c++) {
      let r = 0;
      let g = 0;
      let bl = 0;
      let w = 0;
      for (let j = 0; j < by.length; j += 2) {
        const k = (by[j] * width + c) * 4;
        const share = by[j + 1];
        r += acc[k] * share;
        g += acc[k + 1] * share;
        bl += acc[k + 2] * share;
        w += acc[k + 3] * share;
      }
      if (w <= 0) continue;
      // Overlapping intervals (a short one widened) cover more than the pixel: their colours mix, the pixel is opaque.
      const p = out + c * 4;
      data[p] = r / w;
      data[p + 1] = g / w;
      data[p + 2] = bl / w;
      data[p + 3] = Math.min(1, w) * 255;
    }
  }
  return { top, rows, data };
}
