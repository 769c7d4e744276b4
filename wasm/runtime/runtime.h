/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The runtime's internals and its host-side API (for the command-line
 * runner, the wasm bridge and the native tests). Kernel code sees only
 * sim.h.
 */
#ifndef SIM_RUNTIME_H
#define SIM_RUNTIME_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "sim.h"
#include "fiber.h"

#define SIM_MAX_CPUS 64
#define SIM_MAX_TASKS 256
#define SIM_STACK_SIZE (256 * 1024)
/*
 * In wasm, the event log and the decisions are allocated at once for a
 * run's event limit, up to this many (core.c says why).
 */
#define SIM_RESERVE_MAX (4UL << 20)

enum sim_task_state {
	SIM_TASK_RUNNABLE,
	SIM_TASK_BLOCKED,
	SIM_TASK_DONE,
};

struct sim_task;
struct sim_waiter {
	struct sim_task *task;
	struct sim_waiter *next;
};

struct sim_task {
	int id;
	int cpu;
	int name;			/* name table index */
	int is_rcuc;			/* the per-CPU RCU callback kthread */
	int started;
	enum sim_task_state state;
	void (*fn)(void *);
	void *arg;
	struct sim_fiber fiber;
	int rcu_depth;
	int rcu_blocked;		/* preempted inside a read-side section (rcu.c) */
	int spinlocks_held;
	struct sim_lock *spinning_on;	/* set while spinning */
	struct sim_waiter waiter;	/* queued on a waitq while blocked */
	sim_u64 gp_wait;		/* synchronize_rcu: grace period waited for */
	struct sim_task *rq_next;	/* this CPU's run queue */
	void *active_memcg;		/* kmem charged to it, as set_active_memcg() */
	sim_u64 wake_time;		/* when it became runnable */
	sim_u64 blocked_since;
	int hung_reported;
	int block_site;			/* where it sleeps */
	int rcu_lock_site;		/* the outermost rcu_read_lock() */
	int atomic_sleep_reported;
	sim_u64 timer;			/* sim_sleep_until(): when to wake */
	int rwsem_write;		/* waiting on an rwsem: for writing */
	int rwsem_granted;		/* a waiting reader was let in */
	int last_site;			/* the last kernel line it reported */
	int srcu_depth;			/* SRCU read-side sections held */
	int kstate;			/* set_current_state(): 0 TASK_RUNNING */
	int in_schedule;		/* asleep in schedule() */
};

struct sim_rcu_cb;

struct sim_cpu {
	int id;
	sim_u64 clock;			/* virtual ns */
	struct sim_task *curr;		/* NULL: idle (an extended quiescent state) */
	struct sim_task *rq_head, *rq_tail;	/* runnable, not current */
	struct sim_task *rcuc;
	int dead;			/* stopped by BUG() */
	struct sim_rcu_cb *cb_head, *cb_tail;
	struct sim_rcu_cb *cb_running;	/* taken off the list, being invoked */
};

enum sim_status {
	SIM_DONE = 0,		/* every task returned and RCU is idle */
	SIM_EVENT_LIMIT = 1,	/* stopped at the configured number of events */
	SIM_DEADLOCK = 2,	/* tasks sleep (or spin) and nothing can wake them */
	SIM_STUCK = 3,		/* no end within the decision limit (a livelock) */
	SIM_PANIC = 4,		/* a report stopped the machine (kasan.fault=panic) */
};

enum sim_policy {
	SIM_POLICY_TIMED,
	SIM_POLICY_RR,
	SIM_POLICY_RANDOM,
	SIM_NR_POLICIES
};
static const char *const sim_policy_names[SIM_NR_POLICIES] = { "timed", "rr", "random" };

struct sim_config {
	int nr_cpus;
	int nr_nodes;
	uint64_t seed;
	unsigned long max_events;	/* 0: no limit */
	int policy;			/* enum sim_policy */
	const unsigned char *schedule;	/* decisions to follow first: CPU ids, or alternatives */
	const unsigned char *schedule_kinds;	/* their kinds (enum sim_choice_kind); NULL: all CPU */
	size_t schedule_len;
	sim_u64 hung_task_ns;		/* 0: the default threshold */
	int kasan_panic;		/* boot with kasan.fault=panic */
	int real_gp;			/* grace periods at real length (costs.c) */
	int quiet;			/* record only CALL/RETURN, task starts and exits, labels, reports */
	unsigned long max_steps;	/* scheduler decisions before a run is called stuck; 0: 20 million */
	int no_schedule;		/* keep no decisions: a run that no one replays (16 bytes each) */
	int memory;			/* enum sim_memory_model (memmodel/memmodel.h) */
	int marked_steps;		/* every marked access is a preemption point (the litmus tests) */
	int kcsan;			/* the race detector (kcsan/kcsan.h) */
};

/*
 * One decision (choice.h): at event index "event", with CPU "from" having
 * run last (-1: none), "cpu" was chosen among the "runnable" mask; for a
 * choice point of another kind, alternative "cpu" of those in
 * "runnable", chosen by CPU "from".
 */
