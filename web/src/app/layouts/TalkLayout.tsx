// SPDX-License-Identifier: GPL-2.0-only
// Talk mode (talk=, deck=): the slides, with the scene's live state as the
// demo; every window of the talk (the audience's, the presenter's) shows the
// same slide and the same demo state (talk/Talk.tsx useTalkSync).
import type { ReactNode } from 'react';
import { narrate } from '../../engine/narrate';
import { LessonPicker } from '../../lessons/LessonPanel';
import { slideParts } from '../../scenes/parts';
import type { TalkState, TalkView } from '../../talk/slides';
import { Talk, useTalkSync } from '../../talk/Talk';
import { ReportsPanel } from '../../ui/ReportsPanel';
import { ScenePicker } from '../Landing';
import { runOf, sameRun, type RunState } from '../../engine/runState';
import { Stage, StageAxis, StageCode } from '../Stage';
import type { Lab } from '../useLab';
import { linkOf, liveLink, openLesson, openPresenter, talkLink } from '../url';
import { Narration, RunControls } from './shared';

interface Props {
  lab: Lab;
  /** The slide on screen and the live slide whose state the demo shows (App holds it: the permalink has the slide). */
  view: TalkView;
  setView: (v: TalkView) => void;
  /** Open another permalink in place (a slide whose live state is another scene's). */
  navigate: (search: string) => void;
  /** The scheduler's next decision, beside the presenter's slide. */
  nextStep: ReactNode;
}

export function TalkLayout({ lab, view, setView, navigate, nextStep }: Props) {
  const { initial, settings, dispatch, run, error, state, step, reading, seek, setStep, landing, start, onProgram } = lab;
  const { scene, lesson, talk } = initial;
  const deck = initial.deck!;
  const role = talk!;

  // Every window of the talk shows the same slide and the same demo state.
  const shown = run ?? settings;
  const talkState: TalkState = {
    ...view,
    scene: scene.id,
    step,
    ...runOf(shown),
  };
  const settled = !!run && sameRun(run, settings);
  const where = { lesson: lesson?.id ?? null, deck: lesson ? null : deck.id, talk: role };
  useTalkSync(`${lesson ? 'lesson' : 'deck'}-${deck.id}`, talkState, settled, (t) => {
    const s: RunState = runOf(t);
    if (t.scene !== scene.id) {
      navigate(talkLink(where, t.slide, { ...s, scene: t.scene, step: t.step }));
      return;
    }
    setView({ slide: t.slide, live: t.live, zoom: t.zoom, black: t.black });
    if (run && sameRun(run, s)) {
      setStep(Math.max(0, Math.min(t.step, run.log.length - 1)));
      return;
    }
    // A run of these settings may be on its way, or already in but not yet drawn (its landing used up): both.
    landing.current = t.step;
    if (sameRun(settings, s)) {
      setStep(t.step);
      return;
    }
    dispatch({ type: 'start', run: s });
  });

  // A new slide: a live one whose state is not the one loaded loads it (in place, or as the page of its scene).
  const onView = (v: TalkView) => {
    const target = deck.slides[v.slide];
    if (v.slide === view.slide || target?.kind !== 'demo' || v.live === v.slide) {
      setView(v);
      return;
    }
    const st = target.state;
    if (st.scene !== scene.id) {
      navigate(talkLink(where, v.slide, st));
      return;
    }
    setView({ ...v, live: v.slide });
    const { step: at, scene: _scene, ...r } = st;
    start(r, at);
  };

  // The parts of the scene the live slide shows: those it names, else the scene's talk default.
  const live = deck.slides[view.live];
  const parts = slideParts(scene, live?.kind === 'demo' ? live.parts : undefined);
  return (
    <div className={`app app-talk app-talk-${role}`} data-testid={run ? 'scene.ready' : 'scene.loading'}>
      <Talk
        role={role}
        talk={deck}
        view={view}
        onView={onView}
        onStep={(d) => seek(step + d)}
        onPresenter={() => openPresenter(`reclaim-lab-presenter-${deck.id}`)}
        controls={
          <>
            <RunControls lab={lab} />
            {nextStep}
          </>
        }
        menu={
          <>
            <ScenePicker current={scene.id} />
            <LessonPicker current={null} open={openLesson} />
            {run && (
              <a href={linkOf(liveLink(scene.id, run, step))} data-testid="talk.leave">
                This state in the page
              </a>
            )}
          </>
        }
        run={run}
        step={step}
        variant={run?.variant ?? settings.variant}
        loading={error ?? 'Running the real kernel code on simulated CPUs in a worker…'}
        // The demo once the run is the one asked for (a live slide's state, a seed changed): never a stale run.
        demo={
          run && state != null && settled
            ? {
                timeline: <StageAxis log={run.log} timeline={run.timeline} step={step} onSeek={seek} />,
                // The slide is the same in both windows; the form that changes the run is the presenter's, beside it.
                scene: (
                  <>
                    <Stage scene={scene} run={run} state={state} step={step} onSeek={seek} timelineApart parts={parts} />
                    <ReportsPanel log={run.log} step={reading} onSeek={seek} />
                  </>
                ),
                code: <StageCode log={run.log} step={reading} wrap />,
                caption: narrate(run.log, reading, run.labels),
                form: role === 'presenter' && scene.program?.Form && onProgram ? <scene.program.Form program={run.prog} onProgram={onProgram} /> : undefined,
              }
            : null
        }
      />
      <Narration lab={lab} />
    </div>
  );
}
