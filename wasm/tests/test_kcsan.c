// SPDX-License-Identifier: GPL-2.0-only
/*
 * The race detector (wasm/runtime/kcsan/) on the planted-race scenario:
 * the plain store and load nothing orders are reported once, in KCSAN's
 * words, with both accesses' lines (the compiler's debug information gives
 * them natively); the same accesses inside data_race(), or ordered by a
 * release and an acquire, are not. Under every scheduling policy and
 * memory model, and with the writer or the reader first.
 */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../lab/lab.h"

static const char *source = "wasm/scenarios/planted_race.c";

static int line_of(const char *text)
{
	FILE *f = fopen(source, "r");
	char buf[512];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f)) {
		n++;
		if (strstr(buf, text)) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	return -1;
}

/* planted-race with kcsan on: how many KCSAN reports, the last one's text in *text. */
static int run_race(int planted, int policy, int memory, unsigned long long seed, const char **text)
{
	const struct scenario *sc = sim_scenario_find("planted-race");
	struct scenario_params p = sc->defaults;
	struct lab_options o = { .policy = policy };
	struct lab_result res;
	char err[256];
	int i, n = 0;

	p.planted = planted;
	p.seed = seed;
	p.memory = memory;
	p.kcsan = 1;
	*text = NULL;
	if (lab_run(sc, &p, &o, &res, err, sizeof(err)) != 0 || res.status != SIM_DONE) {
		fprintf(stderr, "planted-race %d: %s\n", planted, err);
		return -1;
	}
	for (i = 0; i < sim_nr_reports(); i++) {
		int type, event;
		const char *title, *t;

		sim_report_info(i, &type, &event, &title, &t);
		if (type == SIM_REPORT_KCSAN) {
			n++;
			*text = t;
		}
	}
	return n;
}

static int has(const char *text, const char *fmt, int line)
{
	char want[200];

	snprintf(want, sizeof(want), fmt, source, line);
	if (text && strstr(text, want))
		return 1;
	fprintf(stderr, "expected \"%s\" in:\n%s\n", want, text ? text : "(no report)");
	return 0;
}

TEST(a_planted_race_is_reported_with_both_lines)
{
	static const int policies[] = { SIM_POLICY_TIMED, SIM_POLICY_RR, SIM_POLICY_RANDOM };
	int write = line_of("RACE: the write"), read = line_of("RACE: the read");
	int m, k, seed, writer_first = 0, reader_first = 0;

	for (m = 0; m < SIM_NR_MEMORY_MODELS; m++)
		for (k = 0; k < 3; k++)
			for (seed = 1; seed <= 4; seed++) {
				const char *text;

				ASSERT_EQ(run_race(0, policies[k], m, seed, &text), 1);
				ASSERT_TRUE(strstr(text, "BUG: KCSAN: data-race in ") != NULL);
				ASSERT_TRUE(has(text, "the access: write_value %s:%d", write));
				ASSERT_TRUE(has(text, "the access: read_value %s:%d", read));
				ASSERT_TRUE(strstr(text, "of 4 bytes by task writer/") != NULL);
				ASSERT_TRUE(strstr(text, "of 4 bytes by task reader/") != NULL);
				if (strstr(text, "write to ") < strstr(text, "read to "))
					writer_first++;
				else
					reader_first++;
				sim_fini();
			}
	/* the schedules put either access first */
	ASSERT_TRUE(writer_first > 0);
	ASSERT_TRUE(reader_first > 0);
	return 0;
}

TEST(data_race_annotated_and_ordered_accesses_are_not_reported)
{
	int m, seed, planted;

	for (planted = 1; planted <= 2; planted++)
		for (m = 0; m < SIM_NR_MEMORY_MODELS; m++)
			for (seed = 1; seed <= 6; seed++) {
				const char *text;

				ASSERT_EQ(run_race(planted, SIM_POLICY_RANDOM, m, seed, &text), 0);
				sim_fini();
			}
	return 0;
}

int main(void)
{
	static const struct test tests[] = {
		RUN(a_planted_race_is_reported_with_both_lines),
		RUN(data_race_annotated_and_ordered_accesses_are_not_reported),
	};

	return run_tests("kcsan", tests, sizeof(tests) / sizeof(tests[0]));
}
