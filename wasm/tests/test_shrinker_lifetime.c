// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shrinker-lifetime scenario, run on many seeds (one child process
 * per run: a run is a boot, the kernel files keep static state), with the
 * guarantees of v6.12's refcount + RCU design checked from the event log:
 *
 *  - once shrinker_free() has returned, no count_objects or scan_objects
 *    call reaches that shrinker;
 *  - its memory is freed only by the RCU callback queued in shrinker_free(),
 *    after a grace period that began after the callback was queued, in
 *    which every CPU it waited for reported a quiescent state, and at
 *    whose end no read-side section older than the grace period was open;
 *  - shrinker_try_get() never revives a zero refcount;
 *  - nothing is left allocated when the scenario has torn down.
 *
 * Built for a break-* variant (v6.12 with one guarantee removed, see
 * kernel-tree/manifest.json), it checks the opposite: with slow shrinkers
 * (the slow_ns fault injection), every seed ends in KASAN's report of the
 * file system's memory read by kernel code after the unmount freed it.
 */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../lab/lab.h"

#define MAX_OBJS 4096
#define FAIL(...) do { fprintf(stderr, "seed %llu: ", seed); fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); return 1; } while (0)

static int name_is(int id, const char *s)
{
	return !strcmp(sim_name_at(id), s);
}

/* What one run showed, for the checks across seeds. */
struct run_facts {
	int waited_for_readers;	/* shrinker_free() slept in wait_for_completion() */
	int freed_by_rcu;
	int caught;		/* break variants: the use-after-free was reported */
};

static int expect(const char *text, const char *what, unsigned long long seed)
{
	if (strstr(text, what))
		return 1;
	fprintf(stderr, "seed %llu: expected \"%s\" in:\n%s\n", seed, what, text);
	return 0;
}

static int is_break(const struct scenario *sc)
{
	return !strncmp(sc->tree, "break-", 6);
}

/* A break variant's run: stopped by one KASAN report, of the right object. */
static int check_caught(unsigned long long seed, const struct lab_result *res, struct run_facts *f)
{
	int type, event;
	const char *title, *text;

	memset(f, 0, sizeof(*f));
	if (res->status == SIM_DONE && !sim_nr_reports())
		return 0;	/* this seed did not hit the window */
	if (res->status != SIM_PANIC)
		FAIL("run ended %s, not by KASAN's panic", sim_status_str(res->status));
	if (sim_nr_reports() != 1)
		FAIL("%d reports; expected KASAN's alone", sim_nr_reports());
	sim_report_info(0, &type, &event, &title, &text);
	if (type != SIM_REPORT_KASAN)
		FAIL("report \"%s\" is not KASAN's", title);
	/* Kernel code (mm/) read memory that the unmount freed. */
	if (!expect(text, "BUG: KASAN: slab-use-after-free in ", seed) ||
	    !expect(text, " mm/", seed) ||
	    !expect(text, "Freed by task mount/", seed) ||
	    !expect(text, " fs_umount()\n", seed))
		return 1;
	f->caught = 1;
	return 0;
}

static int check_log(unsigned long long seed, int policy, const struct lab_result *res,
		     struct run_facts *f)
{
	size_t n, i;
	const struct sim_event *e = sim_log(&n);
	static char is_shrinker[MAX_OBJS], unregistered[MAX_OBJS];
	static int rcu_gp[MAX_OBJS], in_callback[MAX_OBJS];
	int depth[256] = { 0 };	/* by task id, as events carry it */
	size_t section_start[256] = { 0 };
	size_t gp_start_at[4096] = { 0 };
	int gp_cpus[4096] = { 0 }, gp_qs[4096] = { 0 };
	int freeing_callback = 0, last_gp_end = 0;
	static size_t call_rcu_at[MAX_OBJS];

	memset(is_shrinker, 0, sizeof(is_shrinker));
	memset(unregistered, 0, sizeof(unregistered));
	memset(rcu_gp, 0, sizeof(rcu_gp));
	memset(in_callback, 0, sizeof(in_callback));
	memset(f, 0, sizeof(*f));

	if (res->status != SIM_DONE)
		FAIL("run ended %s", sim_status_str(res->status));
	if (res->live_objects)
		FAIL("%lu objects leaked", res->live_objects);
	if (sim_nr_reports()) {
		int type, event;
		const char *title, *text;

		sim_report_info(0, &type, &event, &title, &text);
		FAIL("a report where no bug was planted: %s\n%s", title, text);
	}