struct sim_decision {
	uint32_t event;
	uint8_t cpu;
	int8_t from;
	uint8_t kind;			/* enum sim_choice_kind: 0 the scheduler's */
	uint8_t pad;
	uint64_t runnable;
};
/* Read by the web page too (generated DECISION_OFFSETS): same on i386 and wasm32. */
_Static_assert(sizeof(struct sim_decision) == 16, "decision records are 16 bytes");
_Static_assert(__builtin_offsetof(struct sim_decision, runnable) == 8, "runnable at 8");
_Static_assert(__builtin_offsetof(struct sim_decision, kind) == 6, "kind at 6");

/* The given schedule and the record of decisions, at each boot (choice.c). */
void sim_choice_init(const struct sim_config *cfg);
void sim_choice_fini(void);

/*
 * The machine's static data that need not be put back for the next boot
 * (the explorer's in-process runs, wasm/explore/exec_inprocess.c): tables
 * every boot resets itself or whose rows past what a run wrote are never
 * read, and, with empty_at_boot set, the slab's sparse tables, which a
 * boot finds empty and sim_slab_forget() empties of the slots a run filled.
 */
struct sim_region {
	char *start, *end;
	int empty_at_boot;
	const char *what;
	/*
	 * What a snapshot of the machine in the middle of a run keeps of it
	 * instead (NULL: nothing; one pair per module, on its first region):
	 * save writes at most room bytes and returns how many (more than room:
	 * it did not fit), restore puts them back over the state of a boot.
	 */
	size_t (*save)(void *buf, size_t room);
	void (*restore)(const void *buf, size_t len);
};
int sim_boot_regions(struct sim_region *r, int max);	/* how many */
int sim_slab_regions(struct sim_region *r, int max);
int sim_lockdep_regions(struct sim_region *r, int max);
void sim_slab_forget(void);	/* their blocks live in the machine's heap, which is put back whole */
/*
 * For a snapshot of the machine in the middle of a run: the parts of its
 * heap that nothing reads before it writes them: the tasks' stacks below
 * what they use (below sp for the running one), the stacks kept for reuse,
 * the event log's room past its last event; the host context's stack
 * pointer while a task runs (NULL where fibers are not switched by stack
 * pointer).
 */
int sim_heap_spare(struct sim_region *r, int max, const void *sp);
void sim_log_spare(char **start, char **end);
void *sim_host_sp(void);
int sim_fiber_pooled(int i, void **stack, size_t *size);

#include "kcsan/kcsan.h"

/* Host-side API */
int sim_init(const struct sim_config *cfg);
int sim_run(void);
int sim_run_one(void);	/* one decision of sim_run()'s loop (sched.c) */
void sim_fini(void);
const struct sim_event *sim_log(size_t *n);
int sim_nr_sites(void);
const struct sim_site *sim_site_at(int id);
int sim_nr_names(void);
const char *sim_name_at(int id);
unsigned long sim_live_objects(void);
unsigned long sim_total_steps(void);
const char *sim_status_str(int status);
const char *sim_policy_name(int policy);
int sim_policy_from_name(const char *name);
const struct sim_decision *sim_decisions(size_t *n);
long sim_schedule_diverged_at(void);
int sim_policy(void);
size_t sim_log_length(void);
const char *sim_event_kind_name(int kind);

/* Shared between the runtime's files */
extern struct sim_cpu sim_cpus[SIM_MAX_CPUS];
/* After a CPU's clock, current task or dead flag is written: the scheduler keeps who may run next by them. */
void sim_cpu_changed(struct sim_cpu *c);
extern int sim_ncpus;
extern struct sim_task *sim_current;	/* NULL in the scheduler's context */
extern int sim_event_cpu;		/* CPU events are charged to */
extern int sim_boot;			/* counts sim_init() calls */

/* core.c */
void sim_core_init(uint64_t seed, unsigned long max_events, int quiet);
/* Events that happened, recorded or not (a quiet run records few). */
unsigned long long sim_events_seen(void);
void sim_core_fini(void);
int sim_stop_requested(void);
/* Stop the whole machine now, from the current task (sched.c). */
void sim_panic(void) __attribute__((noreturn));
void sim_request_stop(void);

/*
 * Wall time, kept out of the log (which must be the same on every build):
 * marks a scenario sets, in milliseconds since the run began, for meta.
 */
