// SPDX-License-Identifier: GPL-2.0-only
// Talk mode: a lesson as slides in a projector theme. The audience window
// shows the slide (the live scene on the demo slide); the presenter
// window adds notes, the next slide, a timer and the demo's controls.
// Both follow each other through a BroadcastChannel (useTalkSync).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { KeyHelp } from '../ui/KeyHelp';
import { useKeyMap, type KeyBinding } from '../ui/keymap';
import { findSeries, loreUrl } from '../engine/manifest';
import type { Lesson } from '../lessons/lessons';
import { sameTalk, slideLabel, slidesOf, type Slide, type TalkState } from './slides';

export type TalkRole = 'audience' | 'presenter';

/**
 * Keeps `state` the same in every window of this talk: posts each local
 * change once the window has settled on it, applies each remote one with
 * `apply`. A window that opens says hello and is told the current state.
 */
export function useTalkSync(lessonId: string | null, state: TalkState, settled: boolean, apply: (s: TalkState) => void) {
  const channel = useRef<BroadcastChannel | null>(null);
  const last = useRef<TalkState | null>(null); // the state every window last agreed on
  // A remote state being applied: until this window reaches it (or gives up), its
  // in-between states are not news to post.
  const applying = useRef<{ target: TalkState; until: number } | null>(null);
  const applyRef = useRef(apply);
  applyRef.current = apply;
  useEffect(() => {
    if (!lessonId) return;
    const ch = new BroadcastChannel(`reclaim-lab-talk-${lessonId}`);
    channel.current = ch;
    ch.onmessage = (ev: MessageEvent<TalkState | 'hello'>) => {
      if (ev.data === 'hello') {
        if (last.current) ch.postMessage(last.current); // a window just opened: tell it where we are
        return;
      }
      last.current = ev.data;
      applying.current = { target: ev.data, until: performance.now() + 3000 };
      applyRef.current(ev.data);
    };
    ch.postMessage('hello');
    return () => {
      ch.close();
      channel.current = null;
    };
  }, [lessonId]);
  // Post only a settled state (no run pending) that this window came to by itself.
  const key = JSON.stringify(state);
  useEffect(() => {
    if (!settled) return;
    const a = applying.current;
    if (a) {
      if (sameTalk(a.target, state) || performance.now() > a.until) applying.current = null;
      if (performance.now() <= a.until) return;
    }
    if (last.current && sameTalk(last.current, state)) return;
    last.current = state;
    channel.current?.postMessage(state);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, settled]);
}

function SlideBody({ slide, lesson, demo }: { slide: Slide; lesson: Lesson; demo: ReactNode }) {
  switch (slide.kind) {
    case 'title':
      return (
        <div className="slide-title">
          <h1>{slide.title}</h1>
          <p className="muted">Reclaim Lab — the real kernel code on simulated CPUs</p>
        </div>
      );
    case 'text':
      return <p className="slide-text">{slide.text}</p>;
    case 'demo':
      return <div className="slide-demo">{demo}</div>;
    case 'goals':
      return (
        <ul className="slide-goals">
          {lesson.goals.map((g) => (
            <li key={g.id}>{g.text}</li>
          ))}
        </ul>
      );
    case 'patch': {
      const series = lesson.patch.series ? findSeries(lesson.patch.series) : undefined;
      return (
        <div className="slide-patch">
          <p>
            <code>
              {lesson.patch.branch}:{lesson.patch.file}
            </code>{' '}
            lines {lesson.patch.lines[0]}–{lesson.patch.lines[1]}
          </p>
          <p>{lesson.patch.note}</p>
          {series && (
            <p>
              <a href={loreUrl(series.cover)}>“{series.title}”</a>
              <br />
              <code>{series.cover}</code>
            </p>
          )}
        </div>
      );
    }
  }
}


interface Props {
  role: TalkRole;
  lesson: Lesson;
  slide: number;
  onSlide: (n: number) => void;
  onStep: (delta: number) => void;
  demo: ReactNode;
  controls: ReactNode;
}

