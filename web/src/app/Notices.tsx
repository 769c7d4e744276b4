// SPDX-License-Identifier: GPL-2.0-only
// What the page says about the URL it was given (params.ts) and about how
// the run ended (engine/ending.ts).
import { labrunCommand } from '../engine/client';
import { ending } from '../engine/ending';
import { Policy } from '../engine/generated/events';
import type { SceneDef } from '../scenes/types';
import { noticeText, type Notice } from './params';
import { programOptions, type Run } from './useRuns';
import './Notices.css';

/** Each corrected, clamped or ignored parameter, with a link to the scene's clean state. */
export function Notices({ notices, clean }: { notices: Notice[]; clean: string }) {
  if (!notices.length) return null;
  return (
    <div className="notices" role="status" data-testid="url.notices">
      {notices.map((n) => (
        <p key={`${n.param}=${n.value}`} className="note" data-testid="url.notice" data-param={n.param}>
          {noticeText(n)}
        </p>
      ))}
      <p className="note-clean">
        <a href={clean} data-testid="url.clean">
          Start clean ({clean})
        </a>
      </p>
    </div>
  );
}

/** The native command line of a run: labrun at the run's word size, with its scenario, seed, scheduler and parameters. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function runCommand(scene: SceneDef<any>, run: Run): string {
  const opts = { variant: run.variant, bits: run.log.meta.bits, policy: Policy[run.policy], schedule: run.sched, slowNs: scene.slowNs?.(run.variant) ?? 0, ...programOptions(scene, run.prog) };
  return labrunCommand(scene.scenario, run.seed, opts);
}

/** How the run ended: done, BUG, KASAN panic, deadlock, hung task, or cut by the event limit. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function RunEnd({ scene, run, onSeek }: { scene: SceneDef<any>; run: Run; onSeek: (s: number) => void }) {
  let whole = '';
  try {
    whole = `${runCommand(scene, run)} --max-events 0 --summary`;
  } catch {
    // a program the run took always parses
  }
  const e = ending(run.log.meta, whole);
  return (
    <p className={`run-end run-end-${e.kind}`} data-testid="run.end" data-kind={e.kind}>
      <b>The run ended: {e.label}.</b> {e.detail[0].toUpperCase() + e.detail.slice(1)}
      {e.event !== null && (
        <>
          {' '}
          <button type="button" className="link" onClick={() => onSeek(e.event!)}>
            go to event {e.event}
          </button>
        </>
      )}
    </p>
  );
}
