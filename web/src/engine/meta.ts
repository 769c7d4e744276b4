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

export interface RunMeta {
  status: 'done' | 'event-limit' | 'deadlock';
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
