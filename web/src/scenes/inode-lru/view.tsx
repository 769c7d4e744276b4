// SPDX-License-Identifier: GPL-2.0-only
// The inode-lru scene, under the stage's time axis and CPU cards: the
// super block's inode LRU (head, walked first, to tail) beside 6.12's file
// LRU lists and each inode's pages and shadow entries; the last thing
// fs/inode.c did to an inode, at its line;
// and the running share of kswapd's reclaim time spent in shrink_slab().
import { shows, type ProgramFormProps, type SceneViewProps } from '../types';
import { useState } from 'react';
import { nextLruEvent, slabShare, type InodeLruState, type InodeRow, type JumpWhat, type LruWhat } from './model';
import type { EventLog } from '../../engine/log';
import { LIMITS, formatSizes, parseSizes, type Sizes } from './program';
import './view.css';

const WHAT: Record<LruWhat, string> = {
  'put-on': 'put on the inode LRU',
  'already-on': 'already on the inode LRU (marked I_REFERENCED if iput)',
  'taken-off': 'taken off the inode LRU',
  rotated: 'rotated to the tail: busy with page cache',
  isolated: 'isolated for freeing: unused and empty',
  skipped: 'skipped: its i_lock was held',
  retry: 'retry',
};

const KERNEL: Record<string, string> = {
  inode: 'v6.12: inodes with page cache stay off the LRU, shadow entries included (but a lone one at index 0); the last page or shadow node to leave puts them on',
  'inode-before': 'project patch inode-lru-before: they sit on the LRU (as before 5.16) and the shrinker rotates them, where kernels before 5.16 stripped their page cache',
  'inode-rotate': 'project port of Dave Chinner’s counter-proposal: rotated with LRU_ROTATE_NODEFER, counted as work done',
};

function InodeBox({ r, hot }: { r: InodeRow; hot: boolean }) {
  const cls = ['inode-box', r.pages > 0 ? 'busy' : 'empty', r.workingset ? 'ws' : 'stream', hot ? 'hot' : ''].join(' ');
  return (
    <li className={cls} data-testid={`inode.${r.name.replace(' ', '-')}`} data-pages={r.pages} data-shadows={r.shadows}
      data-on-lru={r.onLru ? 1 : 0}
      title={`${r.name}: ${r.pages} pages and ${r.shadows} shadow entries in its page cache; rotated ${r.rotations} times`}>
      <span className="inode-name">{r.name}</span>
      <span className="inode-pages">{r.pages}p</span>
      {r.shadows > 0 && <span className="inode-shadows">{r.shadows}s</span>}
      {r.rotations > 0 && <span className="inode-rot">↻{r.rotations}</span>}
    </li>
  );
}

function InodeLru({ state, step }: { state: InodeLruState; step: number }) {
  const hot = state.last && step - state.last.step < 6 ? state.last.inode : -1;
  const rows = state.order.map((o) => state.inodes[o]).filter(Boolean);
  return (
    <section className="inode-lru-panel" aria-label="The inode LRU" data-testid="inode.lru">
      <h3>
        Inode LRU (sb→s_inode_lru): <b data-testid="inode.lru.count">{rows.length}</b> inodes,{' '}
        <span data-testid="inode.lru.busy">{rows.filter((r) => r.pages > 0).length}</span> with page cache
      </h3>
      <p className="muted">head (the shrinker walks from here) → tail</p>
      <ol className="inode-list">
        {rows.map((r) => (
          <InodeBox key={r.obj} r={r} hot={r.obj === hot} />
        ))}
      </ol>
    </section>
  );
}

