// SPDX-License-Identifier: GPL-2.0-only
// The planted-bugs scene: the machine view (CPUs, RCU) of a scenario that
// plants a lock-order inversion, a sleep inside an RCU read-side section
// and a use-after-free, to show the reports the simulated kernel makes;
// or, chosen by its program, the inversion run into a real deadlock, or a
// completion signalled past the hung-task timeout (the ends of a run the
// three reports never reach).
import type { SceneDef, SceneViewProps } from '../types';
import { kernelsOf, scenarioOf } from '../kernels';
import { EventKind } from '../../engine/generated/events';
import { machineReducer, type MachineState } from '../../engine/machine';
import { PlantedBugsThumb } from './thumb';

interface PlantedState {
  machine: MachineState;
}

/** What is planted: the program's permalink text, the scenario's "planted" parameter (wasm/scenarios/planted_bugs.c). */
const PLANTED: { text: string; value: number; label: string }[] = [
  { text: '', value: 0, label: 'three reports: a lock-order inversion, a sleep under RCU, a use-after-free' },
  { text: 'deadlock', value: 1, label: 'the inversion run into the deadlock lockdep predicts' },
  { text: 'hung', value: 2, label: 'a completion signalled after the hung-task timeout' },
];

function planted(text: string): number {
  const p = PLANTED.find((x) => x.text === text);
  if (!p) throw new Error(`not one of ${PLANTED.filter((x) => x.text).map((x) => `"${x.text}"`).join(', ')} (or empty, the three reports)`);
  return p.value;
}

function PlantedChoice({ program, onProgram }: { program: string; onProgram: (text: string) => void }) {
  return (
    <label className="planted-choice">
      Planted:{' '}
      <select value={program} onChange={(e) => onProgram(e.target.value)} data-testid="planted.choice">
        {PLANTED.map((p) => (
          <option key={p.text} value={p.text}>
            {p.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Its view is the choice of bug, above the stage's time axis and CPU cards (frame.viewFirst); the reports are the shell's panel. */
function PlantedBugsView({ program, onProgram }: SceneViewProps<PlantedState>) {
  return onProgram ? <PlantedChoice program={program ?? ''} onProgram={onProgram} /> : null;
}

export const plantedBugs: SceneDef<PlantedState> = {
  id: 'planted-bugs',
  title: 'Planted bugs: what KASAN and lockdep report',
  scenario: scenarioOf('planted-bugs'),
  variants: kernelsOf('planted-bugs'),
  series: null,
  question: 'What do KASAN and lockdep report for a use-after-free, a lock-order inversion and a sleep under RCU?',
  Thumb: PlantedBugsThumb,
  blurb:
    'Project code, not kernel code, using the kernel primitives through the shim: the two tasks take ' +
    'lock_a and lock_b in opposite orders, CPU1 sleeps in mutex_lock() inside rcu_read_lock(), and then ' +
    'reads an object CPU0 has freed. The reports below read like the kernel\u2019s and name the lines; ' +
    'as in a kernel, lockdep is off after its report (and would be after KASAN\u2019s), so the ' +
    'use-after-free comes last. Two more bugs can be planted instead: the same inversion run into the deadlock ' +
    'lockdep predicts, and a completion signalled only after the hung-task timeout.',
  reducer: {
    init: (log) => ({ machine: machineReducer.init(log) }),
    apply: (s, log, i) => machineReducer.apply(s.machine, log, i),
  },
  View: PlantedBugsView,
  // The choice first: it makes the run the time axis draws. No key of tasks: two, one a CPU, each named on its CPU card.
  frame: { tasks: false, viewFirst: true },
  // The reports, the point of this scene, are the shell's panel under it (ui/ReportsPanel.tsx), on every slide.
  parts: [{ id: 'cpus', what: 'the CPU cards: what each CPU runs and holds', talk: true }],
  program: {
    toBytes: (text) => (planted(text), []),
    options: (text) => ({ planted: planted(text) }),
    length: (text) => (text ? 1 : 0),
    // Stand on the first report: lockdep's before the deadlock, or the hung task's.
    stepAfter: (log) => {
      for (let i = 0; i < log.length; i++) if (log.kind[i] === EventKind.REPORT) return i;
      return 0;
    },
  },
};
