// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every scenario, one line each. A scenario that does not apply to a
 * variant's kernel is not compiled into it (its file says which kernels it
 * needs), so the references are weak and the list skips what is missing.
 */
#include <stddef.h>
#include <string.h>
#include "scenario.h"

extern const struct scenario scenario_shrinker_lifetime __attribute__((weak));
extern const struct scenario scenario_planted_bugs __attribute__((weak));
extern const struct scenario scenario_fuzz_ops __attribute__((weak));
extern const struct scenario scenario_shrinker_churn __attribute__((weak));
extern const struct scenario scenario_memcg_bitmap __attribute__((weak));
extern const struct scenario scenario_lru_batch __attribute__((weak));	/* lru-batch only */
extern const struct scenario scenario_inode_lru __attribute__((weak));	/* inode variants only */

/* The scenarios the real kernel referees (kunit.def) */
#define KUNIT_SCENARIO(ident, name, fn, where, variant, title) \
	extern const struct scenario scenario_kunit_##ident __attribute__((weak));
#include "kunit.def"
#undef KUNIT_SCENARIO

extern const struct scenario scenario_selftest_xarray __attribute__((weak));	/* selftest only */
extern const struct scenario scenario_selftest_ida __attribute__((weak));	/* selftest only */
extern const struct scenario scenario_selftest_atomic64 __attribute__((weak));	/* selftest only */
extern const struct scenario scenario_selftest_list __attribute__((weak));	/* selftest only */
extern const struct scenario scenario_selftest_bitmap __attribute__((weak));	/* selftest only */
extern const struct scenario scenario_selftest_ida_threads __attribute__((weak));	/* selftest only */
#define LOCKTORTURE_SCENARIO(ident, name, type, args, us) \
	extern const struct scenario scenario_locktorture_##ident __attribute__((weak));	/* selftest only */
#include "locktorture.def"
#undef LOCKTORTURE_SCENARIO
#define RCUTORTURE_SCENARIO(id, name, type, cpus, args, us) \
	extern const struct scenario scenario_rcutorture_##id __attribute__((weak));	/* selftest only */
#include "rcutorture.def"
#undef RCUTORTURE_SCENARIO
extern const struct scenario scenario_explore_litmus __attribute__((weak));
extern const struct scenario scenario_explore_choice __attribute__((weak));
extern const struct scenario scenario_planted_race __attribute__((weak));
/* The kernel's litmus tests, as wasm/litmus/litmus2c.py writes them (litmus only); NULL-terminated */
extern const struct scenario *const sim_litmus_tests[] __attribute__((weak));

static const struct scenario *const all[] = {
	&scenario_shrinker_lifetime,
	&scenario_shrinker_churn,
	&scenario_memcg_bitmap,
	&scenario_planted_bugs,
	&scenario_fuzz_ops,
	&scenario_lru_batch,
	&scenario_inode_lru,
#define KUNIT_SCENARIO(ident, name, fn, where, variant, title) &scenario_kunit_##ident,
#include "kunit.def"
#undef KUNIT_SCENARIO
	&scenario_selftest_xarray,
	&scenario_selftest_ida,
	&scenario_selftest_atomic64,
	&scenario_selftest_list,
	&scenario_selftest_bitmap,
	&scenario_selftest_ida_threads,
#define LOCKTORTURE_SCENARIO(ident, name, type, args, us) &scenario_locktorture_##ident,
#include "locktorture.def"
#undef LOCKTORTURE_SCENARIO
#define RCUTORTURE_SCENARIO(id, name, type, cpus, args, us) &scenario_rcutorture_##id,
#include "rcutorture.def"
#undef RCUTORTURE_SCENARIO
	&scenario_explore_litmus,
	&scenario_explore_choice,
	&scenario_planted_race,
};

#define NR_ALL (sizeof(all) / sizeof(all[0]))
const struct scenario *sim_scenarios[NR_ALL + 1];
static int nr_fixed;

static void fill(void)
{
	size_t i, n = 0;

	if (sim_scenarios[0] || nr_fixed < 0)
		return;
	for (i = 0; i < NR_ALL; i++)
		if (all[i])
			sim_scenarios[n++] = all[i];
	nr_fixed = n ? (int)n : -1;
}

const struct scenario *sim_scenario_at(int i)
{
	int n, k;

	fill();
	n = nr_fixed > 0 ? nr_fixed : 0;
	if (i >= 0 && i < n)
		return sim_scenarios[i];
	if (i < 0 || !sim_litmus_tests)
		return NULL;
	for (k = 0; k <= i - n; k++)
		if (!sim_litmus_tests[k])
			return NULL;
	return sim_litmus_tests[i - n];
}

const struct scenario *sim_scenario_find(const char *name)
{
	int i;

	fill();
	for (i = 0; sim_scenario_at(i); i++)
		if (!strcmp(sim_scenario_at(i)->name, name))
			return sim_scenario_at(i);
	return NULL;
}
