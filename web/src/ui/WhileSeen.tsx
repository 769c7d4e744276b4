// SPDX-License-Identifier: GPL-2.0-only
// While playing, a part of the page out of view is not drawn again at every
// step: it is brought up to date as it comes near the view (a margin ahead
// of it) and when play stops. Stopped, every part is drawn at every step as
// before, for screen readers and for anyone reading the page.
import { createContext, memo, useContext, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

/** Whether the page is playing (App provides it). */
export const PlayingContext = createContext(false);

/** Its children as they were last drawn while held: React skips them. */
const Held = memo(
  function Held({ children }: { children: ReactNode; held: boolean }) {
    return <>{children}</>;
  },
  (_prev, next) => next.held,
);

/** How far out of view a part is still drawn at every step, so that it is current before it shows. */
const AHEAD = '300px 0px';

export function WhileSeen({ children }: { children: ReactNode }) {
  const playing = useContext(PlayingContext);
  const ref = useRef<HTMLDivElement>(null);
  const [seen, setSeen] = useState(true);
  useEffect(() => {
    const el = ref.current;
    if (!el || !playing) return;
    const io = new IntersectionObserver((entries) => setSeen(entries[entries.length - 1].isIntersecting), { rootMargin: AHEAD });
    io.observe(el);
    return () => {
      io.disconnect();
      setSeen(true);
    };
  }, [playing]);
  return (
    <div ref={ref}>
      <Held held={playing && !seen}>{children}</Held>
    </div>
  );
}

/**
 * Whether an element is in view or near it (within AHEAD), kept up to date by an IntersectionObserver: true until
 * the observer first reports. For a drawing that is pixels alone (a canvas, whose text and label stay in the DOM
 * for screen readers), playing or stopped: a step redraws it only while it can be seen, and it is drawn as it
 * comes near the view.
 */
export function useNearView(ref: RefObject<Element | null>): boolean {
  const [near, setNear] = useState(true);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => setNear(entries[entries.length - 1].isIntersecting), { rootMargin: AHEAD });
    io.observe(el);
    return () => io.disconnect();
  }, [ref]);
  return near;
}
