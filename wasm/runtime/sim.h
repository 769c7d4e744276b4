/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulated SMP runtime, as seen from kernel code and shim headers.
 *
 * This header is included by kernel files compiled with -nostdinc, so it
 * uses compiler built-in types only. The runtime itself (wasm/runtime)
 * is host C and may use libc (files in wasm/runtime).
 *
 * Every shim primitive is a macro that expands at its call site inside the
 * real kernel file and passes SIM_SITE(): a static record of the tree,
 * file, line and function of that call. That is how an event names the
 * kernel line that caused it.
 */
#ifndef SIM_SIM_H
#define SIM_SIM_H

/* The branch of kernel-tree/linux the variant being built reads. */
#ifndef SIM_KERNEL_TREE
#define SIM_KERNEL_TREE "project"
#endif

typedef unsigned long long sim_u64;
typedef unsigned int sim_u32;

struct sim_site {
	const char *tree;	/* branch of kernel-tree/linux; "project" for wasm/ files */
	const char *file;	/* path inside that tree */
	const char *func;
	const char *expr;	/* the primitive's argument as written, or 0 */
	int line;
	int id;			/* index in the site table, -1 until first use */
};

#define SIM_SITE_EXPR(e) ({						\
	static struct sim_site __sim_site = {				\
		SIM_KERNEL_TREE, __FILE__, __func__, e, __LINE__, -1	\
	};								\
	&__sim_site;							\
})
#define SIM_SITE() SIM_SITE_EXPR((const char *)0)

#include "memmodel/memmodel.h"

enum sim_event_kind {
#define SIM_EVENT(kind, a0, a1, a2, a3, doc) SIM_EV_##kind,
#include "events.def"
#undef SIM_EVENT
	SIM_EV_NR_KINDS
};

/* One event: 32 bytes, the same layout natively (-m32) and in wasm32. */
struct sim_event {
	sim_u64 time;		/* virtual nanoseconds on this CPU's clock */
	sim_u32 site;		/* index in the site table */
	unsigned short kind;	/* enum sim_event_kind */
	unsigned char cpu;
	unsigned char task;
	int arg[4];
};

_Static_assert(sizeof(struct sim_event) == 32, "the event ABI is 32 bytes");

/* Why a task sleeps (TASK_BLOCK's "on" argument). */
enum sim_block_reason {
	SIM_BLOCK_MUTEX = 1,
	SIM_BLOCK_COMPLETION = 2,
	SIM_BLOCK_GP = 3,
	SIM_BLOCK_IDLE = 4,
	SIM_BLOCK_TIMER = 5,
};

/*
 * A COMPLETION event's "op": X(name, code). Expanded here and by
 * wasm/tools/gen_events_ts.c (CompletionOp in generated/events.ts).
 */
#define SIM_COMPLETION_OPS(X)	\
	X(INIT, 1)		\
	X(WAIT, 2)		\
	X(COMPLETE, 3)		\
	X(COMPLETE_ALL, 5)
enum sim_completion_op {
#define SIM_COMPLETION_ENUM(name, code) SIM_COMPLETION_##name = code,
	SIM_COMPLETION_OPS(SIM_COMPLETION_ENUM)
#undef SIM_COMPLETION_ENUM
};

/*
 * An LRU_ITEM event's "op", and for op ISOLATE its "ret": the lru_status an
 * isolate callback returned (include/linux/list_lru.h's enum lru_status,
 * numbered from 1; ROTATE_NODEFER on branch inode-lru-rotate); for op
 * MAPPING (a page cache change's mapping_shrinkable() test, at its call
 * site) ret is shadow entries * 2 + shrinkable. Expanded by
 * wasm/glue/inode/inode.h and gen_events_ts.c (LruItemOp, LruStatus).
 */
#define SIM_LRU_ITEM_OPS(X)	\
	X(ADD, 1)		\
	X(DEL, 2)		\
	X(ISOLATE, 3)		\
	X(MAPPING, 4)
