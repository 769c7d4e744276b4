// SPDX-License-Identifier: GPL-2.0-only
// Talk mode: a talk (a file of talks/, or a lesson) as slides in a projector theme. Every slide is laid
// out at 1920×1080 CSS pixels and zoomed to fit the window (SlideFrame), so
// its type scale is the same share of the screen at any size. The audience
// window shows the slide (the live scene on the demo slide); the presenter
// window shows the same slide, smaller, with notes, the next slide, a timer
// and the demo's controls. Both follow each other through a BroadcastChannel
// (useTalkSync).
import { useEffect, useLayoutEffect, useRef, useState, type HTMLAttributes, type ReactNode } from 'react';
import { KeyHelp } from '../ui/KeyHelp';
import { useKeyMap, type KeyBinding } from '../ui/keymap';
import { fetchDiffs, variantBranch, type Diffs } from '../ui/diff';
import type { EventLog } from '../engine/log';
import { findSeries, loreUrl } from '../engine/manifest';
import { fetchSource } from '../engine/sources';
import { goalStep, type Goal } from '../lessons/lessons';
import { patchHunks } from './patch';
import { Prose } from './Prose';
import { sameTalk, slideLabel, type Slide, type SlidePatch, type TalkDef, type TalkState, type TalkView } from './slides';
import './talk.css';

export type TalkRole = 'audience' | 'presenter';

/**
 * Keeps `state` the same in every window of this talk: posts each local
 * change once the window has settled on it, applies each remote one with
 * `apply`. A window that opens says hello and is told the current state.
 * Each state carries the time it was made, and a window never applies one
 * older than the state it last agreed on: a late answer to a hello must not
 * take a presenter back to where the talk was before it moved on.
 */
export function useTalkSync(talkId: string | null, state: TalkState, settled: boolean, apply: (s: TalkState) => void) {
  const channel = useRef<BroadcastChannel | null>(null);
  // What this window agreed on and is applying outlives the page's component: a
  // slide of another scene opens the page again in place (App's navigate).
  const store = syncStore(talkId);
  const applyRef = useRef(apply);
  applyRef.current = apply;
  const now = useRef(state);
  now.current = state;
  useEffect(() => {
    if (!talkId) return;
    const ch = new BroadcastChannel(`reclaim-lab-talk-${talkId}`);
    channel.current = ch;
    ch.onmessage = (ev: MessageEvent<Stamped | 'hello'>) => {
      if (ev.data === 'hello') {
        if (store.last) ch.postMessage(store.last); // a window just opened: tell it where we are
        return;
      }
      // Older than what this window agreed on, or that very state again: not news.
      if (store.last && ev.data.at <= store.last.at) return;
      store.last = ev.data;
      // Already there: nothing to apply, and this window's next change is its own news.
      if (sameTalk(ev.data.state, now.current)) return;
      store.applying = { target: ev.data.state, until: performance.now() + APPLY_MS };
      applyRef.current(ev.data.state);
    };
    ch.postMessage('hello');
    return () => {
      ch.close();
      channel.current = null;
    };
  }, [talkId, store]);
  // Post only a settled state (no run pending) that this window came to by itself.
  const key = JSON.stringify(state);
  useEffect(() => {
    if (!settled) return;
    // On the way to a remote state: quiet until this window is there (then it is not news) or gives up.
    const a = store.applying;
    if (a) {
      if (sameTalk(a.target, state) || performance.now() > a.until) store.applying = null;
      else return;
    }
    if (store.last && sameTalk(store.last.state, state)) return;
    store.last = { state, at: Date.now() };
    channel.current?.postMessage(store.last);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, settled]);
}

/** How long a window waits to reach a remote state (a run to make, perhaps a scene to open) before its changes are news again. */
const APPLY_MS = 10_000;