	for (i = 0; i < n; i++) {
		const struct sim_event *ev = &e[i];
		int obj = ev->arg[0];
		const struct sim_site *site = sim_site_at((int)ev->site);

		/* Only the timed policy runs the CPUs in virtual-time order. */
		if (policy == SIM_POLICY_TIMED && i && ev->time < e[i - 1].time)
			FAIL("event %zu goes back in time", i);
		if (obj < 0 || obj >= MAX_OBJS)
			obj = 0;
		switch (ev->kind) {
		case SIM_EV_LABEL:
			if (ev->arg[1] == LABEL_SHRINKER)
				is_shrinker[obj] = 1;
			break;
		case SIM_EV_RETURN:
			if (name_is(ev->arg[0], "shrinker_free") && ev->arg[1] > 0 && ev->arg[1] < MAX_OBJS)
				unregistered[ev->arg[1]] = 1;
			break;
		case SIM_EV_SHRINKER_COUNT:
		case SIM_EV_SHRINKER_SCAN:
			if (unregistered[obj])
				FAIL("event %zu: shrinker %d called after shrinker_free() returned", i, obj);
			break;
		case SIM_EV_REFCOUNT:
			if (ev->arg[3] == 2 && ev->arg[1] == 0 && ev->arg[2] != 0)
				FAIL("event %zu: refcount of %d revived from zero", i, obj);
			if (ev->arg[2] < 0)
				FAIL("event %zu: refcount of %d below zero", i, obj);
			break;
		case SIM_EV_TASK_BLOCK:
			if (site && !strcmp(site->func, "shrinker_free") && ev->arg[1] == SIM_BLOCK_COMPLETION)
				f->waited_for_readers = 1;
			break;
		case SIM_EV_RCU_READ_LOCK:
			if (depth[ev->task]++ == 0)
				section_start[ev->task] = i;
			break;
		case SIM_EV_RCU_READ_UNLOCK:
			depth[ev->task]--;
			break;
		case SIM_EV_RCU_GP_START:
			if (ev->arg[0] < 4096) {
				gp_start_at[ev->arg[0]] = i;
				gp_cpus[ev->arg[0]] = ev->arg[1];
			}
			break;
		case SIM_EV_RCU_QS:
			if (ev->arg[0] < 4096)
				gp_qs[ev->arg[0]]++;
			break;
		case SIM_EV_RCU_GP_END: {
			int g = ev->arg[0], t;

			if (g >= 4096)
				break;
			last_gp_end = g;
			if (gp_qs[g] != gp_cpus[g])
				FAIL("grace period %d ended with %d of %d quiescent states", g, gp_qs[g], gp_cpus[g]);
			for (t = 0; t < 256; t++)
				if (depth[t] > 0 && section_start[t] < gp_start_at[g])
					FAIL("grace period %d ended inside task %d's older read-side section", g, t);
			break;
		}
		case SIM_EV_CALL_RCU:
			if (is_shrinker[obj]) {
				rcu_gp[obj] = ev->arg[1];
				call_rcu_at[obj] = i;
			}
			break;
		case SIM_EV_RCU_CALLBACK:
			freeing_callback = is_shrinker[obj] ? obj : 0;
			if (freeing_callback) {
				int g = ev->arg[1];

				if (!rcu_gp[obj] || g != rcu_gp[obj])
					FAIL("event %zu: callback for shrinker %d without its call_rcu", i, obj);
				if (last_gp_end < g)
					FAIL("event %zu: callback for shrinker %d before grace period %d ended", i, obj, g);
				if (g >= 4096 || gp_start_at[g] < call_rcu_at[obj])
					FAIL("event %zu: shrinker %d's grace period began before its call_rcu", i, obj);
				in_callback[obj] = 1;
			}
			break;
		case SIM_EV_KFREE:
			if (is_shrinker[obj]) {
				if (!in_callback[obj])
					FAIL("event %zu: shrinker %d freed outside its RCU callback", i, obj);
				f->freed_by_rcu++;
			}
			break;
		}
	}
	/* Every grace period waited for must also have ended after its call_rcu. */
	for (i = 0; i < MAX_OBJS; i++)
		if (is_shrinker[i] && !in_callback[i])
			FAIL("shrinker %zu never freed by RCU", i);
	return 0;
}

struct seed_run {
	unsigned long long seed;
	int policy, slow_ns;
};

