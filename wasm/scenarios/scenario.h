/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a scenario is: a named set-up of simulated CPUs whose init task
 * (on CPU 0) builds the kernel state, starts the racing tasks, waits for
 * them and tears everything down, so that a finished run leaves no object
 * behind. Included by kernel-side code (no libc) and host code alike.
 */
#ifndef SIM_SCENARIO_H
#define SIM_SCENARIO_H

/*
 * A run's parameters: the seed, one field for each SCENARIO parameter of
 * wasm/runtime/params.def (its help says what each does; 0 keeps the
 * scenario's default), and the program for scenarios that take one.
 */
/*
 * The parameters' ints in a block of whole doublewords, however many
 * params.def has: i386 aligns the seed at 4 and wasm32 at 8, so with an
 * odd count the struct's size differed between them, every static after
 * a copy of it moved differently, and the memory model, whose locations
 * are doublewords, paired other words in native and wasm runs.
 */
struct scenario_params {
	unsigned long long seed;
	struct {
#define RUN_PARAM_SCENARIO(field) int field;
#define RUN_PARAM_OPTION(field)
#define RUN_PARAM(id, to, field, flag, ts, type, max, help) RUN_PARAM_##to(field)
#include "../runtime/params.def"
#undef RUN_PARAM
#undef RUN_PARAM_OPTION
#undef RUN_PARAM_SCENARIO
	} __attribute__((aligned(8)));
	const unsigned char *program;	/* operations, for scenarios that take them */
	unsigned long program_len;
};
_Static_assert(sizeof(struct scenario_params) % 8 == 0, "a whole number of doublewords in native and wasm builds");

/* Each parameter's largest value (params.def), for a scenario sized by one. */
enum {
#define RUN_PARAM(id, to, field, flag, ts, type, max, help) RUN_PARAM_MAX_##id = (max),
#include "../runtime/params.def"
#undef RUN_PARAM
};

struct scenario {
	const char *name;	/* as on the command line and in URLs */
	const char *title;
	const char *tree;	/* the branch of kernel-tree/linux it runs */
	int nr_cpus;		/* at most, when cpus() is given */
	int (*cpus)(const struct scenario_params *p);	/* CPUs for a run with p (NULL: nr_cpus) */
	int nr_nodes;
	int kasan_panic;	/* boot with kasan.fault=panic: stop at the first report */
	unsigned long long hung_task_ns;	/* the hung-task threshold, 0: the runtime's */
	struct scenario_params defaults;
	void (*init)(void *params);	/* the init task, on CPU 0 */
	int marked_steps;	/* every marked access is a preemption point (the litmus tests) */
	/*
	 * A run's parameters the scenario's kernel state cannot hold together
	 * (each is within its params.def limit): the message, or NULL. NULL:
	 * every combination runs.
	 */
	const char *(*refuse)(const struct scenario_params *p);
};

/* The scenarios this variant's program holds; NULL past the last. */
const struct scenario *sim_scenario_at(int i);
const struct scenario *sim_scenario_find(const char *name);

/* Scenario helpers: events for the calls the scenario makes. */
#define SCENARIO_CALL(name, a, b, c) \
	sim_event(SIM_EV_CALL, SIM_SITE(), sim_name(name), a, b, c)
#define SCENARIO_RETURN(name, ret) \
	sim_event(SIM_EV_RETURN, SIM_SITE(), sim_name(name), ret, 0, 0)
#define SCENARIO_LABEL(obj, kind, name) \
	sim_event(SIM_EV_LABEL, SIM_SITE(), sim_obj_of(obj), kind, sim_name(name), 0)

/*
 * What kmem_cache_alloc_lru() does for an object bound for lru, made for
 * memcg (set_active_memcg()): __memcg_slab_post_alloc_hook() makes sure
 * the memcg it is charged to (current_obj_cgroup(): memcg, or its nearest
 * online ancestor, or none) has its list there, then a zeroed object of
 * size bytes charged to that memcg; NULL if either fails. A macro, so
 * that the allocation is recorded at the scenario's own line.
 */
#define SCENARIO_ALLOC_LRU(lru, memcg, size) ({				\
	void *__obj = NULL;						\
	struct mem_cgroup *__to = sim_memcg_charge_target(memcg);	\
	if (!__to || !memcg_list_lru_alloc(__to, (lru), GFP_KERNEL)) {	\
		sim_set_alloc_memcg(memcg);				\
		__obj = kzalloc((size), GFP_KERNEL_ACCOUNT);		\
		sim_set_alloc_memcg(NULL);				\
	}								\
	__obj; })

/* A lock named by its id (it has no kmalloc'd object of its own), with an index. */
#define SCENARIO_LABEL_LOCK(lock, name, index) \
	sim_event(SIM_EV_LABEL, SIM_SITE(), (lock)->l.id, LABEL_LOCK, sim_name(name), index)

/*
 * The scenarios of kunit.def built by one file: it defines KUNIT_IF_ALL(),
 * KUNIT_IF_WORD64(), KUNIT_IF_INODE(), KUNIT_IF_FOLIO_LRU() and
 * KUNIT_IF_PLANTED() to keep (__VA_ARGS__) or
 * drop () their arguments, then includes kunit.def with this as
 * KUNIT_SCENARIO; each scenario kept has the init task kunit_<ident>_init.
 */
#define KUNIT_DEFINE(ident, scen_name, fn, where, variant, scen_title)	\
	KUNIT_IF_##where(const struct scenario scenario_kunit_##ident = {	\
		.name = scen_name,						\
		.title = scen_title,						\
		.tree = KUNIT_TREE,						\
		.nr_cpus = 1,							\
		.nr_nodes = 1,							\
		.defaults = { .seed = 1 },					\
		.init = kunit_##ident##_init,					\
	};)

/*
 * What a LABEL event names (its "kind"): X(name, code). Expanded here and by
 * wasm/tools/gen_events_ts.c (Label in web/src/engine/generated/events.ts).
 */
#define SCENARIO_LABELS(X)	\
	X(SHRINKER, 1)		\
	X(MEMCG, 2)		\
	X(LIST_LRU, 3)		\
	X(ITEM, 4)		\
	X(LOCK, 5)		/* obj is a lock's id, not an object's */
enum {
#define SCENARIO_LABEL_ENUM(name, code) LABEL_##name = code,
	SCENARIO_LABELS(SCENARIO_LABEL_ENUM)
#undef SCENARIO_LABEL_ENUM
};

#endif /* SIM_SCENARIO_H */
