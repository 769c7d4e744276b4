/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The explorer's own definitions, shared by its files, each of which
 * calls only the ones listed before it (wasm/tools/check-layers.py):
 *
 *   xp.c          what all share: failure kinds, the clock and budgets,
 *                 running out of memory, what a choice costs
 *   run.c         one execution, in the run: its request, its decisions'
 *                 record and footprints, its end state; the strategy's
 *                 choice at each decision through x->choose
 *   exec_inprocess.c, exec_fork.c, exec_wasm.c
 *                 the back ends that run an execution from the boot: in
 *                 this process with its memory put back, in a child of a
 *                 fork server, in a wasm module with its memory put back
 *   report.c      outcomes: counts, end states, the shortest failing
 *                 schedule, summaries and progress
 *   items.c       what the depth-first search keeps: footprints, work items
 *   checkpoint.c  a stopped search written out and resumed
 *   shard.c       shards' records read and merged into the one search's
 *                 summaries
 *   dfs.c         depth-first search, bounded, with sleep sets: the
 *                 search's side and its choice in the run
 *   pct.c         probabilistic concurrency testing, both sides
 *   explore.c     explore_run(): the search from its options to its end
 */
#ifndef XP_H
#define XP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "explore.h"
#include "../lab/lab.h"
#include "../runtime/choice.h"
#include "../runtime/footprint.h"
#include "../runtime/heap.h"

#define XP_MAX_CPUS 16
#define XP_MAX_NODES 100000
#define XP_POOL (6u << 20)
#define XP_MAX_BOUND 64

/* Runs in this process with its memory put back (exec_inprocess.c) where the machine has its own heap. */
#ifndef XP_INPROCESS		/* -DXP_INPROCESS=0: the fork server in any build */
#define XP_INPROCESS SIM_HEAP_OWN
#endif

/* Why a run stopped before its end. */
enum { CUT_NONE, CUT_SLEEP, CUT_BOUND, CUT_DIVERGED, CUT_OVERFLOW, CUT_CRASH };

#define XP_FAILS(X) X(panic) X(deadlock) X(stuck) X(warn) X(bug) X(lockdep) \
	X(sleep_in_atomic) X(kasan) X(hung_task) X(test) X(leak) X(crash)
enum {
#define X(n) FAIL_##n,
	XP_FAILS(X)
#undef X
	NR_FAILS
};
extern const char *const xp_fail_names[NR_FAILS];

/* A decision as the run records it for the search. */
struct snode {
	uint64_t mask, sleep;		/* the CPUs that can run, or the alternatives within the bound */
	int8_t from, yield, chosen;	/* from -1 for a choice of another kind: no preemption */
	uint8_t kind;			/* enum sim_choice_kind */
	int pc;				/* preemptions before this decision */
	uint32_t fp_off, fp_len;	/* the footprint of the chosen CPU's step */
};

/* A replayed decision, as the search sends it to the run. */
struct rnode {
	uint64_t mask, sleep;
	int8_t from, yield, chosen, known;
	uint8_t kind;
};

#define XP_REQ_POOL (XP_MAX_CPUS * SIM_FP_MAX)

/*
 * What a run needs of the search, written by the search before each run:
 * natively the run may be forked by a process that holds none of the
 * search's state (exec_fork.c), so all of it comes through here.
 */
