// SPDX-License-Identifier: GPL-2.0-only
// The planted-bugs scene: the machine view (CPUs, RCU) of a scenario that
// plants a lock-order inversion, a sleep inside an RCU read-side section
// and a use-after-free, to show the reports the simulated kernel makes.
import type { SceneDef, SceneViewProps } from '../types';
import { machineReducer, type MachineState } from '../../engine/machine';
import { Timeline } from '../../ui/Timeline';
import { CpuCards } from '../../ui/CpuCards';
import { PlantedBugsThumb } from './thumb';

interface PlantedState {
  machine: MachineState;
}

function PlantedBugsView({ log, timeline, state, step, onSeek, timelineApart }: SceneViewProps<PlantedState>) {
  return (
    <div className="scene">
      {!timelineApart && <Timeline log={log} timeline={timeline} step={step} onSeek={onSeek} />}
      <CpuCards log={log} machine={state.machine} cpu={step >= 0 ? log.cpu[step] : 0} />
    </div>
  );
}

export const plantedBugs: SceneDef<PlantedState> = {
  id: 'planted-bugs',
  title: 'Planted bugs: what KASAN and lockdep report',
  scenario: 'planted-bugs',
  variants: ['v6.12', 'v6.1', 'srcu'],
  series: null,
  question: 'What do KASAN and lockdep report for a use-after-free, a lock-order inversion and a sleep under RCU?',
  Thumb: PlantedBugsThumb,
  blurb:
    'Project code, not kernel code, using the kernel primitives through the shim: the two tasks take ' +
    'lock_a and lock_b in opposite orders, CPU1 sleeps in mutex_lock() inside rcu_read_lock(), and then ' +
    'reads an object CPU0 has freed. The reports below read like the kernel\u2019s and name the lines; ' +
    'as in a kernel, lockdep is off after its report (and would be after KASAN\u2019s), so the ' +
    'use-after-free comes last.',
  reducer: {
    init: (log) => ({ machine: machineReducer.init(log) }),
    apply: (s, log, i) => machineReducer.apply(s.machine, log, i),
  },
  View: PlantedBugsView,
};
