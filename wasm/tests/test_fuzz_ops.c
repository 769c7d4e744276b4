// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzz-ops scenario's programs made from seeds, under every policy:
 * each run must end done, with nothing allocated and no report. (make fuzz
 * runs the same scenario on programs libFuzzer makes.)
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test.h"
#include "../lab/lab.h"

#define SEEDS 40

static int run_child(unsigned long long seed, int policy)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		const struct scenario *sc = sim_scenario_find("fuzz-ops");
		struct scenario_params p = sc->defaults;
		struct lab_options o = { .policy = policy, .max_events = 200000 };
		struct lab_result res;
		char err[256];

		p.seed = seed;
		if (lab_run(sc, &p, &o, &res, err, sizeof(err)))
			_exit(2);
		if (res.status != SIM_DONE || res.live_objects || sim_nr_reports()) {
			fprintf(stderr, "fuzz-ops seed %llu %s: %s, %lu objects left, %d reports\n", seed,
				sim_policy_name(policy), sim_status_str(res.status), res.live_objects,
				sim_nr_reports());
			_exit(1);
		}
		sim_fini();
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(seeded_programs_run_clean_under_every_policy)
{
	for (int policy = 0; policy < SIM_NR_POLICIES; policy++)
		for (unsigned long long seed = 1; seed <= SEEDS; seed++)
			ASSERT_EQ(run_child(seed, policy), 0);
	return 0;
}

int main(void)
{
	static const struct test tests[] = {
		RUN(seeded_programs_run_clean_under_every_policy),
	};

	char suite[64];

	/* The kernel this program was linked with, as its scenario names it. */
	snprintf(suite, sizeof(suite), "fuzz-ops on %s", sim_scenario_find("fuzz-ops")->tree);
	return run_tests(suite, tests, sizeof(tests) / sizeof(tests[0]));
}
