// SPDX-License-Identifier: GPL-2.0-only
// One card per CPU: the task it runs, whether it runs, spins or is idle,
// the kernel function it is in, and whether it is inside rcu_read_lock();
// under tso and relaxed, what it has not yet seen of the others' stores.
import { useState } from 'react';
import type { EventLog } from '../engine/log';
import type { MachineState } from '../engine/machine';
import { objName, type Labels } from '../engine/narrate';
import { unseenHeadline, unseenLocWords, type UnseenAt, type UnseenLoc } from '../engine/unseen';
import { taskColor } from './colors';
import './CpuCards.css';

/** Locations a card lists; the rest are counted ("and 4 more"), and all are in its title. */
const UNSEEN_SHOWN = 3;

/** At a stale load: its CPU, and the object and expression it read, listed first on that CPU's card. */
export interface UnseenFocus {
  cpu: number;
  obj: number;
  name: string | null;
}

function NotSeen({ cpu, unseen, cpus, labels, focus }: { cpu: number; unseen: UnseenAt; cpus: number; labels: Labels; focus?: UnseenFocus | null }) {
  if (unseen.status === 'off') return null;
  const id = `cpu.${cpu}.unseen`;
  if (unseen.status === 'working') return <div className="cpu-unseen muted" data-testid={id}>Working out what CPU{cpu} has not yet seen…</div>;
  if (unseen.status === 'failed') return <div className="cpu-unseen muted" data-testid={id}>What CPU{cpu} has not yet seen could not be worked out: {unseen.message}</div>;
  const locs: UnseenLoc[] = unseen.cpus.get(cpu) ?? [];
  if (!locs.length) return <div className="cpu-unseen muted" data-testid={id}>CPU{cpu} has seen every store of the other CPUs.</div>;
  const name = (o: number) => objName(labels, o);
  // The location this CPU's stale load read first, then the newest changes.
  const read = (l: UnseenLoc) => !!focus && focus.cpu === cpu && l.obj === focus.obj && l.name === focus.name;
  const shown = [...locs].reverse().sort((a, b) => Number(read(b)) - Number(read(a)));
  const words = shown.map((l) => (read(l) ? `the load's: ` : '') + unseenLocWords(l, name));
  const head = unseenHeadline(cpu, locs, cpus);
  return (
    <div className="cpu-unseen" data-testid={id} title={`${head}:\n${words.join('\n')}`}>
      <div className="cpu-unseen-head">{head}:</div>
      <ul>
        {words.slice(0, UNSEEN_SHOWN).map((w, i) => (
          <li key={shown[i].loc}>{w}</li>
        ))}
      </ul>
      {words.length > UNSEEN_SHOWN && <div className="muted">and {words.length - UNSEEN_SHOWN} more location{words.length - UNSEEN_SHOWN === 1 ? '' : 's'}</div>}
    </div>
  );
}

interface CardsProps {
  log: EventLog;
  machine: MachineState;
  cpu: number;
  /** Under tso and relaxed: what each CPU has not yet seen (app/useUnseen.ts); absent: not shown. */
  unseen?: UnseenAt;
  labels?: Labels;
  focus?: UnseenFocus | null;
}

export function CpuCards({ log, machine, cpu, unseen, labels, focus }: CardsProps) {
  return (
    <div className="cpu-cards">
      {machine.cpus.map((c) => {
        const site = log.meta.sites[c.site];
        const name = c.task >= 0 ? log.taskName(c.task) : 'idle';
        const sleepers = machine.tasks.filter((t) => t.cpu === c.cpu && t.status === 'sleeping' && !log.meta.tasks[t.id]?.rcuc);
        return (
          <div key={c.cpu} className={`panel cpu-card mode-${c.mode}${c.cpu === cpu ? ' active' : ''}`} data-testid={`cpu.${c.cpu}`}>
            <div className="cpu-title">
              <span className="swatch" style={{ background: c.task >= 0 ? taskColor(name) : 'transparent' }} />
              CPU{c.cpu} <b>{name}</b>
              <span className="mode">{c.mode === 'run' ? 'running' : c.mode === 'spin' ? `spinning on ${c.spinningOn}` : 'idle'}</span>
            </div>
            <div className="cpu-where">{site && site.tree ? `${site.func}() ${site.file}:${site.line}` : '—'}</div>
            <div className="cpu-flags">
              {c.rcuDepth > 0 && <span className="flag rcu">RCU read-side, depth {c.rcuDepth}</span>}
              {sleepers.map((t) => (
                <span key={t.id} className="flag sleep">
                  {t.name} sleeps on {t.sleepingOn}
                </span>
              ))}
            </div>
            {unseen && <NotSeen cpu={c.cpu} unseen={unseen} cpus={machine.cpus.length} labels={labels ?? new Map()} focus={focus} />}
          </div>
        );
      })}
    </div>
  );
}

/** The CPU cards, folded: drawn only while open (64 cards at every step of play cost frames nobody sees). */
export function CpuCardsFolded({ log, machine, cpu, unseen, labels, focus, onOpen }: CardsProps & { onOpen?: (open: boolean) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="cpu-cards-folded"
      onToggle={(e) => {
        setOpen(e.currentTarget.open);
        onOpen?.(e.currentTarget.open);
      }}
    >
      <summary>CPUs ({machine.cpus.length})</summary>
      {open && <CpuCards log={log} machine={machine} cpu={cpu} unseen={unseen} labels={labels} focus={focus} />}
    </details>
  );
}
