// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: random programs of operations and random schedules
 * against the real shrinker, list_lru and xarray code (scenario fuzz-ops).
 *
 * Input: 8 bytes of seed, 1 byte choosing the scheduling policy, then the
 * operation program (wasm/scenarios/fuzz_ops.c). Every run must end with
 * every task done, nothing left allocated, and no report: no KASAN
 * use-after-free, no lockdep cycle, no sleeping in atomic context, no list
 * corruption (CONFIG_DEBUG_LIST), no refcount or other WARN. Anything else
 * aborts with the report, which libFuzzer saves as a crash.
 *
 * The kernel files keep static state between runs in one process, as a
 * kernel does between uses: each input meets a kernel that has already
 * run others, and must leave it clean again.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lab/lab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct scenario *sc = sim_scenario_find("fuzz-ops");
	struct scenario_params p = sc->defaults;
	struct lab_options o = { .max_events = 200000 };
	struct lab_result res;
	char err[256];
	int i;

	if (size < 10)
		return -1;	/* not a program: do not add it to the corpus */
	memcpy(&p.seed, data, 8);
	o.policy = data[8] % SIM_NR_POLICIES;
	p.program = data + 9;
	p.program_len = size - 9;
	if (lab_run(sc, &p, &o, &res, err, sizeof(err))) {
		fprintf(stderr, "fuzz: %s\n", err);
		abort();
	}
	if (res.status != SIM_DONE || res.live_objects || sim_nr_reports()) {
		fprintf(stderr, "fuzz: run ended %s with %lu objects left and %d reports\n",
			sim_status_str(res.status), res.live_objects, sim_nr_reports());
		for (i = 0; i < sim_nr_reports(); i++) {
			int type, event;
			const char *title, *text;

			sim_report_info(i, &type, &event, &title, &text);
			fprintf(stderr, "--- report %d at event %d: %s\n%s\n", i, event, title, text);
		}
		abort();
	}
	sim_fini();
	return 0;
}