void sim_wall_reset(void);
int sim_wall_marks(int i, const char **name, double *ms);
/* Set by the browser bridge: a long run reports how far it is. */
extern void (*sim_progress_hook)(int done, int total);
/* The trace buffer (ftrace.c): emptied by sim_core_init(); its text and line count. */
void sim_ftrace_reset(void);
const char *sim_ftrace_text(int *lines);
extern int sim_running;
uint64_t sim_random(void);
uint64_t sim_random_sched(void);
unsigned sim_cost_of(int cost);
void sim_block(int reason, int name, const struct sim_site *site);
void sim_wake(struct sim_task *t, const struct sim_site *site);
void sim_spin_step(const struct sim_site *site);
int sim_spin_turn(struct sim_task *t);
struct sim_task *sim_task_by_id(int id);
void sim_wake_at(struct sim_task *t, sim_u64 when);
void sim_sleep_until(sim_u64 when, int reason, int name, const struct sim_site *site);
const char *sim_cost_name(int cost);
unsigned sim_cost_base(int cost);
/* Grace periods at their real length (1) or compressed for watching (0). */
void sim_costs_real_gp(int real);
int sim_costs_are_real_gp(void);
void sim_waitq_add(struct sim_waitq *wq, struct sim_task *t);
struct sim_task *sim_waitq_pop(struct sim_waitq *wq);
void sim_event_at(int kind, int cpu, sim_u64 time, const struct sim_site *site,
		  int a0, int a1, int a2, int a3);
struct sim_task *sim_task_create(int cpu, const char *name, void (*fn)(void *), void *arg,
				 int is_rcuc);

/* rcu.c */
void sim_rcu_init(void);
void sim_rcu_fini(void);
void sim_rcu_note_qs(struct sim_cpu *c);
void sim_rcu_preempted_reader(struct sim_task *t);
void sim_rcu_cpu_idle(struct sim_cpu *cpu);
int sim_rcu_pending(void);
int sim_rcu_timer_due(sim_u64 next_cpu_clock);
void sim_rcu_timer_fire(void);
void sim_rcuc_fn(void *arg);

/* reports.c */
void sim_reports_init(sim_u64 hung_task_ns);
void sim_reports_fini(void);
void sim_check_hung_tasks(sim_u64 now);
void sim_hung_task_watch(sim_u64 since);
int sim_bug_report(const char *cond, const struct sim_site *site);
int sim_report_text(int type, const struct sim_site *site, const char *title, char *text, int obj);
void sim_kasan_init(int panic);
void sim_lockdep_init(void);
void sim_lockdep_acquire(const struct sim_lock *l, const struct sim_site *site, int trylock);
void sim_lockdep_release(const struct sim_lock *l);
int sim_lockdep_holds(const struct sim_lock *l);
int sim_lock_name(const struct sim_lock *l);
void sim_lockdep_print_held(void *text, const struct sim_task *t);

/* locks.c */
void sim_locks_init(void);

/* slab.c */
struct sim_obj {
	uintptr_t start;
	size_t size;
	int id;
	int node;
	void *memcg;
	int alloc_site, alloc_task;
	int free_site, free_task;	/* for objects in the quarantine */
	int freed;			/* in the quarantine */
	int memcg_prev, memcg_next;	/* while live and charged: its memcg's other objects (ids) */
};
const struct sim_obj *sim_slab_freed_at(uintptr_t addr, size_t size);
/*
 * vsnprintf() with the kernel's pointer formats as the machine prints them
 * (ftrace.c): %p the object's id, %pS a function's name; what printk and
 * WARN print is the same natively and in wasm.
 */
void sim_kvsnprintf(char *out, size_t n, const char *fmt, va_list ap);
/* The live object addr is in: its id (0 none), start and size. */
int sim_obj_span(const void *addr, uintptr_t *start, size_t *size);

/*
 * Which 64-byte granules freed objects hold, for the check every
 * instrumented access makes (kasan.c): a bit per granule, in maps of 64 KiB
 * of address space each, a map made when an object in its 64 KiB is freed
 * (NULL: none there). Where addresses have 32 bits (wasm, whose memory the
 * wasm64 build lowers to 32 bits, and clang -m32) the maps are one flat
 * table, so that an access far from freed memory is told apart with one
 * load, in the caller, without a call; elsewhere (clang -m64) there is no
 * table and every access after the first free is looked up.
 */
extern size_t sim_slab_nfreed;			/* objects in the quarantine */
#if UINTPTR_MAX == 0xffffffffu || defined(__wasm__)
#define SIM_FREED_MAPS	(1u << 16)
extern unsigned char *sim_freed_map[SIM_FREED_MAPS];

static inline int sim_freed_granule(uintptr_t addr)
{
	const unsigned char *map;

	if ((uint64_t)addr >> 32)
		return 1;	/* past 32 bits: the lookup decides */
	map = sim_freed_map[addr >> 16];
	return map && (map[(addr >> 9) & 127] >> ((addr >> 6) & 7) & 1);
}

/* Whether an access of [addr, addr + size) may touch a freed object: as sim_slab_freed_at() reads it. */
static inline int sim_slab_may_touch_freed(uintptr_t addr, size_t size)
{
	return sim_freed_granule(addr + size - 1) || sim_freed_granule(addr);
}
#else
static inline int sim_slab_may_touch_freed(uintptr_t addr, size_t size)
{
	return sim_slab_nfreed != 0;
}
#endif
void sim_slab_init(void);
void sim_percpu_init(void);	/* percpu.c: each CPU's copy of the per-CPU section, afresh */
void sim_slab_fini(void);

#endif /* SIM_RUNTIME_H */
