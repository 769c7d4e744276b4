// SPDX-License-Identifier: GPL-2.0-only
// One colour per task name, the same in every view.
import * as d3 from 'd3';

const palette = ['#4e79a7', '#59a14f', '#e15759', '#76b7b2', '#9c755f', '#edc948', '#ff9da7', '#bab0ac'];
const byName = d3.scaleOrdinal<string, string>(palette);

export function taskColor(name: string): string {
  if (name.startsWith('rcuc/')) return '#b6992d'; // RCU callback kthreads: apart from grace-period purple
  return byName(name);
}
