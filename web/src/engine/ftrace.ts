// SPDX-License-Identifier: GPL-2.0-only
// A parser for the text of a real kernel's reclaim trace: the vmscan
// tracepoints (include/trace/events/vmscan.h) as three tools print them.
//
//   /sys/kernel/tracing/trace  (kernel/trace/trace_output.c, trace_print_context):
//     "%16s-%-7d " comm-pid, "(%7d) " tgid if record-tgid, "[%03d] " CPU,
//     the irq-info flags ("....." in 6.x, four in older kernels) if set,
//     " %5lu.%06lu" seconds (a clock in ns) or " %12llu" (a counter), ": ",
//     then "event: " and the event's TP_printk text
//   trace-cmd report: the same line, flags only with -l; "cpus=N" and
//     "version = N" before the events
//   perf script: "comm tid [cpu] seconds: vmscan:event: " then the text
//     (perf script -F comm,pid,tid,... may print "pid/tid")
//
// Event texts, from TP_printk on v6.1 and v6.12 (the same for these events):
//   mm_shrink_slab_start  "%pS %p: nid: %d objects to shrink %ld gfp_flags %s
//                          cache items %ld delta %lld total_scan %ld priority %d"
//   mm_shrink_slab_end    "%pS %p: nid: %d unused scan count %ld new scan count %ld
//                          total_scan %ld last shrinker return val %d"
//   kswapd_wake/_sleep, direct_reclaim_begin/_end, memcg_reclaim_begin/_end,
//   lru_shrink_inactive: "key=value ..." pairs
// and the older layout of mm_shrink_slab_start (before 4.16, %pF before
// 5.0): "%pF %p: [nid: %d ]objects to shrink %ld gfp_flags %s pgs_scanned %ld
// lru_pgs %ld cache items %ld delta %lld total_scan %ld", no priority.
//
// A line that is neither a header nor an event line, or a known event
// whose text does not parse, is reported by its number (from 1) and text;
// events of other names are counted and skipped.

export const VMSCAN_EVENTS = [
  'mm_shrink_slab_start',
  'mm_shrink_slab_end',
  'mm_vmscan_kswapd_wake',
  'mm_vmscan_kswapd_sleep',
  'mm_vmscan_direct_reclaim_begin',
  'mm_vmscan_direct_reclaim_end',
  'mm_vmscan_memcg_reclaim_begin',
  'mm_vmscan_memcg_reclaim_end',
  'mm_vmscan_lru_shrink_inactive',
] as const;
export type VmscanEventName = (typeof VMSCAN_EVENTS)[number];

export type TraceTool = 'ftrace' | 'trace-cmd' | 'perf';

/** A shrinker's scan function as %pS/%pF print it: "super_cache_scan+0x0/0x1b0 [ext4]", or a bare address. */
export interface Symbol {
  text: string;
  func: string; // the function, or the address when unsymbolized
  offset: number | null;
  size: number | null;
  module: string | null;
}

export interface Common {
  line: number; // 1-based
  comm: string;
  pid: number;
  cpu: number;
  /** ns when the trace printed seconds; the raw count otherwise (see clock in the result). */
  ts: number;
}

export interface ShrinkSlabStart extends Common {
  event: 'mm_shrink_slab_start';
  layout: 'v6' | 'old';
  shrink: Symbol;
  shr: string; // the struct shrinker's address as %p prints it (hashed since 4.15)
  nid: number | null;
  nrObjectsToShrink: number; // nr_deferred taken for this pass
  gfpFlags: string;
  cacheItems: number; // freeable
  delta: number;
  totalScan: number;
  priority: number | null; // not in the old layout
  pgsScanned: number | null; // only in the old layout
  lruPgs: number | null;
}

export interface ShrinkSlabEnd extends Common {
  event: 'mm_shrink_slab_end';
  shrink: Symbol;
  shr: string;
  nid: number | null;
  unusedScan: number;
  newScan: number; // nr_deferred after this pass
  totalScan: number;
  retval: number;
}

export interface KeyValueEvent extends Common {
  event: Exclude<VmscanEventName, 'mm_shrink_slab_start' | 'mm_shrink_slab_end'>;
  /** Every key=value of the text; numbers as numbers. */
  fields: Record<string, number | string>;
}

export type VmscanEvent = ShrinkSlabStart | ShrinkSlabEnd | KeyValueEvent;

export interface Malformed {
  line: number;
  text: string;
  why: string;
}

export interface ParsedTrace {
  events: VmscanEvent[];
  malformed: Malformed[];
  /** Events of other names, by name: counted and skipped. */
  unknown: Record<string, number>;
  /** Which tools' line shapes were seen. */
  tools: TraceTool[];
  /** 'seconds': timestamps were seconds (kept in ns); 'counter': a raw clock count. */
  clock: 'seconds' | 'counter' | null;
  lines: number;
  /** "CPU:N [LOST M EVENTS]" lines: events the kernel's buffer dropped. */
  lost: number;
}

