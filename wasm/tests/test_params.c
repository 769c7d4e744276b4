// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every run parameter of wasm/runtime/params.def at its limit and one past,
 * on the kernel the binary links (the registry's lru-batch, which holds
 * the scenes' scenarios, and selftest, which holds the torture tests):
 *
 *  - lab_apply_params(), which labrun's flags and the page's packed array
 *    go through, takes each parameter at its limit and refuses one past,
 *    and below 0, with "--flag is 0 to MAX, not V";
 *  - lab_run(), which every caller goes through (the explorer and the
 *    tests set struct scenario_params themselves), refuses the same with
 *    the same words;
 *  - a run with the parameter at its limit, in a scenario that reads it
 *    (the table below: a parameter added to params.def without a row
 *    fails), ends as a run does within labrun's runaway guard of 1,000,000
 *    events: every task returned, no object left;
 *  - memcg-bitmap at scale takes 4096 x 4096 shrinker-memcg pairs and
 *    refuses one memcg more, naming the counts.
 */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../lab/lab.h"

/*
 * A parameter's run at its limit: the scenario that reads it, with the
 * other parameters it needs; quiet: run as the page's figures panels and
 * make bench run such a run (--quiet --no-schedule --max-steps
 * 2000000000: its whole log would not fit in 32 bits, and its scheduler
 * decisions pass the default livelock guard's 20 million).
 */
static const struct at_limit {
	int param;
	const char *scenario;
	struct scenario_params with;
	int quiet;
} limit_runs[] = {
	{ .param = LAB_P_ROUNDS, .scenario = "shrinker-lifetime" },
	{ .param = LAB_P_OBJECTS, .scenario = "shrinker-lifetime" },
	{ .param = LAB_P_SLOW_NS, .scenario = "shrinker-lifetime" },
	{ .param = LAB_P_STRESS, .scenario = "shrinker-churn" },
	{ .param = LAB_P_QUIET, .scenario = "shrinker-lifetime" },
	{ .param = LAB_P_NO_SCHEDULE, .scenario = "shrinker-lifetime" },
	/* one mount and one memcg a container: containers x containers pairs, the most there may be */
	{ .param = LAB_P_CONTAINERS, .scenario = "memcg-bitmap", .with = { .mounts = 1, .memcgs = 1 }, .quiet = 1 },
	{ .param = LAB_P_MOUNTS, .scenario = "memcg-bitmap", .with = { .containers = 1, .memcgs = 1 }, .quiet = 1 },
	{ .param = LAB_P_MEMCGS, .scenario = "memcg-bitmap", .with = { .containers = 1, .mounts = 1 }, .quiet = 1 },
	{ .param = LAB_P_TASKS, .scenario = "lru-batch" },
	/* the largest release_pages() there can be, at the largest cost a page */
	{ .param = LAB_P_LRU_RELEASE_ALL, .scenario = "lru-batch", .with = { .objects = RUN_PARAM_MAX_OBJECTS, .munmap_ns = RUN_PARAM_MAX_MUNMAP_NS },
	  .quiet = 1 },
	{ .param = LAB_P_MUNMAP_NS, .scenario = "lru-batch", .with = { .objects = RUN_PARAM_MAX_OBJECTS, .lru_release_all = 1 }, .quiet = 1 },
	/* the migrate scanner beside the most tasks it leaves a CPU for */
	{ .param = LAB_P_LRU_ISOLATE, .scenario = "lru-batch", .with = { .tasks = RUN_PARAM_MAX_TASKS - 1 }, .quiet = 1 },
	{ .param = LAB_P_PLANTED, .scenario = "planted-bugs" },
	{ .param = LAB_P_CPUS, .scenario = "explore-locktorture-spin_lock", .quiet = 1 },
	/* relaxed, the weakest model: the scene under it */
	{ .param = LAB_P_MEMORY, .scenario = "shrinker-lifetime" },
	{ .param = LAB_P_KCSAN, .scenario = "shrinker-lifetime" },
};

/* p with the nonzero fields of with: the row's other parameters. */
static void add_params(struct scenario_params *p, const struct scenario_params *with)
{
#define RUN_PARAM_SCENARIO(field) if (with->field) p->field = with->field;
#define RUN_PARAM_OPTION(field)
#define RUN_PARAM(id, to, field, flag, ts, type, max, help) RUN_PARAM_##to(field)
#include "../runtime/params.def"
#undef RUN_PARAM
#undef RUN_PARAM_OPTION
#undef RUN_PARAM_SCENARIO
}

/* The same parameter written into p or o directly, as the explorer does. */
static void set_param(int id, int v, struct scenario_params *p, struct lab_options *o)
{
#define RUN_PARAM_SCENARIO(field) p->field
#define RUN_PARAM_OPTION(field) o->field
#define RUN_PARAM(pid, to, field, flag, ts, type, max, help) if (id == LAB_P_##pid) RUN_PARAM_##to(field) = v;
#include "../runtime/params.def"
#undef RUN_PARAM
#undef RUN_PARAM_OPTION
#undef RUN_PARAM_SCENARIO
}

static const struct at_limit *row_of(int param)
{
	size_t i;

	for (i = 0; i < sizeof(limit_runs) / sizeof(limit_runs[0]); i++)
		if (limit_runs[i].param == param)
			return &limit_runs[i];
	return NULL;
}

TEST(every_parameter_has_a_run_at_its_limit)
{
	for (int i = 0; i < LAB_NR_PARAMS; i++) {
		if (!row_of(i))
			fprintf(stderr, "  --%s: no row in limit_runs[] (wasm/tests/test_params.c)\n", lab_params[i].flag);
		ASSERT_TRUE(row_of(i) != NULL);
	}
	return 0;
}

TEST(the_packed_values_take_each_limit_and_refuse_one_past)
{
	for (int i = 0; i < LAB_NR_PARAMS; i++) {
		const int max = lab_params[i].max;
		int v[LAB_NR_PARAMS] = { 0 };
		struct scenario_params p = { 0 };
		struct lab_options o = { 0 };
		char err[160] = "", want[160];

		v[i] = max;
		ASSERT_EQ(lab_apply_params(v, LAB_NR_PARAMS, &p, &o, err, sizeof(err)), 0);
		for (int bad = -1; bad <= max + 1; bad += max + 2) {
			v[i] = bad;
			snprintf(want, sizeof(want), "--%s is 0 to %d, not %d", lab_params[i].flag, max, bad);
			ASSERT_EQ(lab_apply_params(v, LAB_NR_PARAMS, &p, &o, err, sizeof(err)), -1);
			if (strcmp(err, want))
				fprintf(stderr, "  said \"%s\", not \"%s\"\n", err, want);
			ASSERT_TRUE(!strcmp(err, want));
		}
	}
	return 0;
}

TEST(lab_run_refuses_one_past_in_the_same_words)
{
	int checked = 0;

	for (int i = 0; i < LAB_NR_PARAMS; i++) {
		const struct scenario *sc = sim_scenario_find(row_of(i)->scenario);
		struct scenario_params p;
		struct lab_options o = { .policy = SIM_POLICY_TIMED };
		struct lab_result res;
		char err[160] = "", want[160];

		if (!sc)
			continue;
		p = sc->defaults;
		set_param(i, lab_params[i].max + 1, &p, &o);
		snprintf(want, sizeof(want), "--%s is 0 to %d, not %d", lab_params[i].flag, lab_params[i].max,
			 lab_params[i].max + 1);
		ASSERT_EQ(lab_run(sc, &p, &o, &res, err, sizeof(err)), -1);
		if (strcmp(err, want))
			fprintf(stderr, "  --%s: said \"%s\", not \"%s\"\n", lab_params[i].flag, err, want);
		ASSERT_TRUE(!strcmp(err, want));
		checked++;
	}
	ASSERT_TRUE(checked > 0);
	return 0;
}

struct run_out {
	int ret, status;
	size_t events;
	unsigned long live;
	int reports;
	char err[160];
};

/* One boot with the row's parameter at its limit (in a child: a run is a boot). */
static int one_run(void *arg, void *out)
{
	const struct at_limit *row = arg;
	const struct scenario *sc = sim_scenario_find(row->scenario);
	struct run_out *r = out;
	struct scenario_params p = sc->defaults;
	/* labrun's runaway guard: no run at a limit may need more */
	struct lab_options o = { .policy = SIM_POLICY_TIMED, .max_events = 1000000,
				 .quiet = row->quiet, .no_schedule = row->quiet,
				 .max_steps = row->quiet ? 2000000000UL : 0 };
	struct lab_result res;
	int v[LAB_NR_PARAMS] = { 0 };

	add_params(&p, &row->with);
	v[row->param] = lab_params[row->param].max;
	if (lab_apply_params(v, LAB_NR_PARAMS, &p, &o, r->err, sizeof(r->err)))
		return r->ret = -1, 0;
	r->ret = lab_run(sc, &p, &o, &res, r->err, sizeof(r->err));
	r->status = res.status;
	r->events = res.events;
	r->live = res.live_objects;
	r->reports = sim_nr_reports();
	return 0;
}

TEST(each_parameter_at_its_limit_runs_to_its_end)
{
	int ran = 0;

	for (int i = 0; i < LAB_NR_PARAMS; i++) {
		const struct at_limit *row = row_of(i);
		struct run_out r;

		if (!sim_scenario_find(row->scenario)) {
			printf("  --%s %d: on %s, in the program that holds it\n", lab_params[i].flag, lab_params[i].max,
			       row->scenario);
			continue;
		}
		ASSERT_EQ(run_in_child(one_run, (void *)row, &r, sizeof(r)), 0);
		if (r.ret)
			fprintf(stderr, "  --%s %d: %s\n", lab_params[i].flag, lab_params[i].max, r.err);
		ASSERT_EQ(r.ret, 0);
		printf("  --%s %d on %s: %s, %zu events, %d reports, %lu objects left\n", lab_params[i].flag,
		       lab_params[i].max, row->scenario, sim_status_str(r.status), r.events, r.reports, r.live);
		ASSERT_EQ(r.status, SIM_DONE);
		ASSERT_EQ(r.live, 0);
		ran++;
	}
	ASSERT_TRUE(ran > 0);
	return 0;
}

/* lab_run() of a set-up the scenario refuses: -1, and why in err. */
static int refused_run(const struct scenario *sc, struct scenario_params *p, char *err, size_t len)
{
	struct lab_options o = { .policy = SIM_POLICY_TIMED };
	struct lab_result res;

	return lab_run(sc, p, &o, &res, err, len);
}

TEST(memcg_bitmap_takes_its_pairs_and_refuses_one_memcg_more)
{
	const struct scenario *sc = sim_scenario_find("memcg-bitmap");
	struct scenario_params p;
	char err[200] = "";

	if (!sc)
		return 0;
	p = sc->defaults;
	/* 4096 shrinkers by 4097 memcgs: the limit's pairs and one memcg's more */
	p.containers = 1;
	p.mounts = RUN_PARAM_MAX_MOUNTS;
	p.memcgs = RUN_PARAM_MAX_MEMCGS;
	ASSERT_TRUE(sc->refuse(&p) == NULL);
	p.containers = 2;
	p.mounts = RUN_PARAM_MAX_MOUNTS / 2;
	p.memcgs = RUN_PARAM_MAX_MEMCGS / 2 + 1;
	ASSERT_EQ(refused_run(sc, &p, err, sizeof(err)), -1);
	printf("  2 x 2048 mounts, 2 x 2049 memcgs: %s\n", err);
	ASSERT_TRUE(strstr(err, "4096 shrinkers (containers x mounts) by 4098 memcgs") != NULL);
	/* without --mounts and --memcgs, two each */
	p.containers = RUN_PARAM_MAX_CONTAINERS;
	p.mounts = p.memcgs = 0;
	ASSERT_EQ(refused_run(sc, &p, err, sizeof(err)), -1);
	ASSERT_TRUE(strstr(err, "8192 shrinkers (containers x mounts) by 8192 memcgs") != NULL);
	return 0;
}

TEST(lru_batch_leaves_the_migrate_scanner_a_cpu)
{
	const struct scenario *sc = sim_scenario_find("lru-batch");
	struct scenario_params p;
	char err[200] = "";

	if (!sc)
		return 0;
	p = sc->defaults;
	p.lru_isolate = 1;
	p.tasks = RUN_PARAM_MAX_TASKS - 1;
	ASSERT_TRUE(sc->refuse(&p) == NULL);
	p.tasks = RUN_PARAM_MAX_TASKS;
	ASSERT_EQ(refused_run(sc, &p, err, sizeof(err)), -1);
	printf("  64 tasks and the migrate scanner: %s\n", err);
	ASSERT_TRUE(strstr(err, "at most 63 tasks with lru-isolate") != NULL);
	return 0;
}

int main(void)
{
	static const struct test tests[] = {
		RUN(every_parameter_has_a_run_at_its_limit),
		RUN(the_packed_values_take_each_limit_and_refuse_one_past),
		RUN(lab_run_refuses_one_past_in_the_same_words),
		RUN(each_parameter_at_its_limit_runs_to_its_end),
		RUN(memcg_bitmap_takes_its_pairs_and_refuses_one_memcg_more),
		RUN(lru_batch_leaves_the_migrate_scanner_a_cpu),
	};
	char title[64];

	snprintf(title, sizeof(title), "params on %s", sim_scenario_at(0)->tree);
	return run_tests(title, tests, sizeof(tests) / sizeof(tests[0]));
}
