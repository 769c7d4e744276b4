// SPDX-License-Identifier: GPL-2.0-only
// One card per CPU: the task it runs, whether it runs, spins or is idle,
// the kernel function it is in, and whether it is inside rcu_read_lock().
import { useState } from 'react';
import type { EventLog } from '../engine/log';
import type { MachineState } from '../engine/machine';
import { taskColor } from './colors';
import './CpuCards.css';

export function CpuCards({ log, machine, cpu }: { log: EventLog; machine: MachineState; cpu: number }) {
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
          </div>
        );
      })}
    </div>
  );
}

/** The CPU cards, folded: drawn only while open (64 cards at every step of play cost frames nobody sees). */
export function CpuCardsFolded({ log, machine, cpu }: { log: EventLog; machine: MachineState; cpu: number }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="cpu-cards-folded" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>CPUs ({machine.cpus.length})</summary>
      {open && <CpuCards log={log} machine={machine} cpu={cpu} />}
    </details>
  );
}
