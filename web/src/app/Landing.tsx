// SPDX-License-Identifier: GPL-2.0-only
// The bare URL: every registered scene as a card (a drawing of it, the
// question it answers, the series and kernels it runs) and every lesson with
// this browser's progress. Each is one click away; the link it opens is the
// permalink of its start.
import { useMemo } from 'react';
import { SCENES } from '../scenes/registry';
import type { SceneDef } from '../scenes/types';
import { LESSON_INDEX } from '../lessons/lessons';
import { loadProgress } from '../lessons/progress';
import { findSeries } from '../engine/manifest';
import { registryTalks } from './talks';
import { deckLink, importLink, lessonLink, sceneLink } from './url';
import './Landing.css';

/** The series a scene is about, over all its kernels (in the order of its kernels, each once). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function seriesTitles(scene: SceneDef<any>): string[] {
  const ids = scene.variants.map((v) => (typeof scene.series === 'function' ? scene.series(v) : scene.series));
  return [...new Set(ids)].flatMap((id) => {
    const s = id ? findSeries(id) : undefined;
    return s ? [`“${s.title}” (${s.author}, ${s.posted.slice(0, 4)})`] : [];
  });
}

export function Landing() {
  const progress = useMemo(loadProgress, []);
  const done = LESSON_INDEX.filter((l) => progress[l.id]?.done).length;
  return (
    <div className="app landing" data-testid="landing">
      <header className="app-head">
        <h1>Reclaim Lab</h1>
        <ScenePicker current={null} />
      </header>
      <p className="landing-intro">
        The Linux kernel’s real memory-reclaim code, compiled to WebAssembly and run on simulated CPUs in this page: pick a scene to watch it
        run, or a lesson to be walked through one. Or{' '}
        <a href={importLink()} data-testid="landing.import">
          open a real kernel’s reclaim trace
        </a>{' '}
        (ftrace, trace-cmd or perf text): it is read in this page.
      </p>
      <main className="landing-main">
        <section aria-labelledby="landing-scenes">
        <h2 id="landing-scenes">Scenes</h2>
        <ul className="scene-cards">
          {SCENES.map((s) => {
            const series = seriesTitles(s);
            return (
              <li key={s.id} className="scene-card" data-testid={`landing.scene.${s.id}`}>
                <a href={sceneLink(s.id)} className="scene-card-link">
                  <span className="scene-thumb" aria-hidden="true">
                    <s.Thumb />
                  </span>
                  <span className="scene-card-title">{s.title}</span>
                </a>
                <p className="scene-question">{s.question}</p>
                <p className="scene-meta muted">
                  {series.length ? `Series: ${series.join('; ')}. ` : 'Project code, no series. '}
                  Kernels: {s.variants.join(', ')}.
                </p>
              </li>
            );
          })}
        </ul>
        </section>
        {/* The side column: the talks first (a short list), so that at 1280×720 both start above the fold. */}
        <div className="landing-side">
        <section aria-labelledby="landing-talks" className="landing-lessons">
        <h2 id="landing-talks">Talks</h2>
        <ul className="talk-list">
          {registryTalks().map((t) => (
            <li key={t.id} data-testid={`landing.talk.${t.id}`}>
              <a href={deckLink(t.id)}>{t.title}</a>{' '}
              <span className="muted">
                — {t.slides.length} slides, {t.slides.filter((x) => x.kind === 'demo').length} of them live ·{' '}
                <a href={deckLink(t.id, true)} aria-label={`${t.title}, presenter window`}>
                  presenter window
                </a>
              </span>
            </li>
          ))}
        </ul>
        <p className="muted">A talk of your own: “Present this state” (key t) in any scene adds it to one, and imports a talk file.</p>
        </section>
        <section aria-labelledby="landing-lessons" className="landing-lessons">
        <h2 id="landing-lessons">
          Lessons <span className="muted">({done} of {LESSON_INDEX.length} done in this browser)</span>
        </h2>
        <ol className="lesson-list">
          {/* Every lesson in its file's order, as the header's picker lists them (a lesson on a trace has no slides: no run to present). */}
          {LESSON_INDEX.map((l) => {
            const p = progress[l.id];
            const reached = l.goals.filter((g) => p?.met?.includes(g.id)).length;
            return (
              <li key={l.id} data-testid={`landing.lesson.${l.id}`} data-done={p?.done ? 1 : 0} data-met={reached}>
                <a href={lessonLink(l.id)}>{l.title}</a>{' '}
                <span className="muted">
                  — {l.where}; {reached} of {l.goals.length} goal{l.goals.length === 1 ? '' : 's'} reached
                  {p?.solution && !p.done ? ', solution shown' : ''}
                  {l.slides && (
                    <>
                      {' '}
                      ·{' '}
                      <a href={lessonLink(l.id, true)} aria-label={`${l.title} as slides`}>
                        as slides
                      </a>
                    </>
                  )}
                </span>
                {p?.done && <span className="lesson-done"> done</span>}
              </li>
            );
          })}
        </ol>
        </section>
        </div>
      </main>
    </div>
  );
}

/**
 * The header's list of every scene (two clicks to any), and the way back to the landing view.
 * `target` opens them elsewhere (an embed opens the page in a new tab, never inside its frame).
 */
export function ScenePicker({ current, target }: { current: string | null; target?: '_blank' }) {
  const away = target ? { target, rel: 'noreferrer' } : {};
  return (
    <details className="scene-picker" data-testid="scene.picker">
      <summary>Scenes</summary>
      <ul>
        <li>
          <a href="./" {...away} data-testid="scene.picker.all">
            All scenes and lessons
          </a>
        </li>
        {SCENES.map((s) => (
          <li key={s.id}>
            <a href={sceneLink(s.id)} {...away} aria-current={s.id === current ? 'page' : undefined} data-testid={`scene.picker.${s.id}`}>
              {s.title}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
