// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { laneFiller } from './Timeline';

/** A context that records each fillRect with the style it was drawn in. */
function recorder() {
  const calls: [string, number, number, number, number][] = [];
  const ctx = { fillStyle: '' as string | CanvasGradient | CanvasPattern, fillRect: (x: number, y: number, w: number, h: number) => calls.push([String(ctx.fillStyle), x, y, w, h]) };
  return { ctx, calls };
}

/** The x intervals each (style, y, h) covers, merged: what the pixels show with opaque colours. */
function coverage(calls: [string, number, number, number, number][]) {
  const by = new Map<string, [number, number][]>();
  for (const [s, x, y, w, h] of calls) {
    const k = `${s} ${y} ${h}`;
    by.set(k, [...(by.get(k) ?? []), [x, x + w]]);
  }
  return new Map([...by].map(([k, v]) => {
    v.sort((a, b) => a[0] - b[0]);
    const out: [number, number][] = [];
    for (const [a, b] of v) if (out.length && a <= out[out.length - 1][1]) out[out.length - 1][1] = Math.max(out[out.length - 1][1], b); else out.push([a, b]);
    return [k, out];
  }));
}

describe('laneFiller', () => {
  it('draws overlapping rectangles of a lane and colour as one, covering what they cover', () => {
    const rects: [number, string, number, number, number, number][] = [];
    let x = 0;
    for (let i = 0; i < 1000; i++) {
      const lane = i % 3;
      const style = i % 97 === 0 ? 'red' : 'blue';
      rects.push([lane, style, x, lane * 10, i % 5 === 0 ? 0.35 : 0.6, 4]);
      x += i % 11 === 0 ? 2 : 0.1; // now and then a gap
    }
    const one = recorder(); // each rectangle on its own, as before
    for (const [, s, rx, y, w, h] of rects) {
      one.ctx.fillStyle = s;
      one.ctx.fillRect(rx, y, w, h);
    }
    const merged = recorder();
    const f = laneFiller(merged.ctx);
    for (const [lane, s, rx, y, w, h] of rects) f.fill(lane, s, rx, y, w, h);
    f.flush();
    expect(merged.calls.length).toBeLessThan(rects.length / 3);
    expect(coverage(merged.calls)).toEqual(coverage(one.calls));
  });

  it('keeps the order of a lane: a different colour in between is drawn between', () => {
    const { ctx, calls } = recorder();
    const f = laneFiller(ctx);
    f.fill(0, 'a', 0, 0, 2, 4);
    f.fill(0, 'b', 1, 0, 2, 4);
    f.fill(0, 'a', 2, 0, 2, 4);
    f.flush();
    expect(calls.map((c) => c[0])).toEqual(['a', 'b', 'a']);
  });
});
