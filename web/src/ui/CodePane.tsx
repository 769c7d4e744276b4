// SPDX-License-Identifier: GPL-2.0-only
// The code pane: the real file from its branch of kernel-tree/linux (or the
// project's own file, labelled so), with the current event's line lit.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { fetchSource } from '../engine/sources';
import type { Site } from '../engine/meta';
import { PATCHED, SERIES, TREES } from '../engine/manifest';
import './CodePane.css';

/** The padding above the first line; the line height is the body's --code-line (CodePane.css, talk.css). */
const PAD = 4;
const OVERSCAN = 40;

interface Props {
  site: Site | null;
  /** Why this line: "CPU1 mount", shown in the header. */
  context: string;
  /** Whose line (engine/codesite.ts): this event's, the last its CPU ran, or the run's entry. */
  shown?: 'event' | 'cpu' | 'entry';
}

/** Whether a branch holds upstream code only (v6.1, v6.12), from kernel-tree/manifest.json. */
export const isUpstreamTree = (tree: string) => TREES.some((t) => t.branch === tree);

/** What a branch of kernel-tree/linux holds, for a whole kernel (the series card's "Code shown"). */
export function branchProvenance(tree: string): string {
  if (isUpstreamTree(tree)) return `upstream Linux, branch ${tree}`;
  const port = SERIES.find((s) => s.code.kind === 'project-port' && s.code.branch === tree);
  if (port) return `the project port of “${port.title}” (not upstream code) over upstream ${port.code.base}, branch ${tree}`;
  const patch = PATCHED.find((b) => b.branch === tree);
  if (patch) return `upstream ${patch.base} with a project patch (${patch.title}), branch ${tree}`;
  return `branch ${tree}`;
}

export function provenance(tree: string, file: string): string {
  if (isUpstreamTree(tree)) return `upstream Linux, branch ${tree} of kernel-tree/linux`;
  const port = SERIES.find((s) => s.code.kind === 'project-port' && s.code.branch === tree);
  if (port) {
    const files = (port.code.files ?? []).map((f) => (typeof f === 'string' ? f : f.path));
    return files.includes(file)
      ? `project port of “${port.title}” (not upstream code), branch ${tree} of kernel-tree/linux`
      : `upstream Linux ${port.code.base}, unchanged by the project port on branch ${tree} of kernel-tree/linux`;
  }
  const patch = PATCHED.find((b) => b.branch === tree);
  if (patch) return `branch ${tree} of kernel-tree/linux: ${patch.base} with a project patch (${patch.title}; see What changed)`;
  if (file.startsWith('wasm/scenarios/')) return 'project code: the scenario driver (not kernel code)';
  if (file.startsWith('wasm/glue/')) return 'project code: glue standing in for the rest of the kernel';
  return 'project code';
}

export function CodePane({ site, context, shown = 'event' }: Props) {
  const [lines, setLines] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const body = useRef<HTMLDivElement>(null);
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

  // Only the lines near the view are in the DOM (files run to thousands of
  // lines, and a step may change file): a fixed line height places them, and
  // a step scrolls the pane, never the page.
  const line = site?.line ?? 0;
  const [center, setCenter] = useState(line);
  const [height, setHeight] = useState(600);
  // The line height is the style sheet's: a layout (talk mode, its zoom key) may change it.
  const [lineHeight, setLineHeight] = useState(18);
  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    const measure = () => {
      setHeight(el.clientHeight);
      setLineHeight(parseFloat(getComputedStyle(el).getPropertyValue('--code-line')) || 18);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  useLayoutEffect(() => {
    const el = body.current;
    if (!el || !lines) return;
    el.scrollTop = PAD + (line - 1) * lineHeight - el.clientHeight / 2 + lineHeight / 2;
    setCenter(line);
  }, [lines, line, lineHeight]);
  // A lit line wider than the pane: scroll sideways so that its expression (or
  // else its first word) is in view, rather than cut.
  const expr = site?.expr ?? null;
  useLayoutEffect(() => {
    const el = body.current;
    const lit = el?.querySelector<HTMLElement>('.code-line.current .src');
    const node = lit?.firstChild;
    if (!el || !lit || !node || !lines) return;
    if (lit.offsetLeft + lit.offsetWidth <= el.clientWidth) {
      el.scrollLeft = 0;
      return;
    }
    const text = node.textContent ?? '';
    const found = expr ? text.indexOf(expr) : -1;
    const at = found >= 0 ? found : Math.max(0, text.search(/\S/));
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, Math.min(text.length, at + (found >= 0 ? expr!.length : 1)));
    const box = range.getBoundingClientRect();
    const pane = el.getBoundingClientRect();
    const k = el.offsetWidth / (pane.width || 1); // layout pixels per screen pixel (a zoomed slide)
    const x = (box.left - pane.left) * k + el.scrollLeft;
    const w = box.width * k;
    // A quarter of the pane before the expression, less if that would cut its end, never past its start.
    const room = el.clientWidth;
    el.scrollLeft = Math.max(0, Math.min(x - 8, Math.max(x - room / 4, x + w - room + 16)));
  }, [lines, line, expr, lineHeight, height, center]);
  const onScroll = () => {
    const el = body.current;
    if (el) setCenter(Math.round((el.scrollTop - PAD + el.clientHeight / 2) / lineHeight) + 1);
  };
  const total = lines?.length ?? 0;
  const span = Math.ceil(height / lineHeight) + 2 * OVERSCAN;
  const first = Math.max(1, Math.min(center - Math.floor(span / 2), total - span + 1));
  const last = Math.min(total, first + span - 1);

  if (!site) {
    return (
      <section className="panel code-pane" aria-label="Source code">
        <header className="code-head">No kernel line: this run ran no kernel code.</header>
      </section>
    );
  }
  return (
    <section className={shown === 'event' ? 'panel code-pane' : 'panel code-pane not-this-event'} aria-label={`Source code of ${file}`} data-testid="code.pane" data-shown={shown}>
      <header className="code-head">
        <div className="code-file" data-testid="code.file">
          <span className={`tree-badge ${isUpstreamTree(tree) ? 'upstream' : 'project'}`}>{tree}</span>
          <span>{file}:{site.line}</span>
          <span className="code-func">{site.func}()</span>
        </div>
        <div className="code-prov">
          {provenance(tree, file)} · {context}
        </div>
      </header>
      {error && <p className="error">{error}</p>}
      <div className="code-body" data-testid="code.body" ref={body} onScroll={onScroll} tabIndex={0} aria-label="kernel source">
        <div className="code-lines" style={{ height: PAD * 2 + total * lineHeight }}>
          <div className="code-window" style={{ top: PAD + (first - 1) * lineHeight }}>
            {lines?.slice(first - 1, last).map((text, k) => {
              const n = first + k;
              const on = n === line;
              return (
                <div
                  key={n}
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
        </div>
      </div>
    </section>
  );
}
