// SPDX-License-Identifier: GPL-2.0-only
// The traces the trace page (?import=<name>) can open by name: the tracefs
// captures User-Mode Linux made (wasm/tests/fixtures/README.md), bundled
// as files of their own (never inlined: the page fetches them from its own
// origin, which its Content-Security-Policy allows, and data: URLs it does
// not) and fetched only when a link names one.
const urls = import.meta.glob('../../../wasm/tests/fixtures/uml-*-ftrace-*.txt', { eager: true, query: '?url&no-inline', import: 'default' }) as Record<string, string>;

export interface TraceFixture {
  /** The file's name without .txt: what ?import= says. */
  name: string;
  url: string;
}

export const TRACE_FIXTURES: TraceFixture[] = Object.keys(urls)
  .sort()
  .map((k) => ({ name: k.slice(k.lastIndexOf('/') + 1).replace(/\.txt$/, ''), url: urls[k] }));

export function findTraceFixture(name: string): TraceFixture | null {
  return TRACE_FIXTURES.find((f) => f.name === name) ?? null;
}