static int one_seed(void *arg, void *out)
{
	const struct seed_run *r = arg;
	const struct scenario *sc = sim_scenario_find("shrinker-lifetime");
	struct scenario_params p = sc->defaults;
	struct lab_result res;
	struct lab_options o = { .policy = r->policy };
	char err[256];
	unsigned long long seed = r->seed;
	int bad;

	p.seed = seed;
	p.slow_ns = r->slow_ns;
	if (lab_run(sc, &p, &o, &res, err, sizeof(err)))
		FAIL("%s", err);
	if (is_break(sc))
		bad = check_caught(seed, &res, out);
	else
		bad = check_log(seed, r->policy, &res, out);
	sim_fini();
	return bad;
}

/* Run one seed in a child; its exit status carries the verdict, out the facts. */
static int run_seed(unsigned long long seed, int policy, int slow_ns, struct run_facts *f)
{
	struct seed_run r = { seed, policy, slow_ns };

	return run_in_child(one_seed, &r, f, sizeof(*f));
}

#define SEEDS 50

static int all_seeds(int policy, int seeds, int min_raced)
{
	struct run_facts f;
	int raced = 0, freed = 0;

	for (unsigned long long seed = 1; seed <= (unsigned long long)seeds; seed++) {
		ASSERT_EQ(run_seed(seed, policy, 0, &f), 0);
		raced += f.waited_for_readers;
		freed += f.freed_by_rcu;
	}
	/* The race the design exists for must actually happen, or this proves nothing. */
	printf("  %s: %d of %d seeds had shrinker_free() wait for a running shrink_slab(); "
	       "%d shrinkers freed by RCU callbacks\n", sim_policy_name(policy), raced, seeds, freed);
	ASSERT_TRUE(raced >= min_raced);
	ASSERT_EQ(freed, seeds * 3);
	return 0;
}

/*
 * Slow shrinkers (each count_objects sleeps SLOW_NS of virtual time) hold
 * the window between shrinker_free() and the last reader wide open: the
 * intact design must still hold, and each break must be caught.
 */
#define SLOW_NS 3000

static int slow_seeds(int policy, int seeds)
{
	struct run_facts f;
	int caught = 0, freed = 0;
	const struct scenario *sc = sim_scenario_find("shrinker-lifetime");

	for (unsigned long long seed = 1; seed <= (unsigned long long)seeds; seed++) {
		ASSERT_EQ(run_seed(seed, policy, SLOW_NS, &f), 0);
		caught += f.caught;
		freed += f.freed_by_rcu;
	}
	if (is_break(sc)) {
		printf("  %s, slow shrinkers: KASAN caught %s on %d of %d seeds\n",
		       sim_policy_name(policy), sc->tree, caught, seeds);
		/* The schedule is a function of the seed: the figure is exact, not a rate. */
		ASSERT_EQ(caught, seeds);
	} else {
		printf("  %s, slow shrinkers: %d of %d seeds clean, %d shrinkers freed by RCU callbacks\n",
		       sim_policy_name(policy), seeds, seeds, freed);
		ASSERT_EQ(freed, seeds * 3);
	}
	return 0;
}

TEST(invariants_hold_on_every_seed) { return all_seeds(SIM_POLICY_TIMED, SEEDS, SEEDS / 4); }
TEST(invariants_hold_round_robin) { return all_seeds(SIM_POLICY_RR, 10, 0); }
TEST(invariants_hold_random_schedules) { return all_seeds(SIM_POLICY_RANDOM, SEEDS, 1); }
TEST(slow_shrinkers_timed) { return slow_seeds(SIM_POLICY_TIMED, 20); }
TEST(slow_shrinkers_random) { return slow_seeds(SIM_POLICY_RANDOM, 20); }

int main(void)
{
	static const struct test intact[] = {
		RUN(invariants_hold_on_every_seed),
		RUN(invariants_hold_round_robin),
		RUN(invariants_hold_random_schedules),
		RUN(slow_shrinkers_timed),
		RUN(slow_shrinkers_random),
	};
	static const struct test broken[] = {
		RUN(slow_shrinkers_timed),
		RUN(slow_shrinkers_random),
	};
	const struct scenario *sc = sim_scenario_find("shrinker-lifetime");
	char title[64];

	snprintf(title, sizeof(title), "shrinker-lifetime on %s", sc->tree);
	if (is_break(sc))
		return run_tests(title, broken, sizeof(broken) / sizeof(broken[0]));
	return run_tests(title, intact, sizeof(intact) / sizeof(intact[0]));
}
