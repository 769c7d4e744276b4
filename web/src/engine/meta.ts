// SPDX-License-Identifier: GPL-2.0-only
// What a run's events refer to by number, as wasm/runtime/lab.c writes it
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
  kinds: { name: string; args: string[]; doc: string }[];
  sites: Site[];
  names: string[];
  tasks: TaskInfo[];
  costs: { name: string; ns: number }[];
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
