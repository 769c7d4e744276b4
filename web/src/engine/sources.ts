// SPDX-License-Identifier: GPL-2.0-only
// Source files for the code pane: kernel files as they are on their branch
// of kernel-tree/linux, and the project's own files, copied by `make` into
// web/public/kernel/<tree>/<path>.
const cache = new Map<string, Promise<string[]>>();
/** The files read so far, by the same key. */
const read = new Map<string, string[]>();

export function sourceUrl(tree: string, file: string): string {
  return `${import.meta.env.BASE_URL}kernel/${tree}/${file}`;
}

export function fetchSource(tree: string, file: string): Promise<string[]> {
  const key = `${tree}:${file}`;
  let p = cache.get(key);
  if (!p) {
    p = fetch(sourceUrl(tree, file)).then(async (r) => {
      if (!r.ok) throw new Error(`${file} from ${tree} is not available (HTTP ${r.status})`);
      const lines = (await r.text()).split('\n');
      read.set(key, lines);
      return lines;
    });
    cache.set(key, p);
    p.catch(() => cache.delete(key));
  }
  return p;
}

/** A file's lines if it has been read already, else null: a pane opened on a file read ahead shows it in its first frame. */
export function sourceIfRead(tree: string, file: string): string[] | null {
  return read.get(`${tree}:${file}`) ?? null;
}