#define SIM_LRU_STATUSES(X)	\
	X(REMOVED, 1)		\
	X(REMOVED_RETRY, 2)	\
	X(ROTATE, 3)		\
	X(SKIP, 4)		\
	X(RETRY, 5)		\
	X(STOP, 6)		\
	X(ROTATE_NODEFER, 7)

/* Kinds of report (REPORT's, WARN's and BUG's report table entries). */
enum sim_report_type {
	SIM_REPORT_WARN = 1,
	SIM_REPORT_BUG = 2,
	SIM_REPORT_LOCKDEP = 3,
	SIM_REPORT_SLEEP_IN_ATOMIC = 4,
	SIM_REPORT_KASAN = 5,
	SIM_REPORT_HUNG_TASK = 6,
	SIM_REPORT_TEST = 7,	/* a test's own verdict: it failed (sim_test_failed()) */
	SIM_REPORT_KCSAN = 8,	/* a data race on a plain access (runtime/kcsan/, labrun --kcsan) */
};

/* Costs of the cost model (virtual ns), see wasm/runtime/costs.c. */
enum sim_cost {
	SIM_COST_NONE,
	SIM_COST_ATOMIC,
	SIM_COST_BARRIER,
	SIM_COST_BITOP,
	SIM_COST_LIST,
	SIM_COST_RCU_READ,
	SIM_COST_SPIN_LOCK,
	SIM_COST_SPIN_UNLOCK,
	SIM_COST_MUTEX_LOCK,
	SIM_COST_MUTEX_UNLOCK,
	SIM_COST_REFCOUNT,
	SIM_COST_COMPLETION,
	SIM_COST_KMALLOC,
	SIM_COST_KFREE,
	SIM_COST_CALL_RCU,
	SIM_COST_COND_RESCHED,
	SIM_COST_WAKEUP,
	SIM_COST_SPIN_RETRY,
	SIM_COST_GP_LATENCY,
	SIM_COST_SRCU_GP_LATENCY,
	SIM_COST_OBJECT_COUNT,
	SIM_COST_OBJECT_SCAN,
	SIM_COST_SCENARIO_STEP,
	SIM_NR_COSTS
};

struct sim_waiter;
struct sim_waitq {
	struct sim_waiter *head, *tail;
};

/* Spinlocks and mutexes share one record: lockdep's view of a lock. */
struct sim_lock {
	int id;			/* 0 until first use */
	const char *name;	/* as lockdep names it: the variable or expression */
	int owner;		/* task id + 1, 0 when free */
	int type;		/* 1 spinlock, 2 mutex */
	struct sim_waitq waiters;
	int boot;		/* the run that gave it its id (static locks outlive runs) */
};
#define SIM_LOCK_SPIN 1
#define SIM_LOCK_MUTEX 2
#define SIM_LOCK_RWSEM_READ 3	/* event "type" of an rwsem taken for reading */
#define SIM_LOCK_RWSEM 4	/* an rwsem; in events: taken for writing */
#define SIM_LOCK_INIT(lockname, t) { 0, lockname, 0, t, { 0, 0 }, 0 }

/* A reader-writer semaphore: the lock record holds the writer and waiters. */
struct sim_rwsem {
	struct sim_lock l;
	int readers;
};
#define SIM_RWSEM_INIT(lockname) { SIM_LOCK_INIT(lockname, SIM_LOCK_RWSEM), 0 }

/* Sleepable RCU: per-index reader counts and a serialised grace period. */
struct sim_srcu {
	const char *name;
	int idx;		/* the index new readers take */
	int readers[2];
	int gp_running;
	unsigned int gp_seq;
	struct sim_waitq drain;	/* the synchronizer waiting for old readers */
	struct sim_waitq queue;	/* synchronizers waiting for their turn */
	int boot;
};
#define SIM_SRCU_INIT(srcuname) { srcuname, 0, { 0, 0 }, 0, 0, { 0, 0 }, { 0, 0 }, 0 }

/* Events */
void sim_event(int kind, const struct sim_site *site, int a0, int a1, int a2, int a3);
void sim_step(const struct sim_site *site, int cost);
int sim_obj_of(const volatile void *addr);
/* Whether an event of this kind is logged (a quiet run logs few kinds). */
int sim_event_wanted(int kind);
/* An object's id for an event of this kind: looked up only if the event is logged. */
#define sim_obj_for(kind, addr)	(sim_event_wanted(kind) ? sim_obj_of(addr) : 0)
int sim_name(const char *str);
int sim_site_id(const struct sim_site *site);

