// SPDX-License-Identifier: GPL-2.0-only
// The shrinker-churn scene, under the stage's time axis and CPU cards: what
// the running design uses to keep shrinkers alive (the rwsem, SRCU, or
// refcounts and RCU), the shrinkers, and the counts so far. Draws the
// model's state; decodes nothing itself.
import type { EventLog } from '../../engine/log';
import { shows, type SceneViewProps } from '../types';
import { taskColor } from '../../ui/colors';
import type { ChurnState, LockView, ShrinkerView, SrcuView } from './model';
import './view.css';

function Task({ log, id }: { log: EventLog; id: number }) {
  const name = log.taskName(id);
  return (
    <span className="task-chip" style={{ ['--c' as string]: taskColor(name) }}>
      {name}
    </span>
  );
}

function Tasks({ log, ids, none }: { log: EventLog; ids: number[]; none: string }) {
  if (ids.length === 0) return <span className="muted">{none}</span>;
  return (
    <>
      {ids.map((id, k) => (
        <Task key={`${id}.${k}`} log={log} id={id} />
      ))}
    </>
  );
}

function LockCard({ log, l, note }: { log: EventLog; l: LockView; note: string | false }) {
  const busy = l.writer !== null || l.readers.length > 0;
  return (
    <div className={`panel design-card lock ${busy ? 'busy' : ''}`} data-testid={`lock.${l.name}`}>
      <h3>
        {l.name} <span className="muted">({l.kind === 'rwsem' ? 'rw_semaphore' : 'mutex'})</span>
      </h3>
      <dl>
        <dt>{l.kind === 'rwsem' ? 'writer' : 'owner'}</dt>
        <dd data-testid={`lock.${l.name}.writer`}>
          {l.writer !== null ? <Task log={log} id={l.writer} /> : <span className="muted">none</span>}
          {l.writer !== null && l.handedTo.includes(l.writer) && <span className="muted">handed over, waking up</span>}
        </dd>
        {l.kind === 'rwsem' && (
          <>
            <dt>readers</dt>
            <dd data-testid={`lock.${l.name}.readers`}>
              <Tasks log={log} ids={l.readers} none="none" />
              {l.readers.some((r) => l.handedTo.includes(r)) && <span className="muted">some woken, not yet running</span>}
            </dd>
          </>
        )}
        <dt>waiting</dt>
        <dd data-testid={`lock.${l.name}.waiting`}>
          {l.waitingWriters.length + l.waitingReaders.length === 0 ? (
            <span className="muted">nobody</span>
          ) : (
            <>
              {l.waitingWriters.length > 0 && (
                <>
                  {l.kind === 'rwsem' ? 'writers ' : ''}
                  <Tasks log={log} ids={l.waitingWriters} none="" />
                </>
              )}
              {l.waitingReaders.length > 0 && (
                <>
                  {' '}readers <Tasks log={log} ids={l.waitingReaders} none="" />
                </>
              )}
            </>
          )}
        </dd>
      </dl>
      {note && <p className="muted">{note}</p>}
    </div>
  );
}

function SrcuCard({ log, s }: { log: EventLog; s: SrcuView }) {
  return (
    <div className={`panel design-card srcu ${s.gp ? 'busy' : ''}`} data-testid="srcu">
      <h3>
        {s.name} <span className="muted">(srcu_struct)</span>
      </h3>
      <div className="srcu-indices">
        {[0, 1].map((idx) => (
          <div key={idx} className={`srcu-index ${idx === s.idx ? 'current' : 'old'}`} data-testid={`srcu.idx${idx}`}>
            <span className="idx">index {idx}</span>
            <b>{s.readers[idx]}</b> reader{s.readers[idx] === 1 ? '' : 's'}
            <span className="muted">{idx === s.idx ? 'new readers count here' : s.gp && s.gp.oldIdx === idx ? 'draining' : ''}</span>
          </div>
        ))}
      </div>
      <p data-testid="srcu.gp">
        {s.gp ? (
          <>
            synchronize_srcu() by <Task log={log} id={s.gp.task} />: grace period {s.gp.gp} waits for the readers of index {s.gp.oldIdx}
            {' '}(then its latency) before unregister_shrinker() can go on
          </>
        ) : (
          <span className="muted">no SRCU grace period in progress; {s.gps} ended so far</span>
        )}
      </p>
    </div>
  );
}

