// SPDX-License-Identifier: GPL-2.0-only
// What the lru-batch scene runs, by whose it is: read from docs/lru.md, the
// inventory wasm/tools/lru-inventory.py writes (make docs/lru.md) and make
// test-native checks, so that the page and the docs say one thing.
import inventoryText from '../../../../docs/lru.md?raw';

export type Whose = 'upstream' | 'patched' | 'port' | 'shim';

export interface RanItem {
  name: string; // "folio_add_lru()"
  where: string; // "mm/swap.c:503", or the shim file
  whose: Whose;
  note: string; // the commits that patch or add it, or the shim's kind
}

export interface KernelRuns {
  counts: Record<Whose | 'other', number>;
  total: number;
  items: RanItem[];
}

const cells = (line: string) => line.split('|').slice(1, -1).map((c) => c.trim());
const unquote = (s: string) => s.replace(/^`|`$/g, '');
const ranOn = (scene: string, kernel: string) => scene.split(', ').includes(kernel);

/** The inventory's sections: heading -> its table's rows (cells), the header and rule rows left out. */
function sections(text: string): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  let heading = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) heading = line.slice(3);
    else if (line.startsWith('|') && heading) {
      if (!out.has(heading)) out.set(heading, []);
      out.get(heading)!.push(cells(line));
    }
  }
  for (const rows of out.values()) rows.splice(0, 2); // header, rule
  return out;
}

/** What a kernel of the scene (v6.12, lru-batch, lru-splice) runs, or null when the inventory has no run of it. */
export function runsOf(kernel: string, text: string = inventoryText): KernelRuns | null {
  const s = sections(text);
  const summary = (s.get('What the scene runs') ?? []).find((r) => r[0] === kernel);
  if (!summary) return null;
  const [total, upstream, patched, port, shim, other] = summary.slice(1).map(Number);
  const items: RanItem[] = [];
  for (const [file, line, item, , status, scene] of [...s.entries()].find(([h]) => h.startsWith('Extracted from'))?.[1] ?? []) {
    if (!ranOn(scene, kernel)) continue;
    const mine = status.split('; ').find((x) => x.startsWith(`${kernel}: patched by `));
    items.push({ name: unquote(item), where: `${file}:${line}`, whose: mine ? 'patched' : 'upstream', note: mine ? mine.slice(kernel.length + 2) : '' });
  }
  for (const [file, line, item, , branch, commits, scene] of s.get('Added by the port (not upstream code)') ?? [])
    if (ranOn(scene, kernel)) items.push({ name: unquote(item), where: `${file}:${line} (${branch})`, whose: 'port', note: commits });
  let shimFile = '';
  for (const [file, what, item, , scene] of s.get("The project's code around it (shim)") ?? []) {
    if (file) shimFile = `${file} (${what.replace(/, \d+ lines$/, '')})`;
    else if (ranOn(scene, kernel)) items.push({ name: unquote(item), where: shimFile, whose: 'shim', note: '' });
  }
  return { counts: { upstream, patched, port, shim, other }, total, items };
}
