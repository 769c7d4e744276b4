/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The memory model: what a load returns and when a store becomes visible
 * to the other CPUs. docs/memory-model.md has the definitions and sources.
 *
 * One of three per run (labrun --memory, the page's memory=):
 *   sc       every access is seen by every CPU at once, in the order the
 *            scheduler runs them. The hooks below are never called: the
 *            shim takes its sequentially consistent path, the machine as
 *            it always was.
 *   tso      x86-64 (arch/x86's barriers): each CPU's stores wait in a
 *            FIFO store buffer and reach memory in order; a CPU reads its
 *            own buffered stores; locked read-modify-writes and smp_mb()
 *            drain it; the other barriers order nothing more.
 *   relaxed  the Linux-kernel memory model as far as a machine that runs
 *            the C in program order reaches: per-location histories of
 *            stores and per-CPU views (which stores a CPU must have seen),
 *            moved by the barriers, acquire/release, fully ordered atomics,
 *            locks and grace periods.
 *
 * The contract:
 *  - Kernel code: marked accesses (READ_ONCE, WRITE_ONCE, atomics, bit
 *    operations, acquire/release, RCU publication) call sim_mm_*() when
 *    sim_mm_on() says so; everything else is untouched. Plain accesses
 *    reach the model through the KASAN callbacks (sim_mm_plain()).
 *  - The runtime: locks, completions, task start, context switches and
 *    quiescent states call the sync and fence hooks; slab.c says when
 *    memory is born and freed.
 *  - The model's choices (which store a load reads, where a store falls in
 *    its location's order, when a buffered store drains) are made by one
 *    function, mm_choose() in memmodel.c.
 *  - Memory holds each location's newest value (tso: what has left the
 *    store buffers), except for the bytes of the access being made: a
 *    plain load's callback writes what its CPU may see of them, a plain
 *    store writes memory itself; the model's next entry puts them back
 *    (settle() in memmodel.c). Code the compiler does not instrument
 *    (accesses it proves to be to a static variable) is outside.
 */
#ifndef SIM_MEMMODEL_H
#define SIM_MEMMODEL_H

enum sim_memory_model { SIM_MEMORY_SC, SIM_MEMORY_TSO, SIM_MEMORY_RELAXED, SIM_NR_MEMORY_MODELS };
/* Their names, in that order: labrun's --memory, the page's memory= (gen_events_ts writes them for it). */
#define SIM_MEMORY_NAMES { "sc", "tso", "relaxed" }

/* A marked access's ordering (linux-kernel.def's names in comments). */
enum sim_mm_order {
	SIM_MM_ONCE,		/* READ_ONCE, WRITE_ONCE, atomic_read/set, _relaxed RMWs */
	SIM_MM_ACQUIRE,		/* smp_load_acquire, _acquire RMWs */
	SIM_MM_RELEASE,		/* smp_store_release, rcu_assign_pointer, _release RMWs */
	SIM_MM_FULL,		/* value-returning RMWs: smp_mb() before and after */
	SIM_MM_NORET,		/* non-value-returning RMWs (atomic_inc, set_bit): unordered */
	SIM_MM_DEREF,		/* rcu_dereference, READ_ONCE of a pointer: orders what depends on it */
	SIM_MM_ACQ_REL,		/* a release and an acquire: refcount_dec_and_test() hitting zero */
};

/* Fences, numbered as the BARRIER event's op (asm/barrier.h). */
enum sim_mm_fence {
	SIM_MM_MB = 1, SIM_MM_RMB, SIM_MM_WMB, SIM_MM_BEFORE_ATOMIC, SIM_MM_AFTER_ATOMIC,
	SIM_MM_STORE_RELEASE, SIM_MM_LOAD_ACQUIRE, SIM_MM_AFTER_SPINLOCK,
};

#ifndef __KERNEL__
#include <stdint.h>
/* What one CPU has not yet seen of one location: a record of the page's "not yet seen" (below). */
struct sim_unseen {
	uint64_t read;		/* the bytes the CPU may still read of it: the oldest its view allows */
	uint64_t newest;	/* the bytes of the newest store to it */
	uint32_t event;		/* holds from this event on */
	uint32_t loc;		/* the location: replaces the last record of this loc and cpu */
	int32_t obj;		/* the object it is in (sim_obj_of), 0 static data */
	uint32_t name;		/* site id of the last marked access to it, whose expr names it; 0 none */
	uint32_t store_site;	/* the newest store's site (a plain store's: its CPU's last event's) */
	uint32_t store_event;	/* the log's length when the newest store was made */
	uint16_t count;		/* the other CPUs' stores to it this CPU has not seen; 0: none now */
	uint8_t cpu;
	int8_t store_cpu;	/* the newest store's CPU */
	uint8_t off, size;	/* the bytes of the doubleword that read and newest hold */
	uint8_t pad[2];
	int32_t read_obj;	/* the object read and newest point into, when they are pointers; else 0 */
	int32_t newest_obj;
};
/* Read by the web page too (generated UNSEEN_OFFSETS): the same at 32 and 64 bits. */
_Static_assert(sizeof(struct sim_unseen) == 56, "unseen records are 56 bytes");
#endif

#ifdef __KERNEL__
struct sim_site;
typedef unsigned long long sim_mm_u64;

/*
 * Whether this run has a model other than sc. Each kernel file keeps its
 * own copy, registered by a constructor and set as a run starts: a load of
 * a file's own static is not instrumented by KASAN, so the test costs the
 * sc path one compare.
 */
void sim_mm_register(int *flag);
static int sim_mm_flag __attribute__((unused));
static void __attribute__((constructor, used)) sim_mm_register_flag(void)
{
	sim_mm_register(&sim_mm_flag);
}
#define sim_mm_on()	__builtin_expect(sim_mm_flag, 0)

void sim_mm_load(const volatile void *p, void *val, int size, int order, const struct sim_site *site);
void sim_mm_store(volatile void *p, const void *val, int size, int order, const struct sim_site *site);
/*
 * A read-modify-write: begin returns the value it reads into val, end
 * writes the new one (wrote 0: a failed cmpxchg, nothing written). Nothing
 * runs between the two.
 */
void sim_mm_rmw_begin(volatile void *p, void *val, int size, int order, const struct sim_site *site);
void sim_mm_rmw_end(volatile void *p, const void *val, int size, int order, int wrote,
		    const struct sim_site *site);
void sim_mm_fence(int kind, const struct sim_site *site);
#endif /* __KERNEL__ */

#ifdef SIM_RUNTIME_H
/* ---- the runtime's side ------------------------------------------------- */
extern int sim_memory;		/* this run's model */
const char *sim_memory_name(int model);
int sim_memory_from_name(const char *name);

/* A run starts (after the CPUs exist) and ends; marked_steps: every marked access is a preemption point. */
void mm_init(int model, int ncpus, uint64_t seed, int marked_steps);
void mm_run_end(void);
void mm_fini(void);

/* A plain access by kernel code (the KASAN callbacks, before the access). */
void mm_plain(uintptr_t addr, size_t size, int write);
/* memcpy()/memmove() in kernel code: reads what this CPU sees of src, writes dst. */
void *mm_copy(void *dst, const void *src, size_t n);
/*
 * Memory the model must forget: born (kmalloc) or dead (kfree), or about
 * to be written by the runtime (a completion's count); every CPU sees it
 * as it is in memory from now on. sync: the sync words of objects in it too.
 */
void mm_forget(uintptr_t addr, size_t size, int sync);

/*
 * Synchronisation the runtime implements: obj names a lock, a completion
 * or an SRCU structure. Acquire sees what the last release published;
 * a release publishes what this CPU has seen. MM_SYNC_RMW: a
 * read-modify-write of the lock word (spin_lock, down_read, a locked
 * instruction on x86), whose history carries every earlier release along,
 * as rwsem readers need; MM_SYNC_LOCK: a lock handed over, whose holder's
 * later stores carry what came before the unlock (po-unlock-lock-po).
 */
enum { MM_SYNC_RMW = 1, MM_SYNC_LOCK = 2 };
void mm_acquire(const void *obj, int kind);
void mm_release(const void *obj, int kind);
/* spin_is_locked(): what this CPU may read of the lock word (1 held). */
int mm_lock_word(const void *obj, int held_now);
/* A full barrier on a CPU: context switches, quiescent states, grace periods. */
void mm_fence_cpu(int cpu);
/*
 * Task start: the child sees what its parent had seen when it spawned it
 * (a task that starts on an idle CPU passes no barrier of its own; one
 * that a CPU switches to, the switch's).
 */
void mm_task_spawn(int task);
void mm_task_start(int task, int cpu);

/* How many of the other CPUs' stores a CPU has not seen (kernel memory's, not the sync words'). */
int mm_unseen(int cpu);

/*
 * What each CPU has not yet seen, for the page (docs/memory-model.md, "Not
 * yet seen"): kept only when sim_mm_unseen_on is set before the run (the
 * bridge sets it for a window of events the page asks for, labrun
 * --unseen): a record each time a CPU's "not seen" of one location
 * changes, taken as the next event is logged; nothing of it enters the
 * event log. 2: also check every change against
 * mm_unseen()'s count of the whole table (slow; the native test's).
 */
extern int sim_mm_unseen_on;
/* The first event whose state is kept: the records start with a whole picture at it (0: the run's start). */
extern uint32_t sim_mm_unseen_from;


void mm_unseen_flush(uint32_t next_event);
/* The run's records, oldest first; their site ids made once the run is over. */
const struct sim_unseen *mm_unseen_records(size_t *n);
#endif /* SIM_RUNTIME_H */

#endif /* SIM_MEMMODEL_H */
