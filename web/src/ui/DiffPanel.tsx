// SPDX-License-Identifier: GPL-2.0-only
// "What changed": the real diff between the variant's branch and the
// branches it is compared with, read from kernel-tree/linux by
// kernel-tree/diffs.py. The hunk that holds the line the scene is at is lit,
// and scrolled to inside the panel.
import { memo, useEffect, useId, useMemo, useRef, useState, type RefObject } from 'react';
import {
  comparisonsFor,
  fetchDiffs,
  hunkAt,
  lineAt,
  type Comparison,
  type Diffs,
  type DiffSite,
  type Hunk,
  type HunkSide,
  type Side,
} from './diff';
import './DiffPanel.css';

interface Props {
  variant: string;
  site: DiffSite | null;
  /** Comparison ids the scene is about, shown first when they involve the variant. */
  prefer?: string[];
}

/** Drawn again only when its kernel, its site or its comparisons change (a step within one site changes nothing here). */
export const DiffPanel = memo(function DiffPanel({ variant, site, prefer = [] }: Props) {
  const titleId = useId();
  const selectId = useId();
  const [diffs, setDiffs] = useState<Diffs | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    fetchDiffs().then(
      (d) => live && (setDiffs(d), setError(null)),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, []);

  const preferKey = prefer.join(' ');
  const comparisons = useMemo(() => {
    const all = diffs ? comparisonsFor(diffs, variant) : [];
    const rank = (id: string) => {
      const k = preferKey.split(' ').indexOf(id);
      return k < 0 ? Infinity : k;
    };
    return [...all].sort((a, b) => rank(a.id) - rank(b.id));
  }, [diffs, variant, preferKey]);
  const comparison = comparisons.find((c) => c.id === chosen) ?? comparisons[0] ?? null;

  let body;
  if (error) {
    body = (
      <p className="error" role="alert">
        Cannot show what changed: {error}
      </p>
    );
  } else if (!diffs) {
    body = <p className="loading">Reading kernel/diffs.json…</p>;
  } else if (!comparison) {
    body = <p className="muted">No comparison between branches of kernel-tree/linux involves {variant}.</p>;
  } else {
    body = (
      <>
        <div className="diff-pick">
          <label htmlFor={selectId}>Compare</label>
          <select
            id={selectId}
            data-testid="diff.select"
            value={comparison.id}
            onChange={(e) => setChosen(e.target.value)}
          >
            {comparisons.map((c) => (
              <option key={c.id} value={c.id}>
                {c.from} → {c.to}
                {hunkAt(c, site).index >= 0 ? ' (has the current line)' : ''}
              </option>
            ))}
          </select>
        </div>
        <ComparisonView comparison={comparison} site={site} />
      </>
    );
  }

  return (
    <section className="panel diff-panel" aria-labelledby={titleId} data-testid="diff.panel">
      <h2 id={titleId}>What changed</h2>
      {body}
    </section>
  );
});

function place(s: HunkSide): string {
  return s.count ? `${s.file}:${s.start}` : `not in ${s.file}`;
}

function ComparisonView({ comparison: c, site }: { comparison: Comparison; site: DiffSite | null }) {
  const scroller = useRef<HTMLDivElement>(null);
  const target = useRef<HTMLDivElement>(null);
  const { index, side } = hunkAt(c, site);
  const hunk = index >= 0 ? c.hunks[index] : null;
  const row = hunk && side && site ? lineAt(hunk, side, site.line) : -1;
  const onTree = !!site && (site.tree === c.from || site.tree === c.to);

  /** always: scroll even when the current place is in view (Show it). */
  const scrollToCurrent = (always: boolean) => {
    const box = scroller.current;
    const el = target.current;
    if (!box || !el) return;
    // Within the panel only: the page does not move.
    const seen = el.getBoundingClientRect().top - box.getBoundingClientRect().top;
    // A current place in view stays where it is (as the code pane's lit line does): scrolling this pane at a
    // step moved and repainted all of it. The first line of a hunk taller than the pane counts.
    const tail = Math.min(el.offsetHeight, box.clientHeight / 2);
    if (!always && seen >= 0 && seen + tail <= box.clientHeight) return;
    const room = box.clientHeight - el.offsetHeight;
    box.scrollTop = Math.max(0, seen + box.scrollTop - (room > 0 ? room / 3 : 0));
  };

  useEffect(() => scrollToCurrent(false), [c.id, index, row]); // eslint-disable-line react-hooks/exhaustive-deps

  let where;
  if (!site) where = 'The current event has no kernel line.';
  else if (!onTree) where = `The current line (${site.tree} ${site.file}:${site.line}) is on neither branch.`;
  else if (hunk)
    where = (
      <>
        The current line, {site.file}:{site.line} on {site.tree}, is in hunk {index + 1} of {c.hunks.length} (
        {hunk.func}).{' '}
        <button type="button" className="diff-jump" onClick={() => scrollToCurrent(true)}>
          Show it
        </button>
      </>
    );
  else where = `The current line, ${site.file}:${site.line} on ${site.tree}, is in no hunk: it did not change here.`;

  return (
    <>
      <p className="diff-title">{c.title}</p>
      <p className="diff-where" data-testid="diff.where">
        {where}
      </p>
      <div
        className="diff-body"
        ref={scroller}
        tabIndex={0}
        role="region"
        aria-label={`Hunks of ${c.from} → ${c.to}`}
      >
        {/* Where the diff comes from scrolls with its hunks: the pane's own height goes to the lines. */}
        <p className="diff-caption">
          Read from kernel-tree/linux by kernel-tree/diffs.py, the real branches {c.from} and {c.to}
          {c.kind === 'per-function' ? (
            <>
              . The shrinker code moved from mm/vmscan.c ({c.from}) to mm/shrinker.c ({c.to}), so a file diff would show
              everything removed and everything added: this compares the functions that matter one by one
              {c.unchanged.length
                ? `; ${c.unchanged.map((u) => u.func).join(', ')} moved without a change (${c.unchanged
                    .map((u) => `${u.old.file}:${u.old.start} → ${u.new.file}:${u.new.start}`)
                    .join(', ')})`
                : ''}
              .
            </>
          ) : (
            <>
              : <code>{c.command}</code>.
            </>
          )}
        </p>
        {c.hunks.length === 0 && <p className="muted">The two branches do not differ in these files.</p>}
        {c.hunks.map((h, k) => (
          <HunkView
            key={k}
            c={c}
            hunk={h}
            current={k === index}
            side={k === index ? side : null}
            row={k === index ? row : -1}
            target={k === index ? target : undefined}
          />
        ))}
      </div>
    </>
  );
}

