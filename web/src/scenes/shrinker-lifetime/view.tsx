// SPDX-License-Identifier: GPL-2.0-only
// The shrinker-lifetime scene, under the stage's time axis (RCU read-side
// sections and grace periods) and CPU cards: the RCU state, and each
// shrinker as an object with its refcount and where it is in its life.
// Draws the model's state; decodes nothing itself.
import { shows, type SceneViewProps } from '../types';
import { PHASES, type LifetimeState, type ShrinkerState } from './model';
import './view.css';

function ShrinkerCard({ s }: { s: ShrinkerState }) {
  const at = PHASES.indexOf(s.phase);
  return (
    <div className={`panel shrinker-card phase-${s.phase.replace(/ /g, '-')}`} data-testid={`shrinker.${s.name}`}>
      <div className="shrinker-head">
        <span className="shrinker-name">{s.name}</span>
        <span className="refcount" title="shrinker->refcount" data-testid={`shrinker.${s.name}.refcount`}>
          refcount <b>{s.refcount}</b>
        </span>
      </div>
      <ol className="phases" aria-label={`${s.name} is ${s.phase}`}>
        {PHASES.map((p, k) => (
          <li key={p} className={k < at ? 'past' : k === at ? 'now' : 'future'}>
            {p}
          </li>
        ))}
      </ol>
      <div className="shrinker-foot">
        {s.phase === 'waiting for grace period' && s.gp !== null && <span>memory freed after grace period {s.gp}</span>}
        {s.phase !== 'waiting for grace period' && s.lastCall && <span>last: {s.lastCall}</span>}
      </div>
    </div>
  );
}

export function ShrinkerLifetimeView({ state, parts }: SceneViewProps<LifetimeState>) {
  const live = state.shrinkers.filter((s) => s.phase !== 'freed');
  const freed = state.shrinkers.length - live.length;
  const pending = state.machine.callbacks;
  return (
    <>
      {shows(parts, 'rcu') && (
        <div className="rcu-status" data-testid="rcu.status">
          {state.machine.gpActive !== null ? (
            <span className="gp-on">grace period {state.machine.gpActive} in progress</span>
          ) : (
            <span>no grace period in progress</span>
          )}
          <span>
            {pending.length} RCU callback{pending.length === 1 ? '' : 's'} pending
            {pending.length > 0 && `: ${pending.map((c) => `${c.cb} (GP ${c.gp})`).join(', ')}`}
          </span>
        </div>
      )}
      {shows(parts, 'shrinkers') && (
        <div className="shrinkers" data-testid="scene.shrinkers">
          {live.map((s) => (
            <ShrinkerCard key={s.obj} s={s} />
          ))}
          {live.length === 0 && <p className="muted">No shrinker is allocated at this step.</p>}
          {freed > 0 && <p className="muted">{freed} shrinker{freed === 1 ? '' : 's'} freed so far.</p>}
        </div>
      )}
    </>
  );
}
