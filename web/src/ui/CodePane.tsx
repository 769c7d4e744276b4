// SPDX-License-Identifier: GPL-2.0-only
// The code pane: the real file from its branch of kernel-tree/linux (or the
// project's own file, labelled so), with the current event's line lit.
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { fetchSource, sourceIfRead } from '../engine/sources';
import type { Site } from '../engine/meta';
import { PATCHED, portOf, TREES } from '../engine/manifest';
import './CodePane.css';

/** The padding above the first line; the line height is the body's --code-line (CodePane.css, talk.css). */
const PAD = 4;
const OVERSCAN = 40;
/** The window of lines moves in strides of this many (less than OVERSCAN): a step within a stride changes no element but the lit line's. */
const STRIDE = OVERSCAN / 2;

interface Props {
  site: Site | null;
  /** Why this line: "CPU1 mount", shown in the header. */
  context: string;
  /** Whose line (engine/codesite.ts): this event's, the last its CPU ran, or the run's entry. */
  shown?: 'event' | 'cpu' | 'entry';
  /**
   * A slide's pane (talk mode): lines wrap at the pane's width, so that a line is never cut at its right edge, and the
   * lit line's statement is scrolled into view whole. The page's pane keeps one line a row and scrolls sideways.
   */
  wrap?: boolean;
  /**
   * At a stale load (engine/stale.ts): the newer store it missed, in words for the header, and its line (0: none),
   * lit with the load's when the machine knows it and it is in the same file.
   */
  also?: { line: number; words: string } | null;
}

/** The lines a slide's pane draws around the lit one: a screen of them either way, at the largest type. */
const WRAP_AROUND = 40;
/** A statement runs over at most this many lines past the lit one, and starts at most this many before it. */
const STATEMENT_MAX = 8;

