// SPDX-License-Identifier: GPL-2.0-only
// Play: advance `speed` events per second, in whole events per frame, and
// stop at the last event or when a new run starts. While playing, the
// panes a person reads (the code pane, What changed, the event counter, the
// event panels) follow the step at a reader's rate, not at every frame
// (useReadingStep): at 1024 events/s a frame moves 17 events, more than
// anyone reads, and redrawing those panes at every frame cost the frame
// its time. Stopped or stepped, they show the step itself.
import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { flushSync } from 'react-dom';

/**
 * How often, while playing, the reading panes move on: about 15 times a second (every 4th frame at
 * 60 frames a second; a little under 4 frames' time, so that frame times' jitter does not make it 5).
 */
export const READING_MS = 62;

export function usePlayback(last: number, setStep: Dispatch<SetStateAction<number>>, runKey: string, ready: boolean) {
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(16);
  // Counts the reading panes' moves while playing (useReadingStep).
  const [readTick, setReadTick] = useState(0);
  useEffect(() => setPlaying(false), [runKey]);
  useEffect(() => {
    if (!playing || !ready) return;
    let raf = 0;
    let prev = performance.now();
    let read = prev;
    let acc = 0;
    const tick = (now: number) => {
      acc += ((now - prev) * speed) / 1000;
      prev = now;
      const n = Math.floor(acc);
      if (n > 0) {
        acc -= n;
        const reading = now - read >= READING_MS;
        if (reading) read = now;
        // Drawn in this frame: the render and its commit in this callback, then the browser's style, layout and paint
        // (left to React's scheduler, they run in a task of their own, which a frame may or may not wait for).
        flushSync(() => {
          setStep((s) => {
            const next = Math.min(last, s + n);
            if (next >= last) setPlaying(false);
            return next;
          });
          if (reading) setReadTick((t) => t + 1);
        });
      }
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [playing, speed, ready, last, setStep]);
  // A step taken by hand while playing is shown at once in the reading panes too.
  const readNow = useCallback(() => setReadTick((t) => t + 1), []);
  return { playing, setPlaying, speed, setSpeed, readTick, readNow };
}

/**
 * The step the reading panes show: the step itself when stopped; while playing, the step as it was at the
 * playback's last reading tick (usePlayback's readTick), so that between ticks those panes are given the
 * same step and React leaves them be.
 */
export function useReadingStep(step: number, playing: boolean, readTick: number): number {
  const held = useRef({ step, tick: readTick });
  if (!playing || held.current.tick !== readTick) held.current = { step, tick: readTick };
  return held.current.step;
}
