// SPDX-License-Identifier: GPL-2.0-only
// The memcg-bitmap scene, under the stage's time axis and CPU cards: the
// memcg tree with each memcg's shrinker_info bits as a matrix (a row per
// memcg, a column per shrinker id), the objects on each list_lru, the bit
// that flipped last and the shrinker reclaim is calling; the operations a
// person can add by hand; and what reclaim has cost so far.
import { useState } from 'react';
import type { EventLog } from '../../engine/log';
import { shows, type ProgramFormProps, type SceneViewProps } from '../types';
import { key, type BitmapState } from './model';
import { DEFAULT_PROGRAM, MAX_OPS, Op, WATCH, describe, formatProgram, parseProgram, type Step } from './program';
import './view.css';

const CELL = 34;
const NAME_W = 96;
const HEAD_H = 84;

/** Whether this kernel reads the bits in shrink_slab_memcg(). */
export const readsBits = (variant: string) => variant !== 'no-shrinker-bitmap';

function Matrix({ log, state, step, variant, withKey, withFlip }: { log: EventLog; state: BitmapState; step: number; variant: string; withKey: boolean; withFlip: boolean }) {
  const rows = state.memcgs;
  const cols = state.shrinkers.filter((c) => c.id >= 0);
  const w = NAME_W + cols.length * CELL + 70; // room for the last slanted name
  const h = HEAD_H + rows.length * CELL + 4;
  const flip = state.lastFlip;
  const count = state.lastCount;
  const fresh = (at: number | undefined) => at !== undefined && step - at < 12;
  const edges = [...new Set(Object.values(state.units).map((u) => u.first))].filter((first) => first > 0 && first < cols.length);
  // SHRINKER_UNIT_BITS is BITS_PER_LONG: a unit holds as many shrinkers as the machine's word has bits
  const unitBits = log.meta.bits;
  return (
    <div className="bitmap-scroll">
      <svg
        className="bitmap-matrix"
        width={w}
        height={h}
        role="img"
        aria-label={`shrinker_info bits: ${rows.length} memcgs by ${cols.length} shrinkers`}
        data-testid="bitmap.matrix"
      >
        {cols.map((c, x) => (
          <text key={c.obj} className="col-name" transform={`translate(${NAME_W + x * CELL + CELL / 2 + 4},${HEAD_H - 6}) rotate(-45)`}>
            {c.id}: {c.name}
          </text>
        ))}
        {edges.map((first) => (
          <g key={`unit${first}`} className="unit-edge" data-testid={`bitmap.unit.${first}`}>
            <line x1={NAME_W + first * CELL} x2={NAME_W + first * CELL} y1={HEAD_H - 4} y2={h - 2} />
            <title>{`a new shrinker_info_unit starts at bit ${first}`}</title>
          </g>
        ))}
        {rows.map((m, y) => {
          const root = y === 0;
          const ty = HEAD_H + y * CELL + CELL / 2;
          return (
            <g key={m.obj} data-testid={`bitmap.row.${m.name}`}>
              {!root && <path className="tree-edge" d={`M10,${HEAD_H + CELL / 2 + 8} V${ty} H22`} />}
              <text className={`row-name${count && count.memcg === m.obj && fresh(count.step) ? ' active' : ''}`} x={root ? 4 : 26} y={ty + 4}>
                {m.name}
              </text>
              {cols.map((c, x) => {
                const on = (state.bits[m.obj] ?? []).includes(c.id);
                const n = state.objects[key(m.obj, c.obj)] ?? 0;
                const flipped = flip && flip.memcg === m.obj && flip.bit === c.id && fresh(flip.step);
                const called = count && count.memcg === m.obj && count.shrinker === c.obj && fresh(count.step);
                const cx = NAME_W + x * CELL;
                const cy = HEAD_H + y * CELL;
                return (
                  <g
                    key={c.obj}
                    className={`cell${on ? ' on' : ''}${n > 0 ? ' full' : ''}${flipped ? ' flipped' : ''}${called ? ' called' : ''}`}
                    data-testid={`bit.${m.name}.${c.id}`}
                    data-bit={on ? 1 : 0}
                    data-objects={n}
                  >
                    <title>
                      {`${m.name}, shrinker ${c.id} (${c.name}): bit ${on ? 'set' : 'clear'}, ${n} object${n === 1 ? '' : 's'} on its list_lru`}
                    </title>
                    <rect x={cx + 3} y={cy + 3} width={CELL - 6} height={CELL - 6} rx={4} />
                    {n > 0 && (
                      <text x={cx + CELL / 2} y={cy + CELL / 2 + 4} textAnchor="middle">
                        {n}
                      </text>
                    )}
                  </g>
                );
              })}
            </g>
          );
        })}
      </svg>
      {withKey && (
        <>
          <p className="matrix-key muted">
            <span className="key-box on" /> bit set <span className="key-box full" /> objects on the list_lru (the number){' '}
            <span className="key-box flipped" /> bit just flipped <span className="key-box called" /> count_objects() just called
            {!readsBits(variant) && ' — this kernel still sets bits but shrink_slab_memcg() does not read them: it calls every shrinker for every memcg.'}
          </p>
          <p className="word-size muted" data-testid="bitmap.word-size">
            Each shrinker_info_unit holds the bits of {unitBits} shrinkers, the word size of the machine this page simulates
            ({unitBits}-bit, SHRINKER_UNIT_BITS = BITS_PER_LONG{unitBits !== 64 && '; an x86-64 kernel’s units hold 64'})
            {edges.length > 0 ? ': the lines between columns are where a new unit starts, every ' + unitBits + ' shrinkers.' : '; past that many, a line between columns marks where the next unit starts.'}
          </p>
        </>
      )}
      {withFlip && <LastFlip log={log} state={state} />}
    </div>
  );
}