struct request {
	int quiet, bound, branch, pct_depth;
	int snap;			/* the back end may resume it from, and take, snapshots */
	uint32_t replay_len;		/* decisions to replay from nodes */
	int32_t sched_n;		/* >= 0: replay sched instead of searching */
	uint64_t last_sleep;		/* who sleeps after the last replayed decision */
	uint32_t sfp_off[XP_MAX_CPUS], sfp_len[XP_MAX_CPUS];	/* their steps, in pool */
	int prio[XP_MAX_CPUS], lowest;	/* pct */
	uint32_t change[XP_MAX_BOUND];
	int nchange;
	uint32_t mchange[XP_MAX_BOUND];	/* pct: the other kinds' choice points that take a non-default one */
	int nmchange;
	uint64_t mseed;
	unsigned int kbound[SIM_CHOICE_NR];	/* each kind's bound (not the scheduler's) */
	int sched_kinded;		/* sched_kinds says each decision's kind (else: all the scheduler's) */
	uint32_t pool[XP_REQ_POOL];
	struct rnode nodes[XP_MAX_NODES];
	unsigned char sched[XP_MAX_NODES];
	unsigned char sched_kinds[XP_MAX_NODES];
};

/* The request, and what the run saw: one block, shared with a forked child. */
struct shared {
	struct request req;
	uint32_t nnodes;
	int cut;
	int status;
	unsigned long live;
	uint32_t fails;			/* 1 << FAIL_* */
	uint64_t hash;			/* the end state */
	int report_event;		/* the first report's event index, -1 */
	int branch_event;		/* in a replay, the event of decision xp.branch, -1 */
	char report_title[96];
	uint32_t fp_used;
	uint32_t kinds_seen;		/* 1 << kind of every choice point met */
	uint32_t nmodel;		/* choice points not the scheduler's */
	unsigned long kbeyond[SIM_CHOICE_NR];	/* alternatives past their kind's bound, at new nodes */
	struct snode nodes[XP_MAX_NODES];
	uint32_t pool[XP_POOL];
};

/* A footprint kept by the search: shared by nodes and work items. */
struct fpblk {
	int refs;
	uint32_t n;		/* SIM_FP_ALL: everything */
	uint32_t cls;		/* its size class (items.c) */
	struct fpblk *next;	/* on its class's free list */
	uint32_t k[];
};
#define XP_FP_CLASSES 12	/* 8 to 8 << 10 entries, and the larger ones, freed */

/* A decision on the search's stack (dfs). */
struct node {
	uint64_t mask, tried, done, sleep;
	int from, yield, chosen, pc, frozen, known, kind;
	unsigned long defer_mark;
	struct fpblk *cur;			/* the chosen CPU's step */
	struct fpblk *sfp[XP_MAX_CPUS];		/* the steps of the CPUs in sleep or done */
};

/* The most the kept work items' choices may take: 1 GiB. */
#define XP_ITEM_BYTES	((size_t)1 << 30)

/* A prefix of choices to explore below, at a bound (dfs). */
struct item {
	int pc;
	uint32_t n;
	unsigned char *choices;
	unsigned char *kinds;		/* each choice's kind; NULL: all the scheduler's */
	uint64_t sleep;
	struct fpblk *sfp[XP_MAX_CPUS];
	uint32_t *path;			/* in a shard: where it was pushed (struct xp_order) */
	uint32_t plen;
};

/*
 * Where an execution comes in the one-process search's order, so that a
 * shard's findings merge into what that search finds first (shard.c):
 * its bound's work item, by the push index of each of the item's
 * ancestors in the subtree explored below its parent (path[j] at bound
 * j), and the execution's index below that item.
 */
struct xp_order {
	uint32_t path[XP_MAX_BOUND + 1];
	uint32_t plen;
	unsigned long seq;
};

struct itemlist {
	struct item *v;
	size_t n, cap;
};

struct xp;
/* A strategy's choice at decision i of a run: the CPU, or -1 to cut the run. */
typedef int (*xp_choose_fn)(struct xp *x, uint32_t i, const struct sim_choice_point *cp);

