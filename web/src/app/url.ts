// SPDX-License-Identifier: GPL-2.0-only
// The permalink: scene, seed and step live in the URL, so opening it again
// reproduces the same state.
import { isScheduleText } from '../engine/decisions';

export const POLICIES = ['timed', 'rr', 'random'] as const;
export type PolicyName = (typeof POLICIES)[number];

export interface UrlState {
  scene: string | null;
  variant: string | null; // null: the scene's default kernel
  compare: string | null; // a second kernel run beside the first, in lock-step
  seed: number;
  step: number;
  policy: PolicyName;
  sched: string; // choices made by hand, followed before the policy
  prog: string; // the scenario's program, for scenes that take one ('' : its default)
  lesson: string | null; // the lesson shown beside the scene
  talk: string | null; // talk mode: 'presenter', or any other value for the audience
  embed?: boolean; // the scene alone, for an iframe
}

const MAX_SEED = 2 ** 32 - 1;

export function parseUrl(search: string): UrlState & { errors: string[] } {
  const q = new URLSearchParams(search);
  const errors: string[] = [];
  const num = (key: string, dflt: number, max: number) => {
    const raw = q.get(key);
    if (raw === null || raw === '') return dflt;
    const v = Number(raw);
    if (!Number.isInteger(v) || v < 0 || v > max) {
      errors.push(`Ignored ${key}=${raw}: expected a whole number from 0 to ${max}.`);
      return dflt;
    }
    return v;
  };
  let policy: PolicyName = 'timed';
  const p = q.get('policy');
  if (p !== null) {
    if ((POLICIES as readonly string[]).includes(p)) policy = p as PolicyName;
    else errors.push(`Ignored policy=${p}: expected one of ${POLICIES.join(', ')}.`);
  }
  let sched = q.get('sched') ?? '';
  if (sched && !isScheduleText(sched)) {
    errors.push(`Ignored sched=${sched}: a schedule is runs like 0x12.1.0x3.`);
    sched = '';
  }
  return {
    scene: q.get('scene'),
    variant: q.get('variant'),
    compare: q.get('compare'),
    seed: num('seed', 1, MAX_SEED),
    step: num('step', 0, 1e9),
    policy,
    sched,
    prog: q.get('prog') ?? '',
    lesson: q.get('lesson'),
    talk: q.get('talk'),
    embed: q.get('embed') === '1',
    errors,
  };
}

export function formatUrl(s: UrlState): string {
  const q = new URLSearchParams();
  if (s.lesson) q.set('lesson', s.lesson);
  if (s.talk) q.set('talk', s.talk);
  if (s.embed) q.set('embed', '1');
  if (s.scene) q.set('scene', s.scene);
  if (s.variant) q.set('variant', s.variant);
  if (s.compare) q.set('compare', s.compare);
  q.set('seed', String(s.seed));
  if (s.policy !== 'timed') q.set('policy', s.policy);
  if (s.sched) q.set('sched', s.sched);
  if (s.prog) q.set('prog', s.prog);
  q.set('step', String(s.step));
  return `?${q.toString()}`;
}

export function isValidSeed(v: number): boolean {
  return Number.isInteger(v) && v >= 0 && v <= MAX_SEED;
}