/*
 * Tracing (runtime/ftrace.c): the TP_printk text of the tracepoints the
 * shim's linux/tracepoint.h makes, kept while sim_ftrace_on is set
 * (labrun --ftrace); the names %pS prints, given where a function pointer
 * is handed over (glue.h's lab_shrinker_register()).
 */
extern int sim_ftrace_on;
void sim_ftrace(const char *event, const char *fmt, ...);
const char *sim_trace_print_flags_seq(const char *delim, unsigned long flags, const void *flag_array);
void sim_kallsyms_add(const void *addr, const char *name);

/* Sleep for ns of virtual time (a scenario's simulated work: I/O, a slow shrinker). */
void sim_sleep_ns(unsigned int ns, const struct sim_site *site);
/* A scenario's wall-clock mark (meta's wall_marks), and its progress on long runs. */
void sim_wall_mark(const char *name);
void sim_progress(int done, int total);

/* Work ns of virtual time on this CPU: kernel work a scenario stands in for. */
void sim_busy_ns(unsigned int ns, const struct sim_site *site);

/* Tasks: start fn(arg) as a new task on a CPU's run queue. */
int sim_spawn(int cpu, const char *name, void (*fn)(void *), void *arg);

/*
 * The scheduler's sleep and wakeup (kernel/sched/core.c): a task sets its
 * state, checks its condition and calls schedule(), which sleeps only if
 * the state is still not TASK_RUNNING (0); wake_up_process() sets it back
 * to TASK_RUNNING and wakes the task if it sleeps in schedule(), and
 * returns whether it changed the state.
 */
void sim_set_current_state(int state, const struct sim_site *site);
void sim_schedule(const struct sim_site *site);
int sim_wake_up_process(int task, const struct sim_site *site);
/* schedule_timeout(): schedule(), woken at the latest ns later; returns the time left */
sim_u64 sim_schedule_timeout(sim_u64 ns, const struct sim_site *site);
const char *sim_task_comm(int task);
int sim_task_cpu(int task);

/* Context */
int sim_cpu_id(void);
sim_u64 sim_clock_ns(void);	/* the virtual clock of the caller's CPU: ktime_get() */
int sim_task_id(void);
int sim_nr_cpus(void);
int sim_in_task(void);

/* Locks */
void sim_lock_init(struct sim_lock *l, const char *name, int type, const struct sim_site *site);
void sim_spin_lock(struct sim_lock *l, const struct sim_site *site);
int sim_spin_trylock(struct sim_lock *l, const struct sim_site *site);
void sim_spin_unlock(struct sim_lock *l, const struct sim_site *site);
void sim_mutex_lock(struct sim_lock *l, const struct sim_site *site);
int sim_mutex_trylock(struct sim_lock *l, const struct sim_site *site);
void sim_mutex_unlock(struct sim_lock *l, const struct sim_site *site);
int sim_lock_held(const struct sim_lock *l);
int sim_spin_is_locked(const struct sim_lock *l);	/* spin_is_locked(): the memory model's read of the lock word */

/* rw_semaphore (locks.c) */
void sim_rwsem_init(struct sim_rwsem *s, const char *name, const struct sim_site *site);
void sim_down_read(struct sim_rwsem *s, const struct sim_site *site);
int sim_down_read_trylock(struct sim_rwsem *s, const struct sim_site *site);
void sim_up_read(struct sim_rwsem *s, const struct sim_site *site);
void sim_down_write(struct sim_rwsem *s, const struct sim_site *site);
int sim_down_write_trylock(struct sim_rwsem *s, const struct sim_site *site);
void sim_up_write(struct sim_rwsem *s, const struct sim_site *site);
int sim_rwsem_is_contended(struct sim_rwsem *s, const struct sim_site *site);
int sim_rwsem_is_locked(struct sim_rwsem *s);