// Keys each key=value event must have (the fields the scene reads).
const REQUIRED: Record<KeyValueEvent['event'], string[]> = {
  mm_vmscan_kswapd_wake: ['nid', 'order'],
  mm_vmscan_kswapd_sleep: ['nid'],
  mm_vmscan_direct_reclaim_begin: ['order', 'gfp_flags'],
  mm_vmscan_direct_reclaim_end: ['nr_reclaimed'],
  mm_vmscan_memcg_reclaim_begin: ['order', 'gfp_flags'],
  mm_vmscan_memcg_reclaim_end: ['nr_reclaimed'],
  mm_vmscan_lru_shrink_inactive: ['nr_scanned', 'nr_reclaimed'],
};

// comm-pid [tgid] [cpu] [flags] time: event: text (ftrace, trace-cmd report)
// (the comm starts at its first non-space, or every split of the indent would be tried)
const FTRACE_LINE = /^\s*(\S.*?)-(\d+)\s+(?:\(\s*(?:\d+|-+)\)\s+)?\[(\d+)\]\s+(?:[^\s\d]\S*\s+)?(\d+(?:\.\d+)?):\s+(\w+):\s*(.*)$/;
// comm tid[/tid] [cpu] time: [subsys:]event: text (perf script)
const PERF_LINE = /^\s*(\S.*?)\s+(\d+)(?:\/(\d+))?\s+\[(\d+)\]\s+(\d+\.\d+):\s+(?:(\w+):)?(\w+):\s*(.*)$/;
const HEADER = /^\s*(#.*|cpus=\d+|version = \S+|CPU \d+ is empty|trace-cmd: .*)?\s*$/;
const LOST = /^\s*CPU:\s*(\d+) \[LOST (\d+) EVENTS\]\s*$/;

const SYM = String.raw`(\S+(?: \[[\w-]+\])?)`;
const NUM = String.raw`(-?\d+)`;
const SHRINK_START_V6 = new RegExp(
  `^${SYM} (\\S+): nid: ${NUM} objects to shrink ${NUM} gfp_flags (\\S+) cache items ${NUM} delta ${NUM} total_scan ${NUM} priority ${NUM}$`,
);
const SHRINK_START_OLD = new RegExp(
  `^${SYM} (\\S+): (?:nid: ${NUM} )?objects to shrink ${NUM} gfp_flags (\\S+) pgs_scanned ${NUM} lru_pgs ${NUM} cache items ${NUM} delta ${NUM} total_scan ${NUM}$`,
);
const SHRINK_END = new RegExp(
  `^${SYM} (\\S+): (?:nid: ${NUM} )?unused scan count ${NUM} new scan count ${NUM} total_scan ${NUM} last shrinker return val ${NUM}$`,
);
const KEY = /^\w+$/;
const INTEGER = /^-?\d+$/;

export function parseSymbol(text: string): Symbol {
  const m = /^([^\s+]+)(?:\+0x([0-9a-f]+)(?:\/0x([0-9a-f]+))?)?(?: \[([\w-]+)\])?$/.exec(text);
  if (!m) return { text, func: text, offset: null, size: null, module: null };
  return {
    text,
    func: m[1],
    offset: m[2] !== undefined ? parseInt(m[2], 16) : null,
    size: m[3] !== undefined ? parseInt(m[3], 16) : null,
    module: m[4] ?? null,
  };
}

/** "12345.678901" seconds as ns, exactly; a count without a point as it is. */
function timestamp(text: string): { ns: number; seconds: boolean } {
  const dot = text.indexOf('.');
  if (dot < 0) return { ns: Number(text), seconds: false };
  const frac = text.slice(dot + 1, dot + 10).padEnd(9, '0');
  return { ns: Number(text.slice(0, dot)) * 1e9 + Number(frac), seconds: true };
}

/**
 * The text of a known event, or why it does not parse. (Each event is one
 * object literal: V8 builds a spread of the common fields many times slower.)
 */
function parseBody(event: VmscanEventName, text: string, line: number, comm: string, pid: number, cpu: number, ts: number): VmscanEvent | string {
  const n = Number;
  if (event === 'mm_shrink_slab_start') {
    let m = SHRINK_START_V6.exec(text);
    if (m) {
      return { line, comm, pid, cpu, ts, event, layout: 'v6', shrink: parseSymbol(m[1]), shr: m[2], nid: n(m[3]), nrObjectsToShrink: n(m[4]), gfpFlags: m[5], cacheItems: n(m[6]), delta: n(m[7]), totalScan: n(m[8]), priority: n(m[9]), pgsScanned: null, lruPgs: null };
    }
    m = SHRINK_START_OLD.exec(text);
    if (m) {
      return { line, comm, pid, cpu, ts, event, layout: 'old', shrink: parseSymbol(m[1]), shr: m[2], nid: m[3] !== undefined ? n(m[3]) : null, nrObjectsToShrink: n(m[4]), gfpFlags: m[5], cacheItems: n(m[8]), delta: n(m[9]), totalScan: n(m[10]), priority: null, pgsScanned: n(m[6]), lruPgs: n(m[7]) };
    }
    return 'not the mm_shrink_slab_start text of 6.x (… total_scan N priority N) nor of the older layout (… pgs_scanned N lru_pgs N …)';
  }
  if (event === 'mm_shrink_slab_end') {
    const m = SHRINK_END.exec(text);
    if (!m) return 'not the mm_shrink_slab_end text (… unused scan count N new scan count N total_scan N last shrinker return val N)';
    return { line, comm, pid, cpu, ts, event, shrink: parseSymbol(m[1]), shr: m[2], nid: m[3] !== undefined ? n(m[3]) : null, unusedScan: n(m[4]), newScan: n(m[5]), totalScan: n(m[6]), retval: n(m[7]) };
  }
  const fields: Record<string, number | string> = {};
  for (const word of text.split(' ')) {
    if (!word) continue;
    const eq = word.indexOf('=');
    if (eq <= 0 || !KEY.test(word.slice(0, eq))) return `"${word}" is not key=value`;
    const v = word.slice(eq + 1);
    const num = Number(v);
    fields[word.slice(0, eq)] = v !== '' && Number.isInteger(num) && INTEGER.test(v) ? num : v;
  }
  const missing = REQUIRED[event].filter((k) => !(k in fields));
  if (missing.length) return `no ${missing.join(', ')}`;
  return { line, comm, pid, cpu, ts, event, fields };
}

const KNOWN = new Set<string>(VMSCAN_EVENTS);

/** Feeds lines one at a time (a worker feeds a large file in chunks), then gives the result. */
export class FtraceParser {
  private r: ParsedTrace = { events: [], malformed: [], unknown: {}, tools: [], clock: null, lines: 0, lost: 0 };
  private tool(t: TraceTool) {
    if (!this.r.tools.includes(t)) this.r.tools.push(t);
  }

  line(text: string) {
    const no = ++this.r.lines;
    if (text.endsWith('\r')) text = text.slice(0, -1);
    const lost = LOST.exec(text);
    if (lost) {
      this.r.lost += Number(lost[2]);
      return;
    }
    if (HEADER.test(text)) {
      if (/^# tracer:/.test(text)) this.tool('ftrace');
      else if (/^(cpus=|version = )/.test(text)) this.tool('trace-cmd');
      return;
    }
    let comm: string, pid: number, cpu: number, ts: string, event: string, body: string;
    // ftrace's "comm-pid [cpu]" first; perf's "comm tid [cpu]" when that does not fit
    const f = FTRACE_LINE.exec(text);
    const p = f ? null : PERF_LINE.exec(text);
    if (f) {
      [comm, pid, cpu, ts, event, body] = [f[1], Number(f[2]), Number(f[3]), f[4], f[5], f[6]];
      if (!this.r.tools.length) this.tool('ftrace');
    } else if (p) {
      [comm, pid, cpu, ts, event, body] = [p[1], Number(p[3] ?? p[2]), Number(p[4]), p[5], p[7], p[8]];
      this.tool('perf');
    } else {
      this.r.malformed.push({ line: no, text, why: 'not a trace line (comm-pid [cpu] time: event: …)' });
      return;
    }
    if (!KNOWN.has(event)) {
      this.r.unknown[event] = (this.r.unknown[event] ?? 0) + 1;
      return;
    }
    const t = timestamp(ts);
    const clock = t.seconds ? 'seconds' : 'counter';
    if (this.r.clock && this.r.clock !== clock) {
      this.r.malformed.push({ line: no, text, why: `a ${clock} timestamp in a trace of ${this.r.clock}` });
      return;
    }
    this.r.clock = clock;
    const ev = parseBody(event as VmscanEventName, body.trimEnd(), no, comm, pid, cpu, t.ns);
    if (typeof ev === 'string') this.r.malformed.push({ line: no, text, why: ev });
    else this.r.events.push(ev);
  }

  result(): ParsedTrace {
    return this.r;
  }
}

/** Parses a whole trace text. */
export function parseFtrace(text: string): ParsedTrace {
  const p = new FtraceParser();
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  for (const l of lines) p.line(l);
  return p.result();
}
