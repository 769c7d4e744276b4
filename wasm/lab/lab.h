/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Running a scenario and writing what happened, shared by the command-line
 * runner (native and Node) and the browser bridge, so that both print the
 * very same bytes for the same run.
 */
#ifndef SIM_LAB_H
#define SIM_LAB_H

#include <stddef.h>
#include "../runtime/runtime.h"
#include "../runtime/choice.h"
#include "../scenarios/scenario.h"

struct lab_result {
	int status;			/* enum sim_status */
	size_t events;
	unsigned long live_objects;	/* objects still allocated after the run */
	unsigned long steps;		/* scheduler decisions */
	sim_u64 end_time;		/* latest CPU clock, virtual ns */
};

struct lab_options {
	unsigned long max_events;	/* 0: no limit */
	int policy;			/* enum sim_policy */
	const char *schedule;		/* recorded schedule to follow first, or NULL */
	sim_u64 hung_task_ns;		/* 0: the default */
	unsigned long max_steps;	/* the livelock guard, in scheduler decisions; 0: the default */
	/* the OPTION parameters of params.def (quiet, no_schedule) */
#define RUN_PARAM_SCENARIO(field)
#define RUN_PARAM_OPTION(field) int field;
#define RUN_PARAM(id, to, field, flag, ts, type, max, help) RUN_PARAM_##to(field)
#include "../runtime/params.def"
#undef RUN_PARAM
#undef RUN_PARAM_OPTION
#undef RUN_PARAM_SCENARIO
};

/* The run parameters (params.def), in the order they are packed. */
enum lab_param {
#define RUN_PARAM(id, to, field, flag, ts, type, max, help) LAB_P_##id,
#include "../runtime/params.def"
#undef RUN_PARAM
	LAB_NR_PARAMS
};

enum { LAB_PARAM_NUM, LAB_PARAM_FLAG };

struct lab_param_info {
	const char *flag;	/* the command-line flag, without "--" */
	int type;		/* LAB_PARAM_NUM or LAB_PARAM_FLAG */
	int max;
	const char *help;
};

extern const struct lab_param_info lab_params[LAB_NR_PARAMS];

/*
 * Applies packed values (n of them, in params.def's order) over the
 * scenario's defaults in p and the options in o: a number of 0 keeps the
 * default, a flag is set when not 0. Returns 0, or -1 with a message in err
 * for a value out of range.
 */
int lab_apply_params(const int *v, int n, struct scenario_params *p, struct lab_options *o,
		     char *err, size_t errlen);

/*
 * One run is one boot: call once per process or wasm instance. Returns 0,
 * or -1 with a message in err (bad schedule, scenario that cannot start).
 */
int lab_run(const struct scenario *sc, const struct scenario_params *p,
	    const struct lab_options *o, struct lab_result *res, char *err, size_t errlen);

/*
 * Schedules as text: runs of decisions, "<cpu>" or "<cpu>x<count>", joined
 * by '.', e.g. "0x37.1x5.0.1x3" (37 decisions for CPU0, then 5 for CPU1...);
 * a choice point of another kind is its letter (choice.def) before the
 * alternative: "0x12.l1.1x3". Decoded into the choices and, if any is not
 * the scheduler's, their kinds (else *kinds NULL; kinds NULL: refuse
 * letters).
 */
char *lab_schedule_encode(const struct sim_decision *d, size_t n);
int lab_schedule_decode(const char *text, int nr_cpus, unsigned char **out, unsigned char **kinds,
			size_t *n, char *err, size_t errlen);

/* One event as a JSON object (no newline); returns the length written. */
int lab_event_json(size_t index, char *buf, size_t size);

/* Everything an event refers to by number: scenarios, kinds, sites, names. */
char *lab_meta_json(const struct lab_result *res);
/*
 * The same, without the schedule's text when with_schedule is 0: the page,
 * which gets the decisions themselves, makes it from them when asked (a run
 * of 64 tasks has millions of decisions, megabytes of text).
 */
char *lab_meta_json_schedule(const struct lab_result *res, int with_schedule);

/* FNV-1a over bytes, for comparing logs across builds. */
uint64_t lab_fnv1a(uint64_t h, const void *data, size_t n);
#define LAB_FNV_INIT 0xcbf29ce484222325ULL

#endif /* SIM_LAB_H */
