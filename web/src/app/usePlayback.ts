// SPDX-License-Identifier: GPL-2.0-only
// Play: advance `speed` events per second, in whole events per frame, and
// stop at the last event or when a new run starts.
import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import { flushSync } from 'react-dom';

export function usePlayback(last: number, setStep: Dispatch<SetStateAction<number>>, runKey: string, ready: boolean) {
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(16);
  useEffect(() => setPlaying(false), [runKey]);
  useEffect(() => {
    if (!playing || !ready) return;
    let raf = 0;
    let prev = performance.now();
    let acc = 0;
    const tick = (now: number) => {
      acc += ((now - prev) * speed) / 1000;
      prev = now;
      const n = Math.floor(acc);
      if (n > 0) {
        acc -= n;
        // Drawn in this frame: the render and its commit in this callback, then the browser's style, layout and paint
        // (left to React's scheduler, they run in a task of their own, which a frame may or may not wait for).
        flushSync(() =>
          setStep((s) => {
            const next = Math.min(last, s + n);
            if (next >= last) setPlaying(false);
            return next;
          }),
        );
      }
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [playing, speed, ready, last, setStep]);
  return { playing, setPlaying, speed, setSpeed };
}