/* A search. */
struct xp {
	const struct scenario *sc;
	struct scenario_params p;
	struct explore_options o;
	int ncpus;
	struct shared *sh;
	/*
	 * The strategies' choices in the run, [0] dfs and [1] pct, as the
	 * request's pct_depth says: set before the back end starts (a fork
	 * server's copy of the search has them), called by run.c.
	 */
	xp_choose_fn choose[2];
	/* A back end's hook at each decision of a run, before its choice (NULL: none). */
	void (*at_decision)(struct xp *x, uint32_t i, const struct sim_choice_point *cp);
	int snap_ok;			/* the next run is the search's own: snapshots may serve it */
	/* dfs */
	struct node *stack;
	uint32_t deepest;		/* nodes of the stack ever written: the ones to clear at the end */
	uint32_t replay_len;
	int bound;
	unsigned long deferrals;
	struct itemlist items[XP_MAX_BOUND + 2];
	size_t beyond;			/* work items past the last bound: counted, not kept (no checkpoint) */
	size_t item_bytes;		/* the kept work items' choices */
	/* pct */
	int prio[XP_MAX_CPUS], lowest;
	uint32_t change[XP_MAX_BOUND];
	int nchange;
	uint32_t pct_k;
	uint32_t mchange[XP_MAX_BOUND];
	int nmchange;
	uint64_t mseed;
	uint32_t pct_km;		/* the run without preemptions' choice points of other kinds */
	/* choice points of other kinds than the scheduler's */
	unsigned int kbound[SIM_CHOICE_NR];
	unsigned long kbeyond[SIM_CHOICE_NR];	/* alternatives past their kind's bound */
	uint32_t kinds_seen;
	struct fpblk *fpfree[XP_FP_CLASSES];	/* items.c's free lists */
	/* outcome */
	unsigned long execs, blocked, crashes, fail_execs, bound_execs, bound_blocked;
	unsigned long fails[NR_FAILS];
	struct { uint64_t *v; size_t n, cap; } states;
	int best_pc;
	uint32_t best_n;
	unsigned char *best, *best_kinds;
	uint32_t best_fails;
	uint64_t told[64];		/* the failing executions told: (preemptions << 32 | decisions), sorted */
	int ntold;
	double t0;
	int branch;			/* a replay notes the event of this decision (-1: none) */
	int stopped;			/* a budget ran out */
	int exhausted;
	FILE *out;
	const char *sc_name, *sc_tree;	/* the summaries' scenario and kernel */
	/*
	 * Sharding (o.nshards > 1): every shard runs bound 0, shard 0 alone
	 * counts it, and a work item of bound 1 or more is run by the shard
	 * its bound-1 ancestor's push index names, modulo nshards. A shard
	 * writes records (report.c), not summaries.
	 */
	const uint32_t *item_path;	/* the item being explored: its path, and pushes below it so far */
	uint32_t item_plen, item_pushes;
	unsigned long item_seq;
	struct xp_order best_order;	/* the shortest's place in the one search's order */
	struct xp_order last_order;	/* the last execution's, checked to come before the next's */
	int last_bound;			/* its bound, -1: none yet */
	struct { uint64_t *v; size_t n, cap; } fresh;	/* end states not yet in a record */
	int recorded;			/* records written */
	int replica;			/* running bound 0 in a shard other than 0: nothing counted */
	/* Merging (shard.c): the summaries' figures come from the records, not from runs. */
	int merged;
	size_t m_deferred;
	int m_replayed;			/* the shortest's replay: whether any, and what it found */
	uint32_t m_rfails;
	int m_rstep;
	char m_rtitle[96];
};

/* xp.c */
extern struct xp *xp_current;	/* the search under way, for xp_out_of_memory() */
void xp_out_of_memory(void) __attribute__((noreturn));
int xp_budget_out(struct xp *x);
int xp_parse_bounds(struct xp *x, const char *text);	/* the other kinds' bounds: "name=N,..." */
double xp_now(void);

/* What the run keeps of its own decisions (run.c), read by the choosers. */
struct xp_cx {
	int pc;				/* preemptions so far */
	unsigned int spent[SIM_CHOICE_NR];	/* the other kinds' costs so far */
	uint64_t sleep;			/* who sleeps at the last node */
	const uint32_t *sfp[XP_MAX_CPUS];	/* the sleeping CPUs' steps */
	uint32_t sfp_n[XP_MAX_CPUS];
};
extern struct xp_cx xp_cx;