function PageLru({ state }: { state: InodeLruState }) {
  const ws = Object.values(state.inodes).filter((r) => r.workingset && !r.freed);
  const off = Object.values(state.inodes).filter((r) => !r.onLru && !r.freed && r.pages > 0);
  const shadowed = Object.values(state.inodes).filter((r) => !r.onLru && !r.freed && r.pages === 0 && r.shadows > 0);
  return (
    <section className="inode-lru-panel" aria-label="The file LRU lists" data-testid="page.lru">
      <h3>
        File LRU (6.12’s mm/swap.c, vmscan.c): active <b data-testid="page.lru.active">{state.active}</b> pages, inactive{' '}
        <b data-testid="page.lru.inactive">{state.inactive.length}</b>
      </h3>
      <p className="muted">active: the workingset, never scanned by drop-behind</p>
      <ol className="inode-list">
        {ws.map((r) => (
          <li key={r.obj} className={`page-owner ws${r.onLru ? ' on-lru' : ''}`} title={`${r.name}: ${r.pages} active pages`}
            data-testid={`page.${r.name.replace(' ', '-')}`} data-on-lru={r.onLru ? 1 : 0} data-pages={r.pages}>
            {r.name}: {r.pages}p {r.onLru ? '(inode on LRU)' : '(inode off LRU)'}
          </li>
        ))}
      </ol>
      <p className="muted">inactive, oldest (reclaimed next) first: the streaming reader’s pages</p>
      <div className="page-strip" data-testid="page.lru.strip">
        {state.inactive.slice(0, 160).map((pfn) => {
          const o = state.owner[pfn] ?? 0;
          return <span key={pfn} className={`page-cell c${o % 6}`} title={`folio ${pfn}: ${state.inodes[o]?.name ?? ''}`} />;
        })}
        {state.inactive.length > 160 && <span className="muted"> +{state.inactive.length - 160}</span>}
      </div>
      <p className="muted" data-testid="page.lru.off">
        Inodes with page cache off the inode LRU: {off.map((r) => r.name).join(', ') || 'none'}
      </p>
      <p className="muted" data-testid="page.lru.shadowed">
        Emptied of pages, off the inode LRU for their shadow entries (until mm-shadow frees their node):{' '}
        {shadowed.map((r) => `${r.name} (${r.shadows})`).join(', ') || 'none'}; shadow nodes freed{' '}
        <b data-testid="page.shadow-nodes-freed">{state.shadowNodesFreed}</b>
      </p>
    </section>
  );
}

function Share({ state, variant, kernel }: { state: InodeLruState; variant: string; kernel: boolean }) {
  const share = slabShare(state);
  const last = state.last;
  return (
    <div className="inode-share" data-testid="inode.share">
      <p>
        Reclaim so far: kswapd spent <b data-testid="inode.share.value">{share.toFixed(1)}%</b> of its reclaim CPU time in shrink_slab()
        ({(state.slabNs / 1000).toFixed(1)} µs) and the rest reclaiming pages ({(state.pageNs / 1000).toFixed(1)} µs,{' '}
        {state.reclaimed} pages).
      </p>
      <div className="share-bar" role="img" aria-label={`shrink_slab ${share.toFixed(1)}%`}>
        <span className="share-slab" style={{ width: `${share}%` }} />
      </div>
      <p data-testid="inode.counts">
        Rotations of busy inodes: <b data-testid="inode.rotations">{state.rotations}</b>; inodes put on the LRU{' '}
        <b data-testid="inode.put-on">{state.putOn}</b>, taken off <b>{state.takenOff}</b>, freed <b data-testid="inode.freed">{state.freed}</b>;
        shrink_slab() reported <b data-testid="inode.slab-freed">{state.slabFreed}</b> objects freed
        {variant === 'inode-rotate' ? ' (LRU_ROTATE_NODEFER counts each rotation as one)' : ''}.
      </p>
      {last && (
        <p className="inode-last" data-testid="inode.last">
          Last: <b>{state.inodes[last.inode]?.name}</b> ({last.pages} pages) {WHAT[last.what]}: {last.status} in {last.func}() at line{' '}
          {last.line}.
        </p>
      )}
      {kernel && <p className="muted">{KERNEL[variant] ?? variant}</p>}
    </div>
  );
}

function Jumps({ log, step, onSeek }: { log: EventLog; step: number; onSeek: (s: number) => void }) {
  const jump = (what: JumpWhat, label: string) => {
    const next = nextLruEvent(log, step, what);
    return (
      <button type="button" disabled={next < 0} onClick={() => onSeek(next)} data-testid={`inode.next.${what}`}>
        {label}
      </button>
    );
  };
  return (
    <p className="inode-jumps">
      Go to the next: {jump('rotated', 'rotation of a busy inode')} {jump('put-on', 'inode put on the LRU')} {jump('isolated', 'inode isolated for freeing')}{' '}
      {jump('shadow-freed', 'shadow node freed')}
    </p>
  );
}

