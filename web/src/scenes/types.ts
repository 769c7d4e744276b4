// SPDX-License-Identifier: GPL-2.0-only
// What a scene is, for the app shell: its scenario, its reducer (the model)
// and its view. Scenes depend on the engine, never on each other.
import type { ComponentType } from 'react';
import type { EventLog } from '../engine/log';
import type { Reducer } from '../engine/history';
import type { MachineState, Timeline } from '../engine/machine';
import type { Labels } from '../engine/narrate';
import type { RunOptions, SimClient } from '../engine/client';

export interface SceneViewProps<S> {
  log: EventLog;
  timeline: Timeline;
  labels: Labels;
  state: S;
  step: number;
  onSeek: (step: number) => void;
  variant: string; // the kernel this log ran on
  /** The scenario's program in its permalink form ('' : the scenario's default). */
  program?: string;
  /** Replace the program and run again (absent in a compared run, which follows the main one). */
  onProgram?: (text: string) => void;
  /** The parts of the view to draw, by id (the scene's `parts`); absent: every part (the page). */
  parts?: ReadonlySet<string>;
}

/**
 * The frame the shell draws around every scene's view (app/Stage.tsx), so that a view draws its own subject alone:
 * the time axis and its key of tasks, then the CPU cards (the part `cpus`), then the view.
 */
export interface SceneFrame {
  /** The key of tasks under the time axis (default: drawn). */
  tasks?: boolean;
  /** The CPU cards under the time axis (default), or folded after the view and drawn only while open (64 CPUs). */
  cpus?: 'cards' | 'folded';
  /** The view above the time axis, not under it: a view that is only a choice to make before watching. */
  viewFirst?: boolean;
}

/** A scene's program form (SceneDef.program.Form): the program in its permalink form, and what replaces it. */
export interface ProgramFormProps {
  program: string;
  onProgram: (text: string) => void;
}

/** Whether a view draws the part `id` (scenes/parts.ts): every part when no set is given. */
export const shows = (parts: ReadonlySet<string> | undefined, id: string) => !parts || parts.has(id);

/** A part of a scene's view a slide can show or leave out (talks/README.md). */
export interface ScenePart {
  /** Its name in a talk file's `parts`. */
  id: string;
  /** What it is, in a sentence (in the error for an unknown name, and the docs). */
  what: string;
  /** Whether a slide shows it when the slide names no parts (a slide is 1920×1080 and nobody scrolls it). */
  talk: boolean;
}

/** One of the explorer's small races, as wasm/explore.json gives it (its "about" says what each field is). */
export interface ExploreRace {
  id: string;
  race: string;
  /** A few words for the Explore panel's race picker, where a scene has more than one set-up. */
  title?: string;
  scene?: string;
  scenario: string;
  /** labrun's flags for the set-up. */
  args: string[];
  prog: string;
  bound: number;
  maxBound: number;
  defaultBound: number;
  maxExecutions: number;
  /** PCT runs make explore makes on each kernel. */
  pctRuns: number;
  /** From the registry (kernel-tree/manifest.json "explore"): for each kernel it is searched on, null (no
   * execution within the bound fails) or the failure expected and its fewest preemptions. */
  kernels: Readonly<Record<string, { kind: string; preemptions: number } | null>>;
}

/** A scene's run the explorer can search (the Explore panel, web/src/explore): from its race in wasm/explore.json. */
export interface ExploreSetup {
  /** The scene's set-up searched, in its permalink form (prog=): small enough to exhaust its bounds. */
  prog: string;
  /** Which race it is, in the kernel's words. */
  race: string;
  /** A few words naming it in the panel's race picker. */
  title: string;
  /** The highest preemption bound offered; the default is the one the scene's races need. */
  maxBound: number;
  defaultBound: number;
  /** Executions before a search stops (its last bound is then not exhausted). */
  maxExecutions: number;
}

/** Every scene's state holds the machine's (engine/machine.ts): the timeline is made from it in the same fold. */
export interface SceneDef<S extends { machine: MachineState }> {
  id: string; // as in the URL
  title: string;
  scenario: string; // the C scenario it runs (wasm/scenarios)
  variants: string[]; // the kernels it runs on (wasm/build.mk VARIANTS); the first is the default
  series: string | null | ((variant: string) => string | null); // id in kernel-tree/manifest.json, if the scene is about a series
  blurb: string;
  /** The question the scene answers, one sentence (the landing view's card). */
  question: string;
  /** A small drawing of the scene for its card on the landing view (an SVG, no run needed). */
  Thumb: ComponentType;
  reducer: Reducer<S>;
  /** Its own subject: the shell draws the time axis and the CPU cards around it (`frame`). */
  View: ComponentType<SceneViewProps<S>>;
  /** How the shell's frame around the view differs from the default (SceneFrame). */
  frame?: SceneFrame;
  /** Fault injection for a kernel: count_objects sleeps this long (0: none). */
  slowNs?: (variant: string) => number;
  /** A measurement the scene offers beside the run (runs of its own in the worker). */
  Measure?: ComponentType<{ sim: SimClient }>;
  /** Set by the registry: every set-up of the scene's races in wasm/explore.json, in its order (one per prog; the panel's model is the run's), which the Explore panel searches. */
  explores?: ExploreSetup[];
  /** Figures read off the scene's state, by name (unique over the scenes): a lesson's goal can ask for one at the end of a run. */
  figures?: Record<string, (state: S) => number>;
  /** The parts of its view, in the order it draws them: a slide shows those it names, or those marked talk. */
  parts: readonly ScenePart[];
  /** Comparison ids of the What changed panel (kernel-tree/diffs.py) to offer first. */
  diffs?: string[];
  /** For scenarios that take a program of operations: its permalink form and bytes. */
  program?: {
    /** The bytes the scenario reads; throws with what is wrong. */
    toBytes(text: string): number[];
    /** Where to stand once a program with n operations has run. */
    stepAfter(log: EventLog, n: number): number;
    /** How many operations a program text holds. */
    length(text: string): number;
    /** Settings the text carries besides its bytes ('' : the scene's defaults); throws with what is wrong. */
    options?(text: string): RunOptions;
    /** The form that changes the program and runs again: in the view on the page; beside the slide, never on it, in
     * the presenter's window of a talk (the audience sees the run it makes). */
    Form?: ComponentType<ProgramFormProps>;
  };
}