function RcuCard({ state, notes }: { state: ChurnState; notes: boolean }) {
  const m = state.machine;
  return (
    <div className={`panel design-card rcu ${m.gpActive !== null ? 'busy' : ''}`} data-testid="rcu.status">
      <h3>RCU</h3>
      <p>
        {m.gpActive !== null ? <span className="gp-on">grace period {m.gpActive} in progress</span> : <span className="muted">no grace period in progress</span>}
      </p>
      <p>
        {m.callbacks.length} callback{m.callbacks.length === 1 ? '' : 's'} pending
        {m.callbacks.length > 0 && `: ${m.callbacks.map((c) => `${c.cb} (GP ${c.gp})`).join(', ')}`}
      </p>
      {notes && <p className="muted">shrink_slab() walks the list under rcu_read_lock() and pins each shrinker with shrinker_try_get(); shrinker_free() leaves the memory to call_rcu().</p>}
    </div>
  );
}

const PHASE_LABEL: Record<ShrinkerView['phase'], string> = {
  allocated: 'allocated',
  registering: 'registering',
  registered: 'registered',
  unregistering: 'unregistering',
  'waiting for readers': 'unregistering: waits on shrinker->done for shrink_slab()',
  'waiting for grace period': 'freed after a grace period',
  freed: 'freed',
};

function ShrinkerChip({ log, s }: { log: EventLog; s: ShrinkerView }) {
  return (
    <li className={`shrinker-chip phase-${s.phase.replace(/ /g, '-')}`} data-testid={`shrinker.${s.name}`}>
      <span className="shrinker-name">{s.name}</span>
      <span className="phase">{PHASE_LABEL[s.phase]}</span>
      {s.refcount !== null && (
        <span className="refcount" title="shrinker->refcount" data-testid={`shrinker.${s.name}.refcount`}>
          refcount <b>{s.refcount}</b>
        </span>
      )}
      {s.running.length > 0 && (
        <span className="running">
          run by <Tasks log={log} ids={s.running} none="" />
        </span>
      )}
    </li>
  );
}

export function designOf(variant: string): 'rwsem' | 'srcu' | 'rcu' {
  return variant === 'v6.1' ? 'rwsem' : variant === 'srcu' ? 'srcu' : 'rcu';
}

export function ChurnDesign({ log, state, variant, parts }: { log: EventLog; state: ChurnState; variant: string; parts?: ReadonlySet<string> }) {
  const notes = shows(parts, 'notes');
  const design = designOf(variant);
  const rwsem = state.locks.shrinker_rwsem;
  const mutex = state.locks.shrinker_mutex;
  const live = state.shrinkers.filter((s) => s.phase !== 'freed');
  const bail = state.lastBailout;
  return (
    <>
      {shows(parts, 'design') && (
        <div className="design" data-testid="design">
          {design === 'rwsem' &&
            (rwsem ? (
              <LockCard
                log={log}
                l={rwsem}
                note={notes && "shrink_slab() takes it with down_read_trylock() and gives up if a writer holds it or waits; it lets go between shrinkers when rwsem_is_contended(). Registering and unregistering take it for writing."}
              />
            ) : (
              <p className="muted">shrinker_rwsem has not been taken yet.</p>
            ))}
          {design === 'srcu' &&
            (state.srcu ? <SrcuCard log={log} s={state.srcu} /> : <p className="muted">shrinker_srcu has not been used yet.</p>)}
          {design !== 'rwsem' && mutex && (
            <LockCard log={log} l={mutex} note={notes && 'Writers only: registering and unregistering. shrink_slab() never takes it.'} />
          )}
          {design === 'rcu' && <RcuCard state={state} notes={notes} />}
        </div>
      )}
      {shows(parts, 'shrinkers') && (
        <ul className="shrinker-chips" aria-label="Shrinkers" data-testid="scene.shrinkers">
          {live.map((s) => (
            <ShrinkerChip key={s.obj} log={log} s={s} />
          ))}
        </ul>
      )}
      {shows(parts, 'counts') && (
        <p className="churn-counts" data-testid="churn.counts">
          So far: <b>{state.ops}</b> ramfs operations; <b>{state.registered}</b> registered, <b>{state.unregistered}</b> unregistered;{' '}
          <b>{state.shrinkCalls}</b> shrink_slab() calls, <b data-testid="churn.bailouts">{state.bailouts}</b> of which gave up
          {bail && (
            <span className={`bailout ${bail.how}`} data-testid="churn.last-bailout">
              {' '}
              (last: <Task log={log} id={bail.task} />{' '}
              {bail.how === 'trylock' ? 'failed down_read_trylock()' : 'let go: rwsem_is_contended()'} at event {bail.step})
            </span>
          )}
          .
        </p>
      )}
    </>
  );
}

export function ShrinkerChurnView({ log, state, variant, parts }: SceneViewProps<ChurnState>) {
  return <ChurnDesign log={log} state={state} variant={variant} parts={parts} />;
}
