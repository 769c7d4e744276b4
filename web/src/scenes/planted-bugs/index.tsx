// SPDX-License-Identifier: GPL-2.0-only
// The planted-bugs scene: the machine view (CPUs, RCU) of a scenario that
// plants a use-after-free, a lock-order inversion and a sleep inside an
// RCU read-side section, to show the reports the simulated kernel makes.
import type { SceneDef, SceneViewProps } from '../types';
import { machineReducer, type MachineState } from '../../engine/machine';
import { Timeline } from '../../ui/Timeline';
import { CpuCards } from '../../ui/CpuCards';

interface PlantedState {
  machine: MachineState;
}

function PlantedBugsView({ log, timeline, state, step, onSeek }: SceneViewProps<PlantedState>) {
  return (
    <div className="scene">
      <Timeline log={log} timeline={timeline} step={step} onSeek={onSeek} />
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
  blurb:
    'Project code, not kernel code, using the kernel primitives through the shim: CPU0 frees an object ' +
    'CPU1 still reads, the two tasks take lock_a and lock_b in opposite orders, and CPU1 sleeps in ' +
    'mutex_lock() inside rcu_read_lock(). The reports below read like the kernel\u2019s and name the lines.',
  reducer: {
    init: (log) => ({ machine: machineReducer.init(log) }),
    apply: (s, log, i) => machineReducer.apply(s.machine, log, i),
  },
  View: PlantedBugsView,
};
