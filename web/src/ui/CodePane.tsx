// SPDX-License-Identifier: GPL-2.0-only
// The code pane: the real file from its branch of kernel-tree/linux (or the
// project's own file, labelled so), with the current event's line lit.
import { useEffect, useRef, useState } from 'react';
import { fetchSource } from '../engine/sources';
import type { Site } from '../engine/meta';

interface Props {
  site: Site | null;
  /** Why this line: "CPU1 mount", shown in the header. */
  context: string;
}

export function provenance(tree: string, file: string): string {
  if (tree !== 'project') return `upstream Linux, branch ${tree} of kernel-tree/linux`;
  if (file.startsWith('wasm/scenarios/')) return 'project code: the scenario driver (not kernel code)';
  if (file.startsWith('wasm/glue/')) return 'project code: glue standing in for the rest of the kernel';
  return 'project code';
}

export function CodePane({ site, context }: Props) {
  const [lines, setLines] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = useRef<HTMLDivElement>(null);
  const tree = site?.tree ?? '';
  const file = site?.file ?? '';

  useEffect(() => {
    if (!tree) return;
    let live = true;
    setError(null);
    fetchSource(tree, file).then(
      (l) => live && setLines(l),
      (e: Error) => live && (setLines(null), setError(e.message)),
    );
    return () => {
      live = false;
    };
  }, [tree, file]);

  useEffect(() => {
    current.current?.scrollIntoView({ block: 'center' });
  }, [lines, site?.line]);

  if (!site) {
    return (
      <section className="code-pane" aria-label="Source code">
        <header className="code-head">No kernel line: this event comes from the scheduler or RCU's machinery.</header>
      </section>
    );
  }
  return (
    <section className="code-pane" aria-label={`Source code of ${file}`}>
      <header className="code-head">
        <div className="code-file" data-testid="code.file">
          <span className={`tree-badge ${tree === 'project' ? 'project' : 'upstream'}`}>{tree}</span>
          <span>{file}:{site.line}</span>
          <span className="code-func">{site.func}()</span>
        </div>
        <div className="code-prov">
          {provenance(tree, file)} · {context}
        </div>
      </header>
      {error && <p className="error">{error}</p>}
      <div className="code-body" data-testid="code.body">
        {lines?.map((text, k) => {
          const n = k + 1;
          const on = n === site.line;
          return (
            <div
              key={n}
              ref={on ? current : undefined}
              className={on ? 'code-line current' : 'code-line'}
              data-testid={on ? 'code.line.current' : undefined}
              data-line={n}
            >
              <span className="ln">{n}</span>
              <span className="src">{text || ' '}</span>
            </div>
          );
        })}
      </div>
    </section>
  );
}