/** The bit that flipped last, who flipped it and where. */
function LastFlip({ log, state }: { log: EventLog; state: BitmapState }) {
  const flip = state.lastFlip;
  if (!flip) return null;
  return (
    <p className="last-flip" data-testid="bitmap.last-flip">
      Last flip: bit {flip.bit} of {state.memcgs.find((m) => m.obj === flip.memcg)?.name ?? 'a memcg'} {flip.set ? 'set' : 'cleared'} by{' '}
      <code>{flip.func}()</code> at line {flip.line}, event {flip.step} ({log.taskName(flip.task)}).
    </p>
  );
}

/** The scene's program form (SceneDef.program.Form). */
export function Actions({ program, onProgram }: ProgramFormProps) {
  const steps: Step[] = (() => {
    try {
      return program ? parseProgram(program) : DEFAULT_PROGRAM;
    } catch {
      return DEFAULT_PROGRAM;
    }
  })();
  const [memcg, setMemcg] = useState(0);
  const [mount, setMount] = useState(0);
  const [grow, setGrow] = useState(32);
  const full = steps.length >= MAX_OPS;
  const add = (s: Step) => onProgram(formatProgram([...steps, s]));
  const nMemcgs = WATCH.containers * WATCH.memcgs;
  const memcgName = (i: number) => `/ct${Math.floor(i / WATCH.memcgs)}/${i % WATCH.memcgs}`;
  const mountName = (k: number) => `ct${Math.floor(memcg / WATCH.memcgs)}/mnt${k}`;
  return (
    <section className="panel bitmap-actions" aria-labelledby="actions-title" data-testid="bitmap.actions">
      <h3 id="actions-title">By hand</h3>
      <p className="muted">Each action is added to the program and the run is redone on the real code; the view goes to what it did.</p>
      <div className="action-row">
        <label>
          memcg{' '}
          <select value={memcg} onChange={(e) => setMemcg(Number(e.target.value))} data-testid="action.memcg">
            {Array.from({ length: nMemcgs }, (_, i) => (
              <option key={i} value={i}>
                {memcgName(i)}
              </option>
            ))}
          </select>
        </label>
        <label>
          mount{' '}
          <select value={mount} onChange={(e) => setMount(Number(e.target.value))} data-testid="action.mount">
            {Array.from({ length: WATCH.mounts }, (_, k) => (
              <option key={k} value={k}>
                {mountName(k)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="action-row">
        <button type="button" disabled={full} onClick={() => add({ op: Op.ADD, a: memcg, b: mount })} data-testid="action.add">
          Add an object
        </button>
        <button type="button" disabled={full} onClick={() => add({ op: Op.DEL, a: memcg, b: mount })} data-testid="action.del">
          Delete one
        </button>
        <button type="button" disabled={full} onClick={() => add({ op: Op.DRAIN, a: memcg, b: 0 })} data-testid="action.drain">
          Drain the memcg
        </button>
        <button type="button" disabled={full} onClick={() => add({ op: Op.RECLAIM, a: memcg, b: 0 })} data-testid="action.reclaim">
          Reclaim the memcg
        </button>
        <button type="button" disabled={full} onClick={() => add({ op: Op.PASS, a: 0, b: 0 })} data-testid="action.pass">
          Global pass
        </button>
      </div>
      <div className="action-row">
        <button type="button" disabled={full} onClick={() => add({ op: Op.RACE, a: memcg, b: mount })} data-testid="action.race">
          Race an add against the clear
        </button>
        <button type="button" disabled={full} onClick={() => add({ op: Op.EXPAND, a: memcg, b: mount })} data-testid="action.expand">
          Race an add against an expansion
        </button>
      </div>
      <div className="action-row">
        <label>
          <select value={grow} onChange={(e) => setGrow(Number(e.target.value))} data-testid="action.grow-n" aria-label="shrinkers to register">
            {[1, 8, 32, 40].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={full} onClick={() => add({ op: Op.GROW, a: grow - 1, b: 0 })} data-testid="action.grow">
          Register more shrinkers
        </button>
      </div>
      <ol className="program" aria-label="The program" data-testid="bitmap.program">
        {steps.map((s, i) => (
          <li key={i}>
            {describe(s)}{' '}
            <button
              type="button"
              className="link"
              aria-label={`remove step ${i + 1}: ${describe(s)}`}
              onClick={() => onProgram(formatProgram(steps.filter((_, j) => j !== i)) || 'p')}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => onProgram('')} disabled={!program} data-testid="action.reset">
        Back to the default program
      </button>
      {full && <p className="muted">The scenario runs at most {MAX_OPS} operations.</p>}
    </section>
  );
}

function Counts({ state, variant }: { state: BitmapState; variant: string }) {
  const pending = state.oldInfos.filter((o) => !o.freed).length;
  const freed = state.oldInfos.length - pending;
  const race = state.races.at(-1);
  return (
    <p className="bitmap-counts" data-testid="bitmap.counts">
      So far: <b data-testid="bitmap.count-calls">{state.countCalls}</b> count_objects() calls (one per do_shrink_slab());{' '}
      {state.passes.length > 0 && (
        <>
          global passes made <b data-testid="bitmap.passes">{state.passes.join(', ')}</b> of them{' '}
          {readsBits(variant) ? '(the root walks every shrinker; other memcgs only their set bits)' : '(every shrinker for every memcg)'};{' '}
        </>
      )}
      <b>{state.flips}</b> bit flips
      {state.expanded > 0 && (
        <span data-testid="bitmap.expanded">
          ; expand_shrinker_info() replaced <b>{state.expanded}</b> shrinker_infos, {pending > 0 ? `${pending} old ones waiting for a grace period, ` : ''}
          {freed} freed after one
        </span>
      )}
      {race && (
        <span className={race.lost ? 'bad' : ''} data-testid="bitmap.race">
          ; the race {race.lost ? 'LOST the bit: an object sits on the list with its bit clear, and reclaim will not call the shrinker for it' : 'kept the bit: the object is on the list and its bit is set'}
        </span>
      )}
      .
    </p>
  );
}

export function MemcgBitmapView({ log, state, step, variant, program, onProgram, parts }: SceneViewProps<BitmapState>) {
  const counts = shows(parts, 'counts') && <Counts state={state} variant={variant} />;
  return (
    <>
      <div className="bitmap-layout">
        {shows(parts, 'matrix') && <Matrix log={log} state={state} step={step} variant={variant} withKey={shows(parts, 'key')} withFlip={!parts} />}
        {onProgram && !parts && <Actions program={program ?? ''} onProgram={onProgram} />}
        {/* On a slide, the last flip and the counts beside the matrix: a slide has width to spare and no height. */}
        {parts && (
          <div className="bitmap-side">
            {shows(parts, 'matrix') && <LastFlip log={log} state={state} />}
            {counts}
          </div>
        )}
      </div>
      {!parts && counts}
    </>
  );
}
