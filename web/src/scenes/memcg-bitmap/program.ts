// SPDX-License-Identifier: GPL-2.0-only
// The memcg-bitmap scenario's operations (wasm/scenarios/memcg_bitmap.c
// enum op): three bytes each, op and two arguments, as the page sends
// them; and their compact form in the permalink, e.g. "a0.0,p,x1,r1".

export enum Op {
  ADD = 0, // an object charged to memcg m on mount k
  DEL = 1, // take one of memcg m's objects off mount k
  DRAIN = 2, // all of memcg m's objects off every mount
  RECLAIM = 3, // shrink_slab() for memcg m
  PASS = 4, // a global reclaim pass
  GROW = 5, // register n more shrinkers
  RACE = 6, // reclaim memcg m on CPU0 while CPU1 adds to mount k
  EXPAND = 7, // CPU0 adds to memcg m's empty list on mount k while CPU1 registers a shrinker that grows every shrinker_info
}

export interface Step {
  op: Op;
  a: number;
  b: number;
}

/** At most this many operations run (the scenario reads 64). */
export const MAX_OPS = 64;
/** The watching machine: 2 containers x 2 memcgs, 2 mounts each (memcg_bitmap.c WATCH_*). */
export const WATCH = { containers: 2, mounts: 2, memcgs: 2 };

/** The scenario's default_program, used when the URL has none. */
export const DEFAULT_PROGRAM: Step[] = [
  { op: Op.ADD, a: 0, b: 0 },
  { op: Op.ADD, a: 1, b: 1 },
  { op: Op.ADD, a: 2, b: 0 },
  { op: Op.PASS, a: 0, b: 0 },
  { op: Op.DRAIN, a: 1, b: 0 },
  { op: Op.PASS, a: 0, b: 0 },
  { op: Op.RECLAIM, a: 1, b: 0 },
  { op: Op.RACE, a: 3, b: 1 },
  { op: Op.RECLAIM, a: 3, b: 0 },
];

const LETTER: Record<Op, string> = {
  [Op.ADD]: 'a',
  [Op.DEL]: 'd',
  [Op.DRAIN]: 'x',
  [Op.RECLAIM]: 'r',
  [Op.PASS]: 'p',
  [Op.GROW]: 'g',
  [Op.RACE]: 'c',
  [Op.EXPAND]: 'e',
};
const ARGS: Record<Op, number> = { [Op.ADD]: 2, [Op.DEL]: 2, [Op.DRAIN]: 1, [Op.RECLAIM]: 1, [Op.PASS]: 0, [Op.GROW]: 1, [Op.RACE]: 2, [Op.EXPAND]: 2 };

export function toBytes(p: Step[]): number[] {
  return p.flatMap((s) => [s.op, s.a, s.b]);
}

export function formatProgram(p: Step[]): string {
  return p.map((s) => LETTER[s.op] + [s.a, s.b].slice(0, ARGS[s.op]).join('.')).join(',');
}

/** Parses the permalink form; throws with what is wrong. */
export function parseProgram(text: string): Step[] {
  if (text === '') return [];
  const steps = text.split(',').map((t) => {
    const op = (Object.keys(LETTER) as unknown as Op[]).map(Number).find((o) => LETTER[o as Op] === t[0]) as Op | undefined;
    if (op === undefined) throw new Error(`"${t}": operations are a, d, x, r, p, g, c and e`);
    const args = t.length > 1 ? t.slice(1).split('.') : [];
    if (args.length !== ARGS[op] || args.some((x) => !/^\d{1,3}$/.test(x) || Number(x) > 255)) {
      throw new Error(`"${t}": ${LETTER[op]} takes ${ARGS[op]} number${ARGS[op] === 1 ? '' : 's'} from 0 to 255`);
    }
    const [a = 0, b = 0] = args.map(Number);
    return { op, a, b };
  });
  if (steps.length > MAX_OPS) throw new Error(`at most ${MAX_OPS} operations`);
  return steps;
}

/** In words, with the scenario's memcg and mount names. */
export function describe(s: Step): string {
  const n = WATCH.containers * WATCH.memcgs;
  const memcg = (m: number) => {
    const i = m % n;
    return `/ct${Math.floor(i / WATCH.memcgs)}/${i % WATCH.memcgs}`;
  };
  const mount = (m: number, k: number) => `ct${Math.floor((m % n) / WATCH.memcgs)}/mnt${k % WATCH.mounts}`;
  switch (s.op) {
    case Op.ADD:
      return `add an object to ${memcg(s.a)} on ${mount(s.a, s.b)}`;
    case Op.DEL:
      return `delete one of ${memcg(s.a)}'s objects on ${mount(s.a, s.b)}`;
    case Op.DRAIN:
      return `drain ${memcg(s.a)}`;
    case Op.RECLAIM:
      return `shrink_slab() for ${memcg(s.a)}`;
    case Op.PASS:
      return 'a global reclaim pass';
    case Op.GROW:
      return `register ${(s.a % 40) + 1} more shrinkers`;
    case Op.RACE:
      return `race: reclaim ${memcg(s.a)} against an add on ${mount(s.a, s.b)}`;
    case Op.EXPAND:
      return `race: an add to ${memcg(s.a)} on ${mount(s.a, s.b)} against a registration that grows every shrinker_info`;
  }
}