/* SRCU (rcu.c) */
void sim_srcu_init(struct sim_srcu *s, const char *name);
int sim_srcu_read_lock(struct sim_srcu *s, const struct sim_site *site);
void sim_srcu_read_unlock(struct sim_srcu *s, int idx, const struct sim_site *site);
void sim_synchronize_srcu(struct sim_srcu *s, const struct sim_site *site);
int sim_srcu_read_lock_held(const struct sim_srcu *s);
int sim_lock_is_locked(const struct sim_lock *l);

/* Completions */
void sim_completion_init(unsigned int *done, struct sim_waitq *wq, const struct sim_site *site);
void sim_wait_for_completion(unsigned int *done, struct sim_waitq *wq, const struct sim_site *site);
void sim_complete(unsigned int *done, struct sim_waitq *wq, int all, const struct sim_site *site);

/* RCU */
struct callback_head;
void sim_rcu_read_lock(const struct sim_site *site);
void sim_rcu_read_unlock(const struct sim_site *site);
int sim_rcu_read_lock_held(void);
void sim_call_rcu(struct callback_head *head, void (*func)(struct callback_head *),
		  const struct sim_site *site);
void sim_kvfree_rcu(void *ptr, const struct sim_site *site);
void sim_synchronize_rcu(const struct sim_site *site);
void sim_rcu_barrier(const struct sim_site *site);
/* Grace-period sequence numbers (rcu_seq format) and polled grace periods */
unsigned long sim_rcu_gp_seq(void);
unsigned long sim_rcu_gp_snap(int start);
void sim_cond_resched(const struct sim_site *site);
void sim_preempt_schedule(const struct sim_site *site);	/* CONFIG_PREEMPTION's preemption point */

/* Memory: every allocation gets an object id; frees are checked. */
void *sim_kmalloc(unsigned long size, int zero, int node, const struct sim_site *site);
void sim_kfree(const void *p, const struct sim_site *site);
unsigned long sim_ksize(const void *p);
int sim_obj_node(const void *p);
void *sim_obj_memcg(const void *p);
void sim_set_alloc_memcg(void *memcg);	/* objects allocated from now on are charged for it */
void *sim_alloc_memcg(void);		/* the memcg sim_set_alloc_memcg() named last, or NULL */
/*
 * Whom an allocation for memcg is charged to (NULL: none), as the memcg
 * glue says (wasm/glue/memcg.c, current_obj_cgroup()); unset, to memcg.
 */
extern void *(*sim_charge_target)(void *memcg);
void sim_slab_recharge(void *from, void *to);	/* objcg reparenting: from's objects now count for to */

/* Reports */
void sim_warn(const char *cond, const struct sim_site *site);
void sim_warnf(const struct sim_site *site, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * A test the scenario runs failed, in the test's own terms (locktorture's
 * "End of test: FAILURE"): a report, so that a run and the explorer count
 * the execution as failing. The message is its title and its text.
 */
void sim_test_failed(const struct sim_site *site, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sim_bug(const char *cond, const struct sim_site *site) __attribute__((noreturn));
void sim_printk(const struct sim_site *site, const char *fmt, ...);
void sim_dump_stack(const struct sim_site *site);
void sim_might_sleep(const struct sim_site *site);
/* The reports so far (their kernel-like text), for scenarios that read them back. */
int sim_nr_reports(void);
int sim_report_info(int id, int *type, int *event, const char **title, const char **text);
int sim_debug_locks(void);	/* lockdep still on: no report or taint has turned it off */

/*
 * Per-CPU data (runtime/percpu.c): DEFINE_PER_CPU() puts its template in
 * this section; each boot gives every possible CPU a copy of the section.
 * sim_percpu_ptr() is per_cpu_ptr(): for an address in the section, the
 * same place in cpu's copy; for any other (alloc_percpu()'s arrays of
 * copies), p plus cpu copies of size bytes.
 */
#define SIM_PERCPU_SECTION "sim_percpu"
void *sim_percpu_ptr(const void *p, int cpu, unsigned long size);

/* Nodes (NUMA) */
extern int sim_nr_nodes;

#endif /* SIM_SIM_H */
