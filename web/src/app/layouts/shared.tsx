// SPDX-License-Identifier: GPL-2.0-only
// What more than one layout draws: the run's controls, the step in words for
// screen readers, and the page's keys with their list (the page and the
// embed; talk mode has keys of its own).
import { useRef, useState, type ReactNode, type RefObject } from 'react';
import { stepAtTime, timePeaks } from '../../engine/lockstep';
import type { EventLog } from '../../engine/log';
import { narrate } from '../../engine/narrate';
import { KeyHelp } from '../../ui/KeyHelp';
import { stepBindings, useKeyMap, type KeyBinding } from '../../ui/keymap';
import { Controls } from '../Controls';
import type { Lab } from '../useLab';

/** The run's controls: play, step, speed, seed, kernel, the kernel compared, policy; `tools` after the seed. */
export function RunControls({ lab, tools }: { lab: Lab; tools?: ReactNode }) {
  const { run, step, reading, last, seek, playing, setPlaying, speed, setSpeed, settings, dispatch, landing, initial } = lab;
  return (
    <Controls
      tools={tools}
      disabled={!run}
      playing={playing}
      onPlay={() => setPlaying((p) => !p)}
      step={step}
      shown={reading}
      last={last}
      onSeek={seek}
      speed={speed}
      onSpeed={setSpeed}
      seed={settings.seed}
      onSeed={(s) => {
        if (s === settings.seed) return;
        landing.current = 0;
        dispatch({ type: 'seed', seed: s });
      }}
      variants={initial.scene.variants}
      variant={settings.variant}
      onVariant={(v) => {
        // The new kernel's run opens at the same virtual time (as lock-step compare does).
        const t = run ? run.peaks[step] : 0;
        landing.current = (l: EventLog) => stepAtTime(timePeaks(l.time), t);
        dispatch({ type: 'variant', variant: v });
      }}
      compare={settings.compare}
      onCompare={(c) => dispatch({ type: 'compare', compare: c })}
      policy={settings.policy}
      onPolicy={(p) => {
        landing.current = 0;
        dispatch({ type: 'policy', policy: p });
      }}
      memory={settings.memory ?? 'sc'}
      onMemory={(m) => {
        landing.current = 0;
        dispatch({ type: 'memory', memory: m });
      }}
    />
  );
}

/** Each step in words, for screen readers; quiet while playing, which would flood it. */
export function Narration({ lab: { run, playing, step } }: { lab: Lab }) {
  return (
    <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="narration">
      {run && !playing ? narrate(run.log, step, run.labels) : ''}
    </p>
  );
}

/** Focus back on the scene (Escape), from any control; before the scene is drawn, off the control at least. */
function leaveControl(stage: HTMLElement | null) {
  if (stage) stage.focus();
  else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
}

export interface PageKeys {
  /** The scene's element: Escape and the dialogs give it the focus back. */
  stageRef: RefObject<HTMLElement | null>;
  help: boolean;
  setHelp: (f: (h: boolean) => boolean) => void;
  /** The "Present this state" dialog is open. */
  building: boolean;
  setBuilding: (f: boolean | ((b: boolean) => boolean)) => void;
  /** The list of keys, open (`?`). */
  helpDialog: ReactNode;
  /** Close a dialog and give the scene the focus. */
  backToStage: () => void;
}

/** The page's keys, whatever has focus except a text field (ui/keymap.ts); `?` lists them. */
export function usePageKeys({ step, last, seek, setPlaying, run, initial }: Lab): PageKeys {
  const [help, setHelp] = useState(false);
  const [building, setBuilding] = useState(false);
  const stageRef = useRef<HTMLElement>(null);
  const keys: KeyBinding[] = [
    ...stepBindings('event', step, last, seek, () => setPlaying((p) => !p)),
    { keys: ['t'], shown: 't', what: 'present this state: add it to the talk being built', run: () => run && !initial.embed && setBuilding(true) },
    { keys: ['?'], shown: '?', what: 'this list of keys', run: () => setHelp((h) => !h) },
    {
      keys: ['Escape'],
      shown: 'Esc',
      what: 'close this list or dialog; back to the scene from any control',
      run: () => {
        setHelp(false);
        setBuilding(false);
        leaveControl(stageRef.current);
      },
    },
  ];
  useKeyMap(keys);
  const closeHelp = () => {
    setHelp(false);
    stageRef.current?.focus();
  };
  return {
    stageRef,
    help,
    setHelp,
    building,
    setBuilding,
    helpDialog: help && <KeyHelp bindings={keys} onClose={closeHelp} />,
    backToStage: () => stageRef.current?.focus(),
  };
}