export function Talk({ role, lesson, slide, onSlide, onStep, demo, controls }: Props) {
  const slides = slidesOf(lesson);
  const [help, setHelp] = useState(false);
  const [t0] = useState(() => performance.now());
  const [now, setNow] = useState(t0);
  useEffect(() => {
    if (role !== 'presenter') return;
    const id = setInterval(() => setNow(performance.now()), 1000);
    return () => clearInterval(id);
  }, [role]);

  // The talk's keys, through the page's one key map (ui/keymap.ts).
  const next1 = () => onSlide(Math.min(slides.length - 1, slide + 1));
  const keys: KeyBinding[] = [
    { keys: ['ArrowRight', ' '], shown: '→  space', what: 'next slide', run: next1 },
    { keys: ['ArrowLeft'], shown: '←', what: 'previous slide', run: () => onSlide(Math.max(0, slide - 1)) },
    { keys: ['.', '>'], shown: '.', what: 'step the demo forward (Shift: ten)', run: (e) => onStep(e.shiftKey ? 10 : 1) },
    { keys: [',', '<'], shown: ',', what: 'step the demo back (Shift: ten)', run: (e) => onStep(e.shiftKey ? -10 : -1) },
    {
      keys: ['f'],
      shown: 'f',
      what: 'fullscreen',
      run: () => {
        if (document.fullscreenElement) void document.exitFullscreen();
        else void document.documentElement.requestFullscreen?.().catch(() => undefined);
      },
    },
    {
      keys: ['p'],
      shown: 'p',
      what: 'open the presenter window',
      run: () => {
        const q = new URLSearchParams(window.location.search);
        q.set('talk', 'presenter');
        window.open(`?${q.toString()}`, `reclaim-lab-presenter-${lesson.id}`);
      },
    },
    { keys: ['?'], shown: '?', what: 'this help', run: () => setHelp((h) => !h) },
    { keys: ['Escape'], shown: 'Esc', what: 'close this help', run: () => setHelp(false) },
  ];
  useKeyMap(keys);

  const current = slides[slide] ?? slides[0];
  const next = slides[slide + 1];
  const elapsed = Math.floor((now - t0) / 1000);
  return (
    <div className={`talk projector talk-${role}`} data-testid={`talk.${role}`}>
      {role === 'audience' ? (
        <section className="slide" aria-roledescription="slide" aria-label={`Slide ${slide + 1} of ${slides.length}`} data-testid="talk.slide" data-slide={slide}>
          <SlideBody slide={current} lesson={lesson} demo={demo} />
          <p className="slide-count muted">
            {slide + 1} / {slides.length}
          </p>
        </section>
      ) : (
        <div className="presenter">
          <section className="slide current" aria-label={`Current slide, ${slide + 1} of ${slides.length}`} data-testid="talk.slide" data-slide={slide}>
            <SlideBody slide={current} lesson={lesson} demo={demo} />
          </section>
          <aside className="presenter-side">
            <p className="timer" aria-label="time since the talk window opened" data-testid="talk.timer">
              {String(Math.floor(elapsed / 60)).padStart(2, '0')}:{String(elapsed % 60).padStart(2, '0')}
            </p>
            <p>
              Slide {slide + 1} / {slides.length}{' '}
              <button type="button" onClick={() => onSlide(Math.max(0, slide - 1))} disabled={slide === 0}>
                ←
              </button>{' '}
              <button type="button" onClick={() => onSlide(Math.min(slides.length - 1, slide + 1))} disabled={!next} data-testid="talk.next">
                →
              </button>
            </p>
            <h3>Next</h3>
            <p className="muted" data-testid="talk.next-slide">{next ? slideLabel(next) : 'the end'}</p>
            <h3>Notes</h3>
            <ul className="notes" data-testid="talk.notes">
              {current.notes.length ? current.notes.map((n, i) => <li key={i}>{n}</li>) : <li className="muted">none</li>}
            </ul>
            {current.kind === 'demo' && <div className="presenter-controls">{controls}</div>}
          </aside>
        </div>
      )}
      {help && <KeyHelp bindings={keys} onClose={() => setHelp(false)} className="talk-help" />}
    </div>
  );
}
