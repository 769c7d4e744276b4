// SPDX-License-Identifier: GPL-2.0-only
// What a run's events refer to by number, as wasm/lab/lab.c writes it
// (lab_meta_json). The same JSON comes from the browser bridge and from
// `labrun --meta` / `--dump`.

export interface Site {
  tree: string; // branch of kernel-tree/linux, "project", or "" (no line)
  file: string;
  line: number;
  func: string;
  expr: string | null;
}

export interface TaskInfo {
  id: number;
  cpu: number;
  name: string;
  rcuc: boolean;
}

export interface Report {
  type: number; // enum sim_report_type (wasm/runtime/sim.h)
  event: number; // index of the event that carries it
  title: string;
  text: string;
}

export interface RunMeta {
  status: 'done' | 'event-limit' | 'deadlock' | 'stuck' | 'panic';
  policy: string;
  schedule: string; // every decision of the run, as lab_schedule_encode() writes it
  schedule_diverged_at: number; // -1: the given schedule was followed to its end
  decisions: number;
  reports: Report[];
  events: number;
  live_objects: number;
  steps: number;
  end_time: number;
  cpus: number;
  nodes: number;
  /** The simulated machine's word size, BITS_PER_LONG (32 or 64): the module's own. */
  bits: 32 | 64;
  kinds: { name: string; args: string[]; doc: string }[];
  sites: Site[];
  names: string[];
  tasks: TaskInfo[];
  costs: { name: string; ns: number }[];
  real_gp: boolean; // grace periods at real length (the stress scale, wasm/runtime/costs.c)
  events_seen: number; // events that happened, recorded or not (a quiet run records few)
  wall_marks: { name: string; ms: number }[]; // the scenario's wall-clock marks, since the run began
  stats: RunStats;
}

/** Read off the event log after the run (wasm/runtime/stats.c). */
export interface RunStats {
  calls: CallStats[];
  locks: LockStats[];
}

export interface CallStats {
  name: string; // a CALL/RETURN pair the scenario emits
  calls: number;
  returns: number;
  total_ns: number; // over the calls that returned
  asleep_ns: number; // of which the task slept
  off_cpu_ns?: number; // of which it was off its CPU (asleep or switched out)
  first: number; // the first call's start, virtual ns
  last: number; // the last return
  ret_sum: number; // of the values returned
}

export interface LockStats {
  name: string;
  acquired: number;
  contended: number; // slept or spun on it
  tryfail: number;
  let_go: number; // rwsem_is_contended() was true
}

export interface ScenarioInfo {
  name: string;
  title: string;
  tree: string;
  cpus: number;
  nodes: number;
  seed: number;
  rounds: number;
  objects: number;
}
