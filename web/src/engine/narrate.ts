// SPDX-License-Identifier: GPL-2.0-only
// Each event in words, for the event panel and screen readers:
// "CPU1 mount: wait_for_completion(&shrinker->done), sleeps — mm/shrinker.c:795".
import { CompletionOp, EventKind, Label, LruItemOp, LruStatus } from './generated/events';
import type { EventLog } from './log';
import { staleRead, storeWords } from './stale';

export type Labels = Map<number, string>;

/** Names the scenario gave objects (LABEL events), by object id. */
export function collectLabels(log: EventLog): Labels {
  const labels: Labels = new Map();
  for (let i = 0; i < log.length; i++) {
    if (log.kind[i] === EventKind.LABEL && log.arg(i, 1) !== Label.LOCK) labels.set(log.arg(i, 0), log.name(log.arg(i, 2)));
  }
  return labels;
}

const REFCOUNT_OPS = ['', 'refcount_set', 'refcount_inc_not_zero', 'refcount_dec_and_test', 'refcount_inc', 'refcount_dec'];
const ATOMIC_OPS = ['', 'xchg', 'add_return', 'add', 'cmpxchg', 'inc', 'dec', 'or', 'and', 'xor', 'andnot'];
const BIT_OPS = ['', 'set_bit', 'clear_bit', 'test_and_set_bit', 'test_and_clear_bit'];
const BARRIERS = ['', 'smp_mb()', 'smp_rmb()', 'smp_wmb()', 'smp_mb__before_atomic()', 'smp_mb__after_atomic()', 'smp_store_release()', 'smp_load_acquire()'];
const LIST_OPS = ['', 'list_add_rcu', 'list_add_tail_rcu', 'list_del_rcu'];
const BLOCK_REASONS = ['', 'a mutex', 'a completion', 'a grace period', 'work'];

/** An lruvec's list by its id in LRU_ADD/LRU_DEL (runtime/events.def: lruvec index * NR_LRU_LISTS + enum lru_list). */
export const LRU_LISTS = ['inactive_anon', 'active_anon', 'inactive_file', 'active_file', 'unevictable'];
/** An LRU_ADD/LRU_DEL list id's enum lru_list, by name. */
export const lruListOf = (id: number) => LRU_LISTS[id % LRU_LISTS.length];
export const lruListName = (id: number) => `lruvec ${Math.floor(id / LRU_LISTS.length)}'s ${LRU_LISTS[id % LRU_LISTS.length]} list`;
/** The batch tag * 2 + sentinel bit of a folio, or -1 in a kernel without LRU batches. */
const lruBatchText = (bits: number) => (bits < 0 ? '' : `, batch ${bits >> 1}${bits & 1 ? ', a sentinel' : ''}`);

export function objName(labels: Labels, obj: number): string {
  if (obj <= 0) return 'static data';
  const l = labels.get(obj);
  return l ? `${l} (#${obj})` : `object #${obj}`;
}

