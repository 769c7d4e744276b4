// SPDX-License-Identifier: GPL-2.0-only
// A checker for the parts of Chrome's trace-event format the export relies
// on (the "Trace Event Format" document, and what Perfetto's JSON importer,
// src/trace_processor/importers/json/, does with each phase):
//   - every B has its E on the same thread, in order (a stack per thread);
//   - timestamps never go back on a thread, a counter or an async slice;
//   - b/e async slices pair by (cat, id); s/f flows pair by id, with the same
//     cat and name, each bound to a slice open on its thread;
//   - counters' values are finite numbers;
//   - a thread id belongs to one process (Perfetto keys threads by tid);
//   - no displayTimeUnit (Perfetto takes it for the unit of ts).
// It returns the problems found, and what the trace holds, for tests to check.

export interface CheckedTrace {
  problems: string[];
  /** thread names by "pid:tid" */
  threads: Map<string, string>;
  processes: Map<number, string>;
  /** complete B/E slices: name, thread, start and end (µs) */
  slices: { name: string; cat: string; pid: number; tid: number; ts: number; end: number; depth: number }[];
  asyncSlices: { name: string; cat: string; id: number; ts: number; end: number }[];
  flows: { name: string; cat: string; id: number; from: { tid: number; ts: number; slice: string }; to: { tid: number; ts: number; slice: string } }[];
  /** counter series "name key" -> values in order */
  counters: Map<string, number[]>;
  instants: { name: string; cat: string; tid: number; ts: number; args: Record<string, unknown> }[];
}

interface Ev {
  ph?: unknown;
  pid?: unknown;
  tid?: unknown;
  ts?: unknown;
  name?: unknown;
  cat?: unknown;
  id?: unknown;
  bp?: unknown;
  s?: unknown;
  args?: unknown;
}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

