// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { paintLanes, rgbOf } from './lanePixels';

type Interval = [band: number, rgb: number, x0: number, x1: number];
const paint = (width: number, dpr: number, bands: { y: number; h: number }[], intervals: Interval[], minWidth = 0.5) =>
  paintLanes(width, dpr, bands, minWidth, (p) => intervals.forEach((i) => p(...i)));
/** The RGBA of device pixel (x, y) of the canvas. */
const at = (px: ReturnType<typeof paint>, width: number, x: number, y: number) => [...px.data.slice(((y - px.top) * width + x) * 4, ((y - px.top) * width + x) * 4 + 4)];

describe('lanePixels', () => {
  it('reads the palette’s and the stylesheet’s colours, and refuses others', () => {
    expect(rgbOf('#4e79a7')).toBe(0x4e79a7);
    expect(rgbOf(' #c3c ')).toBe(0xcc33cc);
    expect(() => rgbOf('red')).toThrow(/not #rgb or #rrggbb/);
  });

  it('fills the columns and rows an interval covers whole, in its colour, and nothing else', () => {
    const px = paint(10, 1, [{ y: 2, h: 3 }], [[0, 0x102030, 2, 6]]);
    expect([px.top, px.rows]).toEqual([2, 3]);
    for (let y = 2; y < 5; y++) for (let x = 0; x < 10; x++) expect(at(px, 10, x, y), `${x},${y}`).toEqual(x >= 2 && x < 6 ? [0x10, 0x20, 0x30, 255] : [0, 0, 0, 0]);
  });

  it('mixes two intervals that share a pixel by their shares, and the pixel is opaque', () => {
    const px = paint(4, 1, [{ y: 0, h: 1 }], [[0, 0xff0000, 0, 1.25], [0, 0x0000ff, 1.25, 3]]);
    expect(at(px, 4, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(at(px, 4, 1, 0)).toEqual([64, 0, 191, 255]);
    expect(at(px, 4, 2, 0)).toEqual([0, 0, 255, 255]);
    expect(at(px, 4, 3, 0)).toEqual([0, 0, 0, 0]);
  });

  it('counts a short interval as minWidth wide; a dozen in one pixel mix by count', () => {
    expect(at(paint(2, 1, [{ y: 0, h: 1 }], [[0, 0xffffff, 0.25, 0.3]]), 2, 0, 0)).toEqual([255, 255, 255, 128]);
    // In the first half of pixel 5: 4 red and 8 green, each counted 0.5 wide and so still inside it.
    const many: Interval[] = Array.from({ length: 12 }, (_, i) => [0, i % 3 ? 0x00ff00 : 0xff0000, 5 + i / 24, 5 + (i + 1) / 24]);
    const px = paint(8, 1, [{ y: 0, h: 1 }], many);
    expect(at(px, 8, 5, 0)).toEqual([85, 170, 0, 255]);
    expect(at(px, 8, 6, 0)[3]).toBe(0);
    // Widened past the pixel's edge, the next pixel gets the rest.
    expect(at(paint(8, 1, [{ y: 0, h: 1 }], [[0, 0xff0000, 5.9, 5.95]]), 8, 6, 0)).toEqual([255, 0, 0, 102]);
  });

  it('shares a band’s edge rows by how much of them it covers, and adds the bands of a lane', () => {
    // A lane 13 rows high from row 0, its idle strip 4 rows from 4.5: rows 4 and 8 half in the strip.
    const bands = [{ y: 0, h: 13 }, { y: 4.5, h: 4 }];
    const px = paint(2, 1, bands, [[1, 0xc3c8ce, 0, 2]]);
    expect(at(px, 2, 0, 3)[3]).toBe(0);
    expect(at(px, 2, 0, 4)).toEqual([0xc3, 0xc8, 0xce, 128]);
    expect(at(px, 2, 0, 6)).toEqual([0xc3, 0xc8, 0xce, 255]);
    expect(at(px, 2, 0, 8)).toEqual([0xc3, 0xc8, 0xce, 128]);
    // Run for half the column, idle the other half: the strip's rows are opaque, the others half seen.
    const both = paint(1, 1, bands, [[0, 0xff0000, 0, 0.5], [1, 0x0000ff, 0.5, 1]]);
    expect(at(both, 1, 0, 6)).toEqual([128, 0, 128, 255]);
    expect(at(both, 1, 0, 1)).toEqual([255, 0, 0, 128]);
  });

  it('paints in device pixels: at two to a CSS pixel, a CSS pixel is two columns and two rows', () => {
    const px = paint(8, 2, [{ y: 1, h: 1 }], [[0, 0x336699, 1, 2]]);
    expect([px.top, px.rows]).toEqual([2, 2]);
    for (const y of [2, 3]) expect([0, 1, 2, 3, 4].map((x) => at(px, 8, x, y)[3])).toEqual([0, 0, 255, 255, 0]);
  });
});
