// SPDX-License-Identifier: GPL-2.0-only
// Types of scripts/test-summary.mjs, for its test.
export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  skips: [string, string, string][];
}
export interface Group extends Counts {
  name: string;
  parts: number;
  status: number;
  wall: number;
  cpu: number;
}
export declare const PARSERS: Record<string, (log: string, result: { status: number }, report: unknown) => Counts>;
export declare function readResults(dir?: string, order?: string[]): Map<string, Group | null>;
export declare function summary(groups: Map<string, Group | null>, makeStatus?: number, elsewhere?: string): { lines: string[]; ok: boolean };