/** "shrink_slab()", "a() → b()", "shrinker_put() (new)"; structures and file scope as they are. */
function funcLabel(f: string): string {
  if (/^(struct|union|enum) |^file scope$/.test(f)) return f;
  return f.replace(/([A-Za-z_]\w*)(?=$| →| \()/g, '$1()');
}

/** A hunk: drawn again only when the current line enters, moves in or leaves it (not for every hunk at every step of play). */
const HunkView = memo(function HunkView({
  c,
  hunk: h,
  current,
  side,
  row,
  target,
}: {
  c: Comparison;
  hunk: Hunk;
  current: boolean;
  side: Side | null;
  row: number;
  target?: RefObject<HTMLDivElement | null>;
}) {
  // Every hunk is a diff.hunk; the current one's content is also
  // diff.current (the same box), so both test ids find what they say.
  return (
    <div
      className={current ? 'diff-hunk current' : 'diff-hunk'}
      data-testid="diff.hunk"
      aria-current={current ? 'true' : undefined}
    >
      <div data-testid={current ? 'diff.current' : undefined} ref={current && row < 0 ? target : undefined}>
        <div className="diff-hunk-head">
          <span className="diff-func">{funcLabel(h.func)}</span>
          <span className="diff-at">
            <span className="diff-tree">{c.from}</span> {place(h.old)} → <span className="diff-tree">{c.to}</span>{' '}
            {place(h.new)}
          </span>
        </div>
        {chunks(h.lines.length).map(([from, to]) => (
          // Off screen the browser skips a chunk (content-visibility: auto, DiffPanel.css) and gives it the height
          // of its lines, so that the pane's scroll range and the places after it are right before it is drawn.
          <div key={from} className="diff-chunk" style={{ containIntrinsicBlockSize: `auto calc(${to - from} * 1.45em)` }}>
            {h.lines.slice(from, to).map((l, k) => {
              const i = from + k;
              return <HunkLine key={i} line={l} here={i === row} side={i === row ? side : null} target={i === row ? target : undefined} />;
            })}
          </div>
        ))}
      </div>
    </div>
  );
});

/** Lines a chunk holds: few enough that drawing one the first time is short (a hunk can be a whole new file). */
const CHUNK_LINES = 24;

/** The [from, to) line ranges of a hunk's chunks. */
function chunks(n: number): [number, number][] {
  const out: [number, number][] = [];
  for (let from = 0; from < n; from += CHUNK_LINES) out.push([from, Math.min(n, from + CHUNK_LINES)]);
  return out;
}

/** A line of a hunk: the lit line moving inside a hunk draws again the two lines it leaves and enters, not the hunk's every line. */
const HunkLine = memo(function HunkLine({
  line: [op, o, n, text],
  here,
  side,
  target,
}: {
  line: Hunk['lines'][number];
  here: boolean;
  side: Side | null;
  target?: RefObject<HTMLDivElement | null>;
}) {
  const cls = op === '-' ? 'del' : op === '+' ? 'add' : 'ctx';
  return (
    <div
      className={here ? `diff-line ${cls} here` : `diff-line ${cls}`}
      ref={here ? target : undefined}
      data-testid={here ? 'diff.line.current' : undefined}
      data-side={here ? (side ?? undefined) : undefined}
    >
      <span className="ln">{o ?? ''}</span>
      <span className="ln">{n ?? ''}</span>
      <span className="op" aria-hidden="true">
        {op}
      </span>
      {op === '-' ? (
        <del className="src">{text || ' '}</del>
      ) : op === '+' ? (
        <ins className="src">{text || ' '}</ins>
      ) : (
        <span className="src">{text || ' '}</span>
      )}
    </div>
  );
});