/** Whether a line of C ends a statement (or is a line of its own: blank, a preprocessor line, a brace, a comment's end). */
function endsStatement(text: string): boolean {
  const code = text.replace(/\/\/.*$/, '').replace(/\/\*.*?\*\//g, '').trimEnd();
  if (code === '' || /^\s*#/.test(code) || /\*\/\s*$/.test(text.trimEnd())) return true;
  return /[;{}:]$/.test(code);
}

/** The lines [first, last] of the statement the lit line is part of (a call's arguments, a condition over lines). */
export function statementLines(lines: string[], line: number): [number, number] {
  let first = line;
  while (first > 1 && line - first < STATEMENT_MAX && !endsStatement(lines[first - 2] ?? '')) first--;
  let last = line;
  while (last < lines.length && last - line < STATEMENT_MAX && !endsStatement(lines[last - 1] ?? '')) last++;
  return [first, last];
}

/** Whether a branch holds upstream code only (v6.1, v6.12), from kernel-tree/manifest.json. */
export const isUpstreamTree = (tree: string) => TREES.some((t) => t.branch === tree);

/** What a branch of kernel-tree/linux holds, for a whole kernel (the series card's "Code shown"). */
export function branchProvenance(tree: string): string {
  if (isUpstreamTree(tree)) return `upstream Linux, branch ${tree}`;
  const port = portOf(tree);
  if (port)
    return `the project port of “${port.title}” (not upstream code) ${port.code.on ? `on ${port.code.on}, upstream ${port.code.base}` : `over upstream ${port.code.base}`}, branch ${tree}`;
  const patch = PATCHED.find((b) => b.branch === tree);
  if (patch) return `upstream ${patch.base} with a project patch (${patch.title}), branch ${tree}`;
  return `branch ${tree}`;
}

export function provenance(tree: string, file: string): string {
  if (isUpstreamTree(tree)) return `upstream Linux, branch ${tree} of kernel-tree/linux`;
  const port = portOf(tree);
  if (port) {
    const files = (port.code.files ?? []).map((f) => (typeof f === 'string' ? f : f.path));
    if (!files.includes(file)) return `upstream Linux ${port.code.base}, unchanged by the project port on branch ${tree} of kernel-tree/linux`;
    return port.code.on
      ? `project port of “${port.title}” on ${port.code.on} (not upstream code where the port changes it: see What changed), branch ${tree} of kernel-tree/linux`
      : `project port of “${port.title}” (not upstream code), branch ${tree} of kernel-tree/linux`;
  }
  const patch = PATCHED.find((b) => b.branch === tree);
  if (patch) return `branch ${tree} of kernel-tree/linux: ${patch.base} with a project patch (${patch.title}; see What changed)`;
  if (file.startsWith('wasm/scenarios/')) return 'project code: the scenario driver (not kernel code)';
  if (file.startsWith('wasm/glue/')) return 'project code: glue standing in for the rest of the kernel';
  return 'project code';
}

/** The pane's measures: read when it is sized or its file is read, never at a step. */
interface Box {
  height: number;
  width: number;
  lineHeight: number;
  /** A character's advance in the code's (monospace) font; 0 until measured. */
  charW: number;
  /** Where a line's text starts, from the pane's left edge. */
  srcLeft: number;
  /** The tab stop, in characters. */
  tab: number;
}

function measureBox(el: HTMLElement): Box {
  const css = getComputedStyle(el);
  const lineHeight = parseFloat(css.getPropertyValue('--code-line')) || 18;
  const src = el.querySelector<HTMLElement>('.code-line .src');
  let charW = 0;
  const c = document.createElement('canvas').getContext('2d');
  if (c) {
    c.font = `${css.fontStyle} ${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
    charW = c.measureText('0'.repeat(100)).width / 100;
  }
  // The text's start within a line (after the line number), in the pane's layout pixels.
  const srcLeft = src ? src.offsetLeft : 60;
  return { height: el.clientHeight, width: el.clientWidth, lineHeight, charW, srcLeft, tab: parseInt(css.tabSize, 10) || 8 };
}

/** The box kept: the one before when nothing in it changed, so that a measure that finds the same box renders nothing again. */
function sameBox(before: Box, now: Box): Box {
  return (Object.keys(now) as (keyof Box)[]).every((k) => before[k] === now[k]) ? before : now;
}

/** The column a character offset of a line is drawn at, tabs expanded. */
function column(text: string, at: number, tab: number): number {
  let col = 0;
  for (let i = 0; i < at && i < text.length; i++) col = text.charCodeAt(i) === 9 ? (Math.floor(col / tab) + 1) * tab : col + 1;
  return col;
}

/**
 * The pane's scrollLeft for a lit line: 0 when the line fits; else a quarter
 * of the pane before its expression (or its first word), less if that would
 * cut the expression's end, never past its start.
 */
function sideways(text: string, expr: string | null, box: Box): number {
  const { charW, srcLeft, width: room, tab } = box;
  if (!charW || box.srcLeft + column(text, text.length, tab) * charW <= room) return 0;
  const found = expr ? text.indexOf(expr) : -1;
  const at = found >= 0 ? found : Math.max(0, text.search(/\S/));
  const end = at + (found >= 0 ? expr!.length : 1);
  const x = srcLeft + column(text, at, tab) * charW;
  const w = (column(text, end, tab) - column(text, at, tab)) * charW;
  return Math.max(0, Math.min(x - 8, Math.max(x - room / 4, x + w - room + 16)));
}

/** A line of the file: a step draws again only the lines it lights or unlights. */
const CodeLine = memo(function CodeLine({ n, text, on, stmt = false, also = false }: { n: number; text: string; on: boolean; stmt?: boolean; also?: boolean }) {
  return (
    <div
      className={`code-line${on ? ' current' : ''}${stmt ? ' stmt' : ''}${also && !on ? ' also' : ''}`}
      data-testid={on ? 'code.line.current' : also ? 'code.line.also' : undefined}
      data-line={n}
    >
      <span className="ln">{n}</span>
      <span className="src">{text || ' '}</span>
    </div>
  );
});

export function CodePane({ site, context, shown = 'event', wrap = false, also = null }: Props) {
  const [error, setError] = useState<string | null>(null);
  const body = useRef<HTMLDivElement>(null);
  const tree = site?.tree ?? '';
  const file = site?.file ?? '';
  // The lines shown and the file they are; a file read already (ahead, as the run's first is in useMainRun, or
  // earlier) is shown in the render that moves to it, not one render later with the pane scrolled twice; any other
  // comes in with the fetch below (until then the last file stays).
  const fileKey = `${tree}\n${file}`;
  const [shownFile, setShownFile] = useState(() => ({ key: fileKey, lines: tree ? sourceIfRead(tree, file) : null }));
  if (shownFile.key !== fileKey && tree) {
    const now = sourceIfRead(tree, file);
    if (now) setShownFile({ key: fileKey, lines: now });
  }
  const lines = shownFile.lines;
  // The lines held are another file's while this one is on its way: none of them is lit (the line number is this
  // file's) or shown, and the pane stays where it was until the file is in.
  const stale = !!tree && shownFile.key !== fileKey;

  useEffect(() => {
    if (!tree) return;
    let live = true;
    setError(null);
    const show = (l: string[] | null) => setShownFile((f) => (f.key === fileKey && f.lines === l ? f : { key: fileKey, lines: l }));
    fetchSource(tree, file).then(
      (l) => live && show(l),
      (e: Error) => live && (show(null), setError(e.message)),
    );
    return () => {
      live = false;
    };
  }, [tree, file, fileKey]);

  // Only the lines near the view are in the DOM (files run to thousands of
  // lines, and a step may change file): a fixed line height places them, and
  // a step scrolls the pane, never the page. A step reads no layout: the
  // pane's size, its line height, its font's advance and where the text
  // starts are measured when the pane is sized or its file is read, and a
  // step's scroll is computed from them (a read of layout after the page's
  // other changes would lay the whole page out once more, at every step of play).
  const line = stale ? 0 : (site?.line ?? 0);
  const [box, setBox] = useState<Box>({ height: 600, width: 600, lineHeight: 18, charW: 0, srcLeft: 0, tab: 8 });
  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    const measure = () => setBox((b) => sameBox(b, measureBox(el)));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  // Where the text starts is a drawn line's: measured once the first file's lines are in (then when the pane is sized).
  const measured = useRef(false);
  useLayoutEffect(() => {
    const el = body.current;
    if (!el || !lines || measured.current) return;
    measured.current = true;
    setBox((b) => sameBox(b, measureBox(el)));
  }, [lines]);
  const { height, lineHeight } = box;
  const total = lines?.length ?? 0;
  // The pane's scrollTop: where it last scrolled to, or where the user scrolled it.
  const [top, setTop] = useState(0);
  // The lit line scrolls the pane only when it would leave the view (as a debugger's source view does): a
  // line moving within the view redraws the two lines it leaves and lights, where centring it at every step
  // moved the whole pane (its layout, paint and raster) at nearly every step of play. A new file, a file
  // just read, or a pane of another size centres the line.
  const key = `${tree}\n${file}\n${total}\n${lineHeight}\n${height}`;
  const [shownAt, setShownAt] = useState({ line: -1, key: '' });
  if (!stale && (shownAt.line !== line || shownAt.key !== key)) {
    setShownAt({ line, key });
    const y = PAD + (line - 1) * lineHeight;
    const seen = shownAt.key === key && y >= top + lineHeight && y + 2 * lineHeight <= top + height;
    if (!seen) setTop(Math.max(0, Math.min(PAD * 2 + total * lineHeight - height, y - height / 2 + lineHeight / 2)));
  }
  // Where the pane is scrolled, as last written or scrolled: a read of scrollTop or scrollLeft here, in the
  // middle of a step's changes, would lay the page out there and then, and a write lays it out too, so the
  // pane is written only when it must move.
  const at = useRef({ top: 0, left: 0 });
  useLayoutEffect(() => {
    const el = body.current;
    if (wrap || !el || !lines || Math.abs(at.current.top - top) < 1) return;
    el.scrollTop = top;
    at.current.top = top;
  }, [lines, top, wrap]);
  // A lit line wider than the pane: scroll sideways so that its expression (or
  // else its first word) is in view, rather than cut.
  const expr = site?.expr ?? null;
  const text = lines && line >= 1 ? (lines[line - 1] ?? '') : '';
  const scrollLeft = lines && !wrap ? sideways(text, expr, box) : 0;
  useLayoutEffect(() => {
    const el = body.current;
    if (wrap || !el || !lines || Math.abs(at.current.left - scrollLeft) < 1) return;
    el.scrollLeft = scrollLeft;
    at.current.left = scrollLeft;
  }, [lines, line, scrollLeft, wrap]);
  // A slide's pane: the lit line's statement in view, from the lines as they wrapped (a read of layout at each step;
  // a slide is not played at thousands of steps a second as the page is).
  const stmt = wrap && lines && line >= 1 ? statementLines(lines, line) : null;
  useLayoutEffect(() => {
    const el = body.current;
    if (!wrap || !el || !stmt) return;
    const a = el.querySelector<HTMLElement>(`.code-line[data-line="${stmt[0]}"]`);
    const b = el.querySelector<HTMLElement>(`.code-line[data-line="${stmt[1]}"]`);
    if (!a || !b) return;
    const top = a.offsetTop;
    const bottom = b.offsetTop + b.offsetHeight;
    // Centred; a statement taller than the pane shows its first line at the top.
    el.scrollTop = Math.max(0, bottom - top > el.clientHeight ? top - PAD : (top + bottom) / 2 - el.clientHeight / 2);
  });
  // The user's scrolling (and the echo of the pane's own): read after the browser laid the page out.
  const onScroll = () => {
    const el = body.current;
    if (!el || wrap) return;
    at.current = { top: el.scrollTop, left: el.scrollLeft };
    if (Math.abs(el.scrollTop - top) >= 1) setTop(el.scrollTop);
  };
  const prov = useMemo(() => provenance(tree, file), [tree, file]);
  const center = Math.round((top - PAD + height / 2) / lineHeight) + 1;
  const span = Math.ceil(height / lineHeight) + 2 * OVERSCAN;
  const snapped = Math.floor((center - Math.floor(span / 2) - 1) / STRIDE) * STRIDE + 1;
  const first = Math.max(1, Math.min(snapped, total - span + 1));
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
          {prov} · {context}
        </div>
        {also && (
          <div className="code-also" data-testid="code.also">
            {also.line ? `Stale read; lit too, line ${also.line}: ` : 'Stale read: '}
            {also.words}
          </div>
        )}
      </header>
      {error && <p className="error">{error}</p>}
      <div className={`code-body${wrap ? ' wrap' : ''}${stale ? ' stale' : ''}`} data-testid="code.body" ref={body} onScroll={onScroll} tabIndex={0} aria-label="kernel source" aria-busy={stale || undefined}>
        {wrap ? (
          <div className="code-lines" data-testid="code.wrapped">
            {lines?.slice(Math.max(0, line - 1 - WRAP_AROUND), Math.min(total, line + WRAP_AROUND)).map((text, k) => {
              const n = Math.max(1, line - WRAP_AROUND) + k;
              return <CodeLine key={n} n={n} text={text} on={n === line} stmt={!!stmt && n >= stmt[0] && n <= stmt[1]} also={n === also?.line} />;
            })}
          </div>
        ) : (
          <div className="code-lines" style={{ height: PAD * 2 + total * lineHeight }}>
            <div className="code-window" style={{ top: PAD + (first - 1) * lineHeight }}>
              {lines?.slice(first - 1, last).map((text, k) => {
                const n = first + k;
                return <CodeLine key={n} n={n} text={text} on={n === line} also={n === also?.line} />;
              })}
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