int xp_cost_of(uint64_t mask, int from, int yield, int c);
uint64_t xp_candidates(uint64_t mask, uint64_t sleep, int from, int yield);
/* The choices left at a node: a scheduler's (xp_candidates()), or all alternatives within the bound. */
static inline uint64_t xp_node_cands(uint64_t mask, uint64_t sleep, int from, int yield, int kind)
{
	return kind ? mask : xp_candidates(mask, sleep, from, yield);
}
/* The alternatives of a choice point of another kind that fit its bound after what the run spent. */
uint64_t xp_within(const struct xp *x, const struct sim_choice_point *cp);

/* run.c: the run's side */
int xp_run_body(struct xp *x);			/* 0, or 3 if the run could not start */
void xp_run_setup(struct xp *x);
void xp_run_resumed(struct xp *x, uint32_t d);
void xp_request_fill(struct xp *x, int quiet, const unsigned char *sched, const unsigned char *kinds,
		     uint32_t sched_n);
void xp_shared_reset(struct shared *sh);
void xp_mark_crashed(struct shared *sh);

/* The back end (exec_*.c): one execution from the boot, following the request. */
int xp_exec_start(struct xp *x);
void xp_exec_stop(void);
int xp_exec(struct xp *x, int quiet, const unsigned char *sched, const unsigned char *kinds, uint32_t sched_n);
void *xp_shared_alloc(size_t size);
void xp_shared_free(void *p, size_t size);
void xp_warm_up(void);
#if XP_INPROCESS
int xp_inprocess_start(void);
void xp_inprocess_stop(void);
int xp_inprocess_on(void);
int xp_inprocess_exec(struct xp *x);
#endif

/* items.c */
struct fpblk *xp_fp_new(const uint32_t *k, uint32_t n);
struct fpblk *xp_fp_get(struct fpblk *f);
void xp_fp_put(struct fpblk **f);
void xp_fp_drain(struct xp *x);
struct item *xp_item_new(struct itemlist *l, int pc);
void xp_item_push(struct xp *x, int bound, int pc, const struct node *stack, uint32_t depth,
		  int choice, uint64_t sleep, struct fpblk *const *sfp);
void xp_item_free(struct xp *x, struct item *it);
void xp_node_clear(struct node *n);

/* dfs.c */
int xp_dfs_choose(struct xp *x, uint32_t i, const struct sim_choice_point *cp);
int xp_dfs(struct xp *x);

/* pct.c */
int xp_pct_choose(struct xp *x, uint32_t i, const struct sim_choice_point *cp);
int xp_pct(struct xp *x);

/* report.c */
int xp_state_add(struct xp *x, uint64_t h);
void xp_tell(struct xp *x, struct explore_progress *pr);
void xp_account(struct xp *x);
char *xp_choices_text(const unsigned char *c, const unsigned char *kinds, uint32_t n);
unsigned char *xp_kinds_of(const struct snode *nodes, uint32_t n);	/* NULL: all the scheduler's */
void xp_summary(struct xp *x, const char *mode, int bound, int exhausted);
size_t xp_waiting(const struct xp *x, int b);
void xp_fill_result(struct xp *x, struct explore_result *res, int exhausted);

/* checkpoint.c */
void xp_ckpt_write(struct xp *x, int bound);
int xp_ckpt_read(struct xp *x, int *bound);

/* report.c: a shard's records, and the order shards' findings merge in */
void xp_shard_record(struct xp *x, int bound, int exhausted);
int xp_order_cmp(const struct xp_order *a, const struct xp_order *b);
int xp_order_next(struct xp *x, int bound);	/* -1: this execution is not after the last */

/* shard.c: the shards' records merged (explore.h: explore_merge()) */

#endif /* XP_H */
