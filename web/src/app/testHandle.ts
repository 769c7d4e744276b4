// SPDX-License-Identifier: GPL-2.0-only
// The test handle, window.__lab: end-to-end tests read the state through it,
// not through pixels alone. Its type is the one the page object imports.
import { useEffect } from 'react';
import { shownSiteAt, type ShownSite } from '../engine/codesite';
import type { SimEvent } from '../engine/log';
import type { RunMeta, Site } from '../engine/meta';
import { narrate } from '../engine/narrate';
import { traceJson } from '../engine/perfetto';
import { SCENES } from '../scenes/registry';
import { LESSONS, metGoals } from '../lessons/lessons';
import { slidesOf } from '../talk/slides';
import { registryTalks } from './talks';
import { runCommand } from './Notices';
import type { Compared, Run } from './useRuns';
import type { Settings } from './settings';

export interface LabHandle {
  /** A run is in and the handle describes it. */
  ready: boolean;
  error: string | null;
  scene: string;
  /** Every registered scene's id. */
  scenes: string[];
  /** Every lesson (lessons/*.json): its id, and how many slides it makes in talk mode. */
  lessons: { id: string; slides: number }[];
  /** Every talk of talks/ (the registry): its id, and how many slides it has. */
  talks: { id: string; slides: number }[];
  /** Every registered scene: id, title and kernels. */
  sceneDefs: { id: string; title: string; variants: string[] }[];
  variant: string;
  seed: number;
  policy: string;
  /** The run's memory model (sc when it names none). */
  memory: string;
  sched: string;
  prog: string;
  step: number;
  length: number;
  decisions(): { length: number; schedule: string } | null;
  event(): (SimEvent & { kindName: string }) | null;
  site(): Site | null;
  /** The line the code pane shows, and why (engine/codesite.ts). */
  codeShown(): (Site & { how: ShownSite['how']; at: number }) | null;
  narration(): string;
  /** The scene's model at the step (each scene's test knows its shape). */
  state(): unknown;
  meta(): RunMeta | null;
  nextDecision(): { index: number; event: number; cpu: number; runnable: number[] } | null;
  goTo(step: number): void;
  /** The first event of a kind at or after step from (-1: none). */
  find(kind: string, from: number): number;
  compared(): { variant: string; step: number; length: number; state: unknown; time: number } | null;
  /** The run as the trace "Download trace" saves (engine/perfetto.ts). */
  trace(): string | null;
  /** Where loading the run went, in ms (Run.phases). */
  loadPhases(): Record<string, number> | null;
  /** Whether the run's checkpoints are all kept (the page folds them between frames after the first), and the fold's main-thread time so far, in ms. */
  folded(): { done: boolean; ms: number } | null;
  /** The run's native command line (labrun at its word size), as the run's end gives it. */
  command(): string | null;
  /** SHA-256 (hex) of the run's events as the worker packed them (engine/log.ts packRecords). */
  columnsDigest(): Promise<string | null>;
  /** The lesson's goals this run meets, each with the event that meets it first (lessons.ts metGoals, over the whole run). */
  goalSteps(lesson: string): Record<string, number>;
}

declare global {
  interface Window {
    __lab?: LabHandle;
  }
}

interface Inputs {
  scene: string;
  settings: Settings;
  run: Run | null;
  error: string | null;
  step: number;
  state: unknown;
  seek: (step: number) => void;
  compared: Compared | null;
  step2: number;
  state2: unknown;
  traceTitle: string;
}

/** What the registries hold: the same at every step, so read once (not at every frame of play). */
let registries: Pick<LabHandle, 'scenes' | 'lessons' | 'talks' | 'sceneDefs'> | null = null;
const readRegistries = () =>
  (registries ??= {
    scenes: SCENES.map((x) => x.id),
    lessons: LESSONS.map((l) => ({ id: l.id, slides: slidesOf(l).length })),
    talks: registryTalks().map((t) => ({ id: t.id, slides: t.slides.length })),
    sceneDefs: SCENES.map((x) => ({ id: x.id, title: x.title, variants: x.variants })),
  });

export function useTestHandle({ scene, settings, run, error, step, state, seek, compared, step2, state2, traceTitle }: Inputs) {
  useEffect(() => {
    const s = run ?? settings;
    window.__lab = {
      ready: !!run,
      error,
      scene,
      ...readRegistries(),
      variant: s.variant,
      seed: s.seed,
      policy: s.policy,
      memory: s.memory ?? 'sc',
      sched: s.sched,
      prog: s.prog,
      decisions: () => (run ? { length: run.decisions.length, schedule: run.log.meta.schedule } : null),
      step,
      length: run?.log.length ?? 0,
      event: () => (run ? { ...run.log.event(step), kindName: run.log.meta.kinds[run.log.kind[step]].name } : null),
      site: () => (run ? run.log.siteOf(step) : null),
      codeShown: () => {
        const shown = run ? shownSiteAt(run.log, step) : null;
        return shown ? { how: shown.how, at: shown.at, ...shown.site } : null;
      },
      narration: () => (run ? narrate(run.log, step, run.labels) : ''),
      state: () => state,
      meta: () => run?.log.meta ?? null,
      nextDecision: () => {
        if (!run) return null;
        const d = run.decisions.nextAfter(step);
        return d < 0 ? null : { index: d, event: run.decisions.event[d], cpu: run.decisions.cpu[d], runnable: run.decisions.runnableCpus(d) };
      },
      goTo: seek,
      goalSteps: (id) => {
        const lesson = LESSONS.find((l) => l.id === id);
        return run && lesson ? metGoals(lesson, run.log, run.variant, run.log.length - 1) : {};
      },
      find: (kind, from) => {
        if (!run) return -1;
        const k = run.log.meta.kinds.findIndex((x) => x.name === kind);
        for (let i = Math.max(0, from); i < run.log.length; i++) if (run.log.kind[i] === k) return i;
        return -1;
      },
      compared: () =>
        compared ? { variant: compared.variant, step: step2, length: compared.log.length, state: state2, time: compared.log.time[step2] } : null,
      trace: () => (run ? traceJson(run.log, { title: traceTitle }, run.labels) : null),
      loadPhases: () => (run ? { ...run.phases } : null),
      folded: () => (run ? { done: run.history.folded, ms: run.history.foldMs } : null),
      command: () => {
        const def = SCENES.find((x) => x.id === scene);
        return run && def ? runCommand(def, run) : null;
      },
      columnsDigest: async () => {
        if (!run) return null;
        const c = run.log.time.buffer as ArrayBuffer;
        const d = new Uint8Array(await crypto.subtle.digest('SHA-256', c));
        return Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('');
      },
    };
  }, [scene, settings, run, error, step, state, seek, compared, step2, state2, traceTitle]);
}
