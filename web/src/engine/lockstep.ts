// SPDX-License-Identifier: GPL-2.0-only
// Lock-step: two runs of one scenario on different kernels, matched by
// virtual time. Policies interleave the CPUs' clocks, so a log's times are
// not monotonic; the running maximum (the peaks) is, and is what is searched.

/** peaks[i] = the latest virtual time among events 0..i (monotonic). */
export function timePeaks(time: ArrayLike<number>): Float64Array {
  const p = new Float64Array(time.length);
  for (let i = 0, m = -Infinity; i < time.length; i++) p[i] = m = Math.max(m, time[i]);
  return p;
}

/** The last step whose peak is at or before virtual time t (0 when none is, or the log is empty). */
export function stepAtTime(peaks: Float64Array, t: number): number {
  let lo = 0;
  let hi = peaks.length - 1;
  if (hi < 0 || peaks[0] > t) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (peaks[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
