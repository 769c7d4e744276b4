/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Running a scenario and writing what happened, shared by the command-line
 * runner (native and Node) and the browser bridge, so that both print the
 * very same bytes for the same run.
 */
#ifndef SIM_LAB_H
#define SIM_LAB_H

#include <stddef.h>
#include "runtime.h"
#include "../scenarios/scenario.h"

struct lab_result {
	int status;			/* enum sim_status */
	size_t events;
	unsigned long live_objects;	/* objects still allocated after the run */
	unsigned long steps;		/* scheduler decisions */
	sim_u64 end_time;		/* latest CPU clock, virtual ns */
};

/* One run is one boot: call once per process or wasm instance. */
int lab_run(const struct scenario *sc, const struct scenario_params *p,
	    unsigned long max_events, struct lab_result *res);

/* One event as a JSON object (no newline); returns the length written. */
int lab_event_json(size_t index, char *buf, size_t size);

/* Everything an event refers to by number: scenarios, kinds, sites, names. */
char *lab_meta_json(const struct lab_result *res);

/* FNV-1a over bytes, for comparing logs across builds. */
uint64_t lab_fnv1a(uint64_t h, const void *data, size_t n);
#define LAB_FNV_INIT 0xcbf29ce484222325ULL

#endif /* SIM_LAB_H */