interface SyncStore {
  /** The state every window last agreed on, and when it was made. */
  last: Stamped | null;
  /** A remote state being applied: until this window reaches it (or gives up), its in-between states are not news to post. */
  applying: { target: TalkState; until: number } | null;
}
const syncs = new Map<string, SyncStore>();
function syncStore(talkId: string | null): SyncStore {
  const id = talkId ?? '';
  let s = syncs.get(id);
  if (!s) syncs.set(id, (s = { last: null, applying: null }));
  return s;
}

/** A talk state as windows send it: with the wall-clock time it was made (all windows share one clock). */
interface Stamped {
  state: TalkState;
  at: number;
}

/** The slide's size in CSS pixels before it is zoomed to the window: the talk type scale is set at this size (talk.css). */
export const SLIDE_W = 1920;
export const SLIDE_H = 1080;

/** A 16:9 slide zoomed to fit the box it is in (the window, or the presenter's pane). */
function SlideFrame({ children, ...attrs }: { children: ReactNode } & HTMLAttributes<HTMLElement> & Record<`data-${string}`, string | number>) {
  const outer = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState(0);
  useLayoutEffect(() => {
    const el = outer.current!;
    const measure = () => setFit(Math.min(el.clientWidth / SLIDE_W, el.clientHeight / SLIDE_H));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return (
    <div className="slide-fit" ref={outer}>
      <section className="slide" style={{ zoom: fit || 1, visibility: fit ? 'visible' : 'hidden' }} data-zoom={fit} {...attrs}>
        {children}
      </section>
    </div>
  );
}

/** The demo slide's parts, composed by the shell: the time axis, the scene without it, the code pane, the step in words. */
export interface TalkDemo {
  timeline: ReactNode;
  scene: ReactNode;
  code: ReactNode;
  caption: string;
  /** The scene's program form, for the presenter's side: the slide is the audience's, and the form is not on it. */
  form?: ReactNode;
}

function DemoSlide({ demo, zoom, title }: { demo: TalkDemo; zoom: boolean; title?: string }) {
  return (
    <div className={`talk-demo${zoom ? ' zoom' : ''}${title ? ' titled' : ''}`} data-testid="talk.demo">
      {title && <h2 className="talk-demo-title">{title}</h2>}
      <div className="talk-timeline">{demo.timeline}</div>
      <div className="talk-scene">{demo.scene}</div>
      <div className="talk-code" data-testid="talk.code">
        {demo.code}
      </div>
      <p className="talk-caption" data-testid="talk.caption">
        {demo.caption}
      </p>
    </div>
  );
}

function GoalsSlide({ goals, run, step }: { goals: Goal[]; run: { log: EventLog; variant: string } | null; step: number }) {
  const met = (g: Goal) => {
    if (!run || (g.variant && g.variant !== run.variant)) return undefined;
    const at = goalStep(run.log, g.check, step);
    return at >= 0 ? at : undefined;
  };
  return (
    <div className="slide-goals">
      <h2>Goals</h2>
      <ul data-testid="talk.goals">
        {goals.map((g) => {
          const at = met(g);
          return (
            <li key={g.id} className={at !== undefined ? 'met' : ''} data-testid={`talk.goal.${g.id}`} data-met={at !== undefined ? 1 : 0}>
              <span className="tick" aria-hidden="true">
                {at !== undefined ? '✔' : '○'}
              </span>
              <span className="sr-only">{at !== undefined ? 'met: ' : 'not met yet: '}</span>
              {g.text}
              {g.variant && run && g.variant !== run.variant && <span className="muted"> (on {g.variant})</span>}
              {at !== undefined && <span className="goal-at"> at event {at}</span>}
            </li>
          );
        })}
      </ul>
      <p className="muted goals-how">Ticked as the demo passes each goal, up to the step shown ({run ? `event ${step}, kernel ${run.variant}` : 'the demo is not running yet'}).</p>
    </div>
  );
}

function PatchSlide({ patch, variant }: { patch: SlidePatch; variant: string }) {
  const series = patch.series ? findSeries(patch.series) : undefined;
  const [diffs, setDiffs] = useState<Diffs | null>(null);
  const [plain, setPlain] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetchDiffs().then(
      (d) => live && setDiffs(d),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, []);
  const prefer = diffs ? [...(patch.against ? [patch.against] : []), variantBranch(diffs, variant), ...(series?.code.base ? [series.code.base] : [])] : [];
  const hunks = diffs ? patchHunks(diffs, patch, prefer) : [];
  const noDiff = diffs !== null && hunks.length === 0;
  // No branch diff touches these lines: show them as they are on the branch.
  useEffect(() => {
    if (!noDiff) return;
    let live = true;
    fetchSource(patch.branch, patch.file).then(
      (l) => live && setPlain(l.slice(patch.lines[0] - 1, patch.lines[1])),
      () => live && setPlain([]),
    );
    return () => {
      live = false;
    };
  }, [noDiff, patch]);
  const [first, last] = patch.lines;
  const comparison = hunks[0]?.comparison;
  return (
    <div className="slide-patch">
      <h2>The real patch{series ? `: ${series.title}` : ''}</h2>
      <p className="patch-where">
        <code>
          {patch.branch}:{patch.file}
        </code>{' '}
        lines {first}–{last}
        {comparison && (
          <>
            {' '}
            in the diff <code data-testid="talk.patch.diff">{comparison.id}</code> (− only on {comparison.from}, + only on {comparison.to})
          </>
        )}
      </p>
      <div className="patch-code" tabIndex={0} aria-label="The patch's code" data-testid="talk.patch.code">
        {error && <p className="error">{error}</p>}
        {hunks.map((h, i) => (
          <div className="patch-hunk" key={i}>
            <div className="hunk-func">{h.func}</div>
            {h.lines.map(([op, o, n, text], k) => (
              <div key={k} className={`pl pl-${op === '+' ? 'add' : op === '-' ? 'del' : 'ctx'}`} data-op={op}>
                <span className="ln">{(h.side === 'old' ? o : n) ?? ''}</span>
                <span className="op" aria-label={op === '+' ? 'added' : op === '-' ? 'removed' : undefined}>
                  {op}
                </span>
                <span className="src">{text || ' '}</span>
              </div>
            ))}
          </div>
        ))}
        {noDiff && plain && plain.length > 0 && (
          <div className="patch-hunk">
            <div className="hunk-func">no branch of the tree changes these lines: as they are on {patch.branch}</div>
            {plain.map((text, k) => (
              <div key={k} className="pl pl-ctx">
                <span className="ln">{first + k}</span>
                <span className="op" />
                <span className="src">{text || ' '}</span>
              </div>
            ))}
          </div>
        )}
        {noDiff && plain && plain.length === 0 && (
          <pre className="cmd">
            git -C kernel-tree/linux show {patch.branch}:{patch.file} | sed -n {first},{last}p
          </pre>
        )}
      </div>
      <p className="patch-note">
        {patch.note}
        {series && (
          <>
            {' '}
            — <a href={loreUrl(series.cover)}>cover letter</a> <code data-testid="talk.message-id">{series.cover}</code>
          </>
        )}
      </p>
    </div>
  );
}

function SlideBody({ slide, demo, zoom, run, step, loading, variant }: { slide: Slide; demo: TalkDemo | null; zoom: boolean; run: { log: EventLog; variant: string } | null; step: number; loading: string; variant: string }) {
  switch (slide.kind) {
    case 'title':
      return (
        <div className="slide-title">
          <h1>{slide.title}</h1>
          <p className="muted">{slide.subtitle ?? 'Reclaim Lab — the real kernel code on simulated CPUs'}</p>
        </div>
      );
    case 'text':
      return (
        <div className="slide-text">
          {slide.title && <h2>{slide.title}</h2>}
          <Prose text={slide.text} />
        </div>
      );
    case 'demo':
      return demo ? (
        <DemoSlide demo={demo} zoom={zoom} title={slide.title} />
      ) : (
        <p className="loading" role="status">
          {loading}
        </p>
      );
    case 'goals':
      return <GoalsSlide goals={slide.goals} run={run} step={step} />;
    case 'patch':
      return <PatchSlide patch={slide.patch} variant={variant} />;
  }
}

interface Props {
  role: TalkRole;
  talk: TalkDef;
  view: TalkView;
  onView: (v: TalkView) => void;
  onStep: (delta: number) => void;
  /** The demo slide's parts (null until the run of its live state is ready: `loading` says why). */
  demo: TalkDemo | null;
  loading: string;
  /** The demo's run and step, for the goals slide. */
  run: { log: EventLog; variant: string } | null;
  step: number;
  /** The kernel the demo runs (the patch slide prefers its diff). */
  variant: string;
  controls: ReactNode;
  /** The way out of the talk: every scene and lesson, and this slide's state in the page (the app composes it). */
  menu: ReactNode;
  /** Open the presenter's window at this slide (the app opens the link, app/url.ts). */
  onPresenter: () => void;
}

/** How long the audience's menu stays after the pointer last moved. */
const MENU_MS = 2500;

/** When this page was opened: the presenter's timer runs from it, across slides that load another scene. */
const OPENED = performance.now();

export function Talk({ role, talk, view, onView, onStep, demo, loading, run, step, variant, controls, menu, onPresenter }: Props) {
  const { slides } = talk;
  const { slide, zoom, black } = view;
  const [help, setHelp] = useState(false);
  // The audience's menu: hidden while the speaker talks, shown when the pointer moves or by m.
  const [menuShown, setMenuShown] = useState(false);
  const menuRef = useRef<HTMLElement>(null);
  const hideAt = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const showMenu = (stay: boolean) => {
    setMenuShown(true);
    clearTimeout(hideAt.current);
    if (!stay) hideAt.current = setTimeout(() => setMenuShown(false), MENU_MS);
  };
  useEffect(() => () => clearTimeout(hideAt.current), []);
  const focusMenu = () => menuRef.current?.querySelector<HTMLElement>('summary, a, select')?.focus();
  const t0 = OPENED;
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (role !== 'presenter') return;
    const id = setInterval(() => setNow(performance.now()), 1000);
    return () => clearInterval(id);
  }, [role]);

  const toSlide = (n: number) => onView({ ...view, slide: Math.max(0, Math.min(slides.length - 1, n)) });
  // The talk's keys, through the page's one key map (ui/keymap.ts); the help lists these same bindings.
  const keys: KeyBinding[] = [
    { keys: ['ArrowRight', ' ', 'PageDown'], shown: '→  space', what: 'next slide', run: () => toSlide(slide + 1) },
    { keys: ['ArrowLeft', 'PageUp'], shown: '←', what: 'previous slide', run: () => toSlide(slide - 1) },
    { keys: ['.', '>'], shown: '.', what: 'step the demo forward (Shift: ten)', run: (e) => onStep(e.shiftKey ? 10 : 1) },
    { keys: [',', '<'], shown: ',', what: 'step the demo back (Shift: ten)', run: (e) => onStep(e.shiftKey ? -10 : -1) },
    { keys: ['z'], shown: 'z', what: 'zoom the code pane on the lit line, and back', run: () => onView({ ...view, zoom: !zoom }) },
    { keys: ['b'], shown: 'b', what: 'black the screen out, and back', run: () => onView({ ...view, black: !black }) },
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
      run: onPresenter,
    },
    {
      keys: ['m'],
      shown: 'm',
      what: 'the menu: every scene and lesson, this state in the page',
      run: () => {
        if (role === 'presenter') {
          focusMenu();
          return;
        }
        if (menuShown) {
          setMenuShown(false);
          return;
        }
        showMenu(true);
        requestAnimationFrame(focusMenu);
      },
    },
    { keys: ['?'], shown: '?', what: 'this help', run: () => setHelp((h) => !h) },
    {
      keys: ['Escape'],
      shown: 'Esc',
      what: 'close this help or the menu; out of any control, the slide\'s keys again',
      run: () => {
        setHelp(false);
        setMenuShown(false);
        if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
      },
    },
  ];
  useKeyMap(keys);

  const current = slides[slide] ?? slides[0];
  const next = slides[slide + 1];
  const elapsed = Math.floor((now - t0) / 1000);
  // A live slide shows the demo once its own state is loaded (until then, the previous live slide's run is in).
  const body = <SlideBody slide={current} demo={current.kind === 'demo' && view.live !== slide ? null : demo} zoom={zoom} run={run} step={step} loading={loading} variant={variant} />;
  return (
    <div className={`talk projector talk-${role}`} data-testid={`talk.${role}`} onPointerMove={role === 'audience' && !black ? () => showMenu(false) : undefined}>
      {role === 'audience' ? (
        <>
          <SlideFrame aria-roledescription="slide" aria-label={`Slide ${slide + 1} of ${slides.length}`} data-testid="talk.slide" data-slide={slide} data-kind={current.kind}>
            {body}
            <p className="slide-count muted">
              {slide + 1} / {slides.length}
            </p>
          </SlideFrame>
          {black && <div className="blackout" data-testid="talk.blackout" aria-label="The screen is blacked out (b brings it back)" role="img" />}
          <nav
            ref={menuRef}
            className={`talk-menu${menuShown && !black ? ' shown' : ''}`}
            aria-label="Leave the talk"
            data-testid="talk.menu"
            onPointerMove={(e) => {
              e.stopPropagation();
              showMenu(true);
            }}
            onPointerLeave={() => showMenu(false)}
            onFocus={() => showMenu(true)}
            onBlur={(e) => {
              if (!e.currentTarget.contains(e.relatedTarget as Node | null)) showMenu(false);
            }}
          >
            {menu}
          </nav>
        </>
      ) : (
        <div className="presenter">
          <div className="presenter-slide">
            <SlideFrame aria-label={`Current slide, ${slide + 1} of ${slides.length}`} data-testid="talk.slide" data-slide={slide} data-kind={current.kind}>
              {body}
              <p className="slide-count muted">
                {slide + 1} / {slides.length}
              </p>
            </SlideFrame>
          </div>
          <aside className="presenter-side">
            <p className="timer" aria-label="time since the talk window opened" data-testid="talk.timer">
              {String(Math.floor(elapsed / 60)).padStart(2, '0')}:{String(elapsed % 60).padStart(2, '0')}
            </p>
            {black && (
              <p className="black-badge" role="status" data-testid="talk.black-badge">
                The audience screen is black (b)
              </p>
            )}
            <p>
              Slide {slide + 1} / {slides.length}{' '}
              <button type="button" onClick={() => toSlide(slide - 1)} disabled={slide === 0}>
                ←
              </button>{' '}
              <button type="button" onClick={() => toSlide(slide + 1)} disabled={!next} data-testid="talk.next">
                →
              </button>
            </p>
            <h3>Next</h3>
            <p className="muted" data-testid="talk.next-slide">
              {next ? slideLabel(next) : 'the end'}
            </p>
            <h3>Notes</h3>
            <ul className="notes" data-testid="talk.notes">
              {current.notes.length ? current.notes.map((n, i) => <li key={i}>{n}</li>) : <li className="muted">none</li>}
            </ul>
            {current.kind === 'demo' && <div className="presenter-controls">{controls}</div>}
            {current.kind === 'demo' && demo?.form && (
              <section className="presenter-form" aria-label="Change the run" data-testid="talk.form">
                {demo.form}
              </section>
            )}
            <h3>Leave the talk</h3>
            <nav ref={menuRef} className="presenter-menu" aria-label="Leave the talk" data-testid="talk.menu">
              {menu}
            </nav>
          </aside>
        </div>
      )}
      {help && <KeyHelp bindings={keys} onClose={() => setHelp(false)} className="talk-help" />}
    </div>
  );
}