/** Cells for one inode's XArray entries, by kind: folios, then shadow entries (counts, not indexes). */
function Entries({ n, kind }: { n: number; kind: 'folio' | 'shadow' }) {
  const shown = Math.min(n, 24);
  return (
    <>
      {Array.from({ length: shown }, (_, k) => <span key={k} className={`xa-cell ${kind}`} />)}
      {n > shown && <span className="muted"> +{n - shown}</span>}
    </>
  );
}

/** Each live inode's page cache as its XArray holds it, and the two shrinkers that free inodes and shadow nodes. */
function XArrays({ state }: { state: InodeLruState }) {
  const live = Object.values(state.inodes).filter((r) => !r.freed && (r.pages > 0 || r.shadows > 0 || r.onLru));
  return (
    <section className="inode-lru-panel xa-panel" aria-label="Each inode's page cache" data-testid="page.xarrays">
      <h3>
        Page cache, each inode’s XArray: folios <span className="xa-cell folio" aria-hidden="true" />, shadow entries{' '}
        <span className="xa-cell shadow" aria-hidden="true" /> (workingset_eviction()’s, left by reclaim)
      </h3>
      <p className="muted" data-testid="page.shrinkers">
        Two shrinkers of mm/shrinker.c free them: the super block’s (prune_icache_sb()) freed{' '}
        <b>{state.freed}</b> inodes; mm-shadow (scan_shadow_nodes() → shadow_lru_isolate()) freed{' '}
        <b>{state.shadowNodesFreed}</b> shadow nodes, each putting its inode on the LRU if nothing else holds it off.
      </p>
      <ul className="xa-list">
        {live.map((r) => {
          const held = !r.onLru && (r.pages > 0 || r.shadows > 0);
          return (
            <li key={r.obj} className={`xa-row${r.onLru ? ' on-lru' : ''}${!r.onLru && r.pages === 0 && r.shadows > 0 ? ' shadowed' : ''}`}
              data-testid={`xa.${r.name.replace(' ', '-')}`} data-pages={r.pages} data-shadows={r.shadows}
              title={`${r.name}: ${r.pages} folios and ${r.shadows} shadow entries; ${r.onLru ? 'on' : 'off'} the inode LRU`}>
              <span className="xa-name">{r.name}</span>
              <Entries n={r.pages} kind="folio" />
              <Entries n={r.shadows} kind="shadow" />
              <span className="xa-lru">{r.onLru ? 'on LRU' : held ? 'off LRU' : ''}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The scene's program form (SceneDef.program.Form). */
export function SizesForm({ program, onProgram }: ProgramFormProps) {
  let current: Sizes;
  try {
    current = parseSizes(program);
  } catch {
    current = parseSizes('');
  }
  const [s, setS] = useState<Sizes>(current);
  const field = (key: keyof Sizes, label: string) => (
    <label>
      {label}{' '}
      <input type="number" min={LIMITS[key][0]} max={LIMITS[key][1]} value={s[key]} data-testid={`inode.size.${key}`}
        onChange={(e) => setS({ ...s, [key]: Math.max(LIMITS[key][0], Math.min(LIMITS[key][1], Number(e.target.value) || LIMITS[key][0])) })} />
    </label>
  );
  return (
    <form className="inode-sizes" onSubmit={(e) => { e.preventDefault(); onProgram(formatSizes(s)); }} data-testid="inode.sizes">
      {field('inodes', 'workingset inodes N')} {field('pages', 'active pages each P')} {field('filePages', 'pages per streaming file')}{' '}
      <button type="submit" data-testid="inode.sizes.run">Run with these</button>
    </form>
  );
}

export function InodeLruView({ log, state, step, onSeek, variant, program, onProgram, parts }: SceneViewProps<InodeLruState>) {
  return (
    <>
      {onProgram && !parts && <SizesForm key={program ?? ''} program={program ?? ''} onProgram={onProgram} />}
      {shows(parts, 'share') && <Share state={state} variant={variant} kernel={shows(parts, 'kernel')} />}
      {shows(parts, 'jumps') && <Jumps log={log} step={step} onSeek={onSeek} />}
      <div className="inode-lru-layout">
        {shows(parts, 'inodes') && <InodeLru state={state} step={step} />}
        {shows(parts, 'pages') && <PageLru state={state} />}
      </div>
      {shows(parts, 'xarrays') && <XArrays state={state} />}
    </>
  );
}