export function describe(log: EventLog, i: number, labels: Labels): string {
  const a = (n: number) => log.arg(i, n);
  const site = log.siteOf(i);
  const expr = site?.expr ?? '';
  const o = (n: number) => objName(labels, a(n));
  switch (log.kind[i] as EventKind) {
    case EventKind.TASK_START: return `${log.name(a(1))} starts`;
    case EventKind.TASK_EXIT: return `${log.taskName(a(0))} returns`;
    case EventKind.TASK_BLOCK: return `${log.taskName(a(0))} sleeps on ${BLOCK_REASONS[a(1)] ?? 'something'} (${log.name(a(2))})`;
    case EventKind.TASK_WAKE: return `wakes ${log.taskName(a(0))}`;
    case EventKind.CPU_SWITCH: return `switches from ${log.taskName(a(0))} to ${log.taskName(a(1))}`;
    case EventKind.LOCK_INIT: return `initialises ${a(3) === 2 ? 'mutex' : 'spinlock'} ${log.name(a(1))}`;
    case EventKind.LOCK_ACQUIRE: return `takes ${log.name(a(1))}`;
    case EventKind.LOCK_CONTEND: return a(3) === 2
      ? `finds ${log.name(a(1))} held by CPU${a(2)}: sleeps`
      : `finds ${log.name(a(1))} held by CPU${a(2)}: spins`;
    case EventKind.LOCK_RELEASE: return `releases ${log.name(a(1))}`;
    case EventKind.RCU_READ_LOCK: return a(0) === 1 ? 'rcu_read_lock(): enters a read-side critical section' : `rcu_read_lock(): nests, depth ${a(0)}`;
    case EventKind.RCU_READ_UNLOCK: return a(0) === 0 ? 'rcu_read_unlock(): leaves the read-side critical section' : `rcu_read_unlock(): depth ${a(0)}`;
    case EventKind.RCU_QS: return `passes a quiescent state for grace period ${a(0)}`;
    case EventKind.RCU_GP_START: return `grace period ${a(0)} starts, waiting for ${a(1)} CPU${a(1) === 1 ? '' : 's'}`;
    case EventKind.RCU_GP_END: return `grace period ${a(0)} ends`;
    case EventKind.CALL_RCU: return `call_rcu(): ${log.name(a(2))}(${o(0)}) after grace period ${a(1)}`;
    case EventKind.RCU_CALLBACK: return `runs RCU callback ${log.name(a(2))} for ${o(0)}`;
    case EventKind.RCU_SYNC: return `synchronize_rcu(): waits for grace period ${a(0)}`;
    case EventKind.REFCOUNT: return `${REFCOUNT_OPS[a(3)] ?? 'refcount'}(${expr}) on ${o(0)}: ${a(1)} → ${a(2)}`;
    case EventKind.COMPLETION: return a(2) === CompletionOp.WAIT ? `wait_for_completion(${expr}), done = ${a(1)}`
      : a(2) === CompletionOp.INIT ? `init_completion(${expr})`
      : `${a(2) === CompletionOp.COMPLETE_ALL ? 'complete_all' : 'complete'}(${expr}): done = ${a(1)}`;
    case EventKind.ATOMIC: return `atomic ${ATOMIC_OPS[a(3)] ?? 'op'} on ${expr || o(0)}: ${a(1)} → ${a(2)}`;
    case EventKind.BIT: return `${BIT_OPS[a(3)] ?? 'bitop'}(${a(1)}, ${expr}) in ${o(0)}`;
    case EventKind.LIST: return `${LIST_OPS[a(2)] ?? 'list op'}(${expr}): ${o(0)}`;
    case EventKind.BARRIER: return `${BARRIERS[a(0)] ?? 'a barrier'}`;
    case EventKind.RCU_ASSIGN: return `rcu_assign_pointer(${expr}, ${o(1)})`;
    case EventKind.KMALLOC: return `allocates ${o(0)}, ${a(1)} bytes`;
    case EventKind.KFREE: return `frees ${o(0)}`;
    case EventKind.SHRINK_START: return `do_shrink_slab(${o(0)}): ${a(1)} freeable, will scan ${a(2)} at priority ${a(3)}`;
    case EventKind.SHRINK_END: return `do_shrink_slab(${o(0)}) done: freed ${a(1)}`;
    case EventKind.LABEL: return a(1) === Label.LOCK ? `names lock ${a(0)} "${log.name(a(2))}"` : `names ${o(0)}`;
    case EventKind.LRU_ADD: return `links folio ${a(0)} onto ${lruListName(a(2))} ${a(1) < 0 ? 'at the head' : `after folio ${a(1)}`}${lruBatchText(a(3))}`;
    case EventKind.LRU_DEL: return `takes folio ${a(0)}${lruBatchText(a(2))} off ${lruListName(a(1))}`;
    case EventKind.LRU_ITEM: {
      const pages = `${a(3)} page${a(3) === 1 ? '' : 's'} of page cache`;
      if (a(1) === LruItemOp.ADD) return a(2) ? `list_lru_add_obj(): ${o(0)} goes on the inode LRU (${pages})` : `list_lru_add_obj(): ${o(0)} was on the inode LRU already`;
      if (a(1) === LruItemOp.DEL) return a(2) ? `list_lru_del_obj(): ${o(0)} comes off the inode LRU (${pages})` : `list_lru_del_obj(): ${o(0)} was not on the inode LRU`;
      if (a(1) === LruItemOp.MAPPING) {
        const shadows = `${a(2) >> 1} shadow entr${a(2) >> 1 === 1 ? 'y' : 'ies'}`;
        return `mapping_shrinkable() of ${o(0)}: ${a(2) & 1 ? 'true, so inode_add_lru() may put it on the inode LRU' : 'false, so it stays off the inode LRU'} (${pages}, ${shadows})`;
      }
      return `inode_lru_isolate() returns ${LruStatus[a(2)] ? `LRU_${LruStatus[a(2)]}` : a(2)} for ${o(0)} (${pages})`;
    }
    case EventKind.LRU_SENTINEL: return a(2) & 1 ? `folio ${a(0)} of batch ${a(2) >> 1} becomes a sentinel` : `folio ${a(0)} of batch ${a(2) >> 1} is no longer a sentinel`;
    case EventKind.CALL: return `calls ${log.name(a(0))}()`;
    case EventKind.RETURN: return `${log.name(a(0))}() returns`;
    case EventKind.SHRINKER_COUNT: return `count_objects on ${o(0)} for memcg ${objName(labels, a(1))}: ${a(3)}`;
    case EventKind.SHRINKER_SCAN: return `scan_objects on ${o(0)}: scanned up to ${a(2)}, freed ${a(3)}`;
    case EventKind.WARN: return `WARNING: ${log.name(a(0))}`;
    case EventKind.BUG: return `BUG: ${log.name(a(0))}`;
    case EventKind.REPORT: return `reports: ${log.name(a(1))}`;
    case EventKind.LOCK_TRYFAIL: return a(3) === 3
      ? `down_read_trylock(${log.name(a(1))}) fails: a writer holds it or waits`
      : `fails to take ${log.name(a(1))} (trylock)`;
    case EventKind.LOCK_CONTENDED: return `rwsem_is_contended(${log.name(a(1))}): someone waits, so it lets go`;
    case EventKind.SRCU_READ_LOCK: return `srcu_read_lock(${log.name(a(0))}): reader of index ${a(1)} (${a(2)} now)`;
    case EventKind.SRCU_READ_UNLOCK: return `srcu_read_unlock(${log.name(a(0))}): ${a(2)} readers of index ${a(1)} left`;
    case EventKind.SRCU_GP_START: return `synchronize_srcu(${log.name(a(0))}): flips to index ${1 - a(1)}, waits for ${a(2)} readers of index ${a(1)}`;
    case EventKind.SRCU_GP_END: return `SRCU grace period ${a(1)} of ${log.name(a(0))} ends`;
    case EventKind.PRINTK: return `printk: ${log.name(a(0))}`;
    case EventKind.MM_STALE: {
      const r = staleRead(log, i)!;
      return `reads an older value of ${expr || 'a location'} in ${o(0)}: it has not yet seen ${storeWords(log, r)}`;
    }
  }
  return log.meta.kinds[log.kind[i]]?.name ?? 'event';
}

/** The whole line a screen reader hears and the event panel shows. */
export function narrate(log: EventLog, i: number, labels: Labels): string {
  const site = log.siteOf(i);
  const task = log.task[i] >= 0 ? ` ${log.taskName(log.task[i])}` : '';
  const where = site ? ` at ${site.file}:${site.line}` : '';
  return `CPU${log.cpu[i]}${task}: ${describe(log, i, labels)}${where}`;
}
