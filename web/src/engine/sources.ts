// SPDX-License-Identifier: GPL-2.0-only
// Source files for the code pane: kernel files as they are on their branch
// of kernel-tree/linux, and the project's own files, copied by `make` into
// web/public/kernel/<tree>/<path>.
const cache = new Map<string, Promise<string[]>>();

export function sourceUrl(tree: string, file: string): string {
  return `${import.meta.env.BASE_URL}kernel/${tree}/${file}`;
}

export function fetchSource(tree: string, file: string): Promise<string[]> {
  const key = `${tree}:${file}`;
  let p = cache.get(key);
  if (!p) {
    p = fetch(sourceUrl(tree, file)).then(async (r) => {
      if (!r.ok) throw new Error(`${file} from ${tree} is not available (HTTP ${r.status})`);
      return (await r.text()).split('\n');
    });
    cache.set(key, p);
    p.catch(() => cache.delete(key));
  }
  return p;
}
