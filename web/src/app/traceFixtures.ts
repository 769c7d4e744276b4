// SPDX-License-Identifier: GPL-2.0-only
// The traces the trace page (?import=<name>) can open by name: the tracefs
// captures User-Mode Linux made (wasm/tests/fixtures/README.md), bundled
// as files of their own (never inlined: the page fetches them from its own
// origin, which its Content-Security-Policy allows, and data: URLs it does
// not) and fetched only when a link names one. The page lists them, each
// with what it shows.
const urls = import.meta.glob('../../../wasm/tests/fixtures/uml-*-ftrace-*.txt', { eager: true, query: '?url&no-inline', import: 'default' }) as Record<string, string>;
// What each capture shows is its KUnit case's title, from the one list of those cases (the file compare.sh reads too).
import kunitDef from '../../../wasm/scenarios/kunit.def?raw';

export interface TraceFixture {
  /** The file's name without .txt: what ?import= says. */
  name: string;
  url: string;
  /** The kernel branch that made it (uml-<branch>-ftrace-…). */
  kernel: string;
  /** The KUnit case whose run it captured (kunit-runaway …), and that case's title in wasm/scenarios/kunit.def. */
  scenario: string;
  title: string;
}

/** The KUnit cases' titles, by scenario name: KUNIT_SCENARIO(ident, "name", run, where, variant, "title"). */
export function kunitTitles(def: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of def.matchAll(/^KUNIT_SCENARIO\(\s*\w+,\s*"([^"]+)",[^"]*"([^"]+)"\)/gms)) out.set(m[1], m[2].replace(/ \(compared with [^)]*\)$/, ''));
  return out;
}

const TITLES = kunitTitles(kunitDef);

export const TRACE_FIXTURES: TraceFixture[] = Object.keys(urls)
  .sort()
  .map((k) => {
    const name = k.slice(k.lastIndexOf('/') + 1).replace(/\.txt$/, '');
    const [, kernel = '', scenario = ''] = /^uml-(.+?)-ftrace-(.+)$/.exec(name) ?? [];
    return { name, url: urls[k], kernel, scenario, title: TITLES.get(scenario) ?? scenario };
  });

export function findTraceFixture(name: string): TraceFixture | null {
  return TRACE_FIXTURES.find((f) => f.name === name) ?? null;
}