export function checkTrace(json: unknown): CheckedTrace {
  const problems: string[] = [];
  const res: CheckedTrace = { problems, threads: new Map(), processes: new Map(), slices: [], asyncSlices: [], flows: [], counters: new Map(), instants: [] };
  const root = json as { traceEvents?: unknown };
  if (!root || !Array.isArray(root.traceEvents)) {
    problems.push('no traceEvents array');
    return res;
  }
  // The format's document calls it a display hint; Perfetto reads "ns" as the unit of every ts.
  if ('displayTimeUnit' in root) problems.push('displayTimeUnit is set: Perfetto would read it as the unit of ts');
  const stacks = new Map<string, { name: string; cat: string; ts: number }[]>();
  const lastTs = new Map<string, number>();
  const tidPid = new Map<number, number>();
  const asyncOpen = new Map<string, { name: string; cat: string; ts: number }>();
  const asyncDone = new Set<string>();
  const flowStart = new Map<number, { name: string; cat: string; tid: number; ts: number; slice: string }>();
  const flowEnd = new Map<number, { name: string; cat: string; tid: number; ts: number; slice: string }>();

  const monotone = (key: string, ts: number, k: number) => {
    const prev = lastTs.get(key);
    if (prev !== undefined && ts < prev) problems.push(`event ${k}: ts ${ts} goes back on ${key} (last ${prev})`);
    lastTs.set(key, ts);
  };

  (root.traceEvents as Ev[]).forEach((e, k) => {
    if (typeof e.ph !== 'string') return void problems.push(`event ${k}: no ph`);
    if (!Number.isInteger(e.pid)) return void problems.push(`event ${k}: pid is not an integer`);
    const pid = e.pid as number;
    const threadScoped = 'BEisf'.includes(e.ph) && e.ph.length === 1;
    if (threadScoped || (e.ph === 'M' && e.tid !== undefined)) {
      if (!Number.isInteger(e.tid)) return void problems.push(`event ${k} (${e.ph}): tid is not an integer`);
      const tid = e.tid as number;
      const owner = tidPid.get(tid);
      if (owner !== undefined && owner !== pid) problems.push(`event ${k}: tid ${tid} used in pid ${owner} and ${pid}`);
      tidPid.set(tid, pid);
    }
    if (e.ph !== 'M' && !isNum(e.ts)) return void problems.push(`event ${k} (${e.ph}): ts is not a number`);
    const ts = e.ts as number;
    const tid = e.tid as number;
    const tkey = `${pid}:${tid}`;
    const name = typeof e.name === 'string' ? e.name : '';
    const cat = typeof e.cat === 'string' ? e.cat : '';
    switch (e.ph) {
      case 'M': {
        const n = (e.args as { name?: unknown } | undefined)?.name;
        if (typeof n !== 'string' || !n) problems.push(`event ${k}: metadata without a name`);
        else if (e.name === 'process_name') res.processes.set(pid, n);
        else if (e.name === 'thread_name') res.threads.set(tkey, n);
        else problems.push(`event ${k}: unknown metadata ${String(e.name)}`);
        break;
      }
      case 'B': {
        monotone(`thread ${tkey}`, ts, k);
        if (!name) problems.push(`event ${k}: B without a name`);
        const st = stacks.get(tkey) ?? [];
        st.push({ name, cat, ts });
        stacks.set(tkey, st);
        break;
      }
      case 'E': {
        monotone(`thread ${tkey}`, ts, k);
        const st = stacks.get(tkey);
        const open = st?.pop();
        if (!open) problems.push(`event ${k}: E on thread ${tkey} with no open B`);
        else {
          if (name && name !== open.name) problems.push(`event ${k}: E named ${name} closes ${open.name}`);
          res.slices.push({ name: open.name, cat: open.cat, pid, tid, ts: open.ts, end: ts, depth: st!.length });
        }
        break;
      }
      case 'i': {
        monotone(`thread ${tkey}`, ts, k);
        if (!name) problems.push(`event ${k}: instant without a name`);
        if (e.s !== undefined && e.s !== 't' && e.s !== 'p' && e.s !== 'g') problems.push(`event ${k}: instant scope ${String(e.s)}`);
        res.instants.push({ name, cat, tid, ts, args: (e.args as Record<string, unknown>) ?? {} });
        break;
      }
      case 's':
      case 'f': {
        monotone(`thread ${tkey}`, ts, k);
        if (!Number.isInteger(e.id)) return void problems.push(`event ${k}: flow without an integer id`);
        const id = e.id as number;
        const st = stacks.get(tkey) ?? [];
        // 's' binds to the enclosing slice; so does 'f' with bp "e" (the only kind written).
        if (e.ph === 'f' && e.bp !== 'e') problems.push(`event ${k}: flow end without bp "e"`);
        if (!st.length) problems.push(`event ${k}: flow ${e.ph} ${id} has no enclosing slice on thread ${tkey}`);
        const at = { name, cat, tid, ts, slice: st.length ? st[st.length - 1].name : '' };
        const map = e.ph === 's' ? flowStart : flowEnd;
        if (map.has(id)) problems.push(`event ${k}: flow ${id} has a second ${e.ph}`);
        map.set(id, at);
        if (e.ph === 'f') {
          const s = flowStart.get(id);
          if (!s) problems.push(`event ${k}: flow ${id} ends before it starts`);
          else if (s.cat !== cat || s.name !== name) problems.push(`event ${k}: flow ${id} ends as ${cat}/${name}, began as ${s.cat}/${s.name}`);
          else if (ts < s.ts) problems.push(`event ${k}: flow ${id} ends at ${ts}, before its start at ${s.ts}`);
        }
        break;
      }
      case 'b':
      case 'e': {
        if (!Number.isInteger(e.id)) return void problems.push(`event ${k}: async event without an integer id`);
        const key = `${cat}:${e.id}`;
        monotone(`async ${key}`, ts, k);
        if (e.ph === 'b') {
          if (asyncOpen.has(key) || asyncDone.has(key)) problems.push(`event ${k}: async ${key} begins twice`);
          asyncOpen.set(key, { name, cat, ts });
        } else {
          const open = asyncOpen.get(key);
          if (!open) problems.push(`event ${k}: async ${key} ends without a begin`);
          else {
            if (open.name !== name) problems.push(`event ${k}: async ${key} ends as ${name}, began as ${open.name}`);
            res.asyncSlices.push({ name, cat, id: e.id as number, ts: open.ts, end: ts });
            asyncOpen.delete(key);
            asyncDone.add(key);
          }
        }
        break;
      }
      case 'C': {
        const args = e.args as Record<string, unknown> | undefined;
        if (!args || typeof args !== 'object' || !Object.keys(args).length) {
          problems.push(`event ${k}: counter without values`);
          break;
        }
        for (const [key, v] of Object.entries(args)) {
          if (!isNum(v)) problems.push(`event ${k}: counter ${name} ${key} is ${JSON.stringify(v)}, not a number`);
          const series = `${name} ${key}`;
          monotone(`counter ${series}`, ts, k);
          const l = res.counters.get(series) ?? [];
          l.push(v as number);
          res.counters.set(series, l);
        }
        break;
      }
      default:
        problems.push(`event ${k}: phase ${e.ph} is not one the export writes`);
    }
  });
  for (const [t, st] of stacks) if (st.length) problems.push(`thread ${t}: ${st.length} B without E (${st.map((x) => x.name).join(', ')})`);
  for (const key of asyncOpen.keys()) problems.push(`async ${key} never ends`);
  for (const [id, s] of flowStart) {
    const f = flowEnd.get(id);
    if (!f) problems.push(`flow ${id} (${s.cat}/${s.name}) never ends`);
    else res.flows.push({ name: s.name, cat: s.cat, id, from: { tid: s.tid, ts: s.ts, slice: s.slice }, to: { tid: f.tid, ts: f.ts, slice: f.slice } });
  }
  for (const [id] of flowEnd) if (!flowStart.has(id)) problems.push(`flow ${id} ends but never starts`);
  return res;
}
