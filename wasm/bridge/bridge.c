// SPDX-License-Identifier: GPL-2.0-only
/*
 * The boundary between the browser and the simulated kernel. Every function
 * the web worker may call is here and in exports.json, nowhere else, with
 * its parameter and result types there: the 64-bit module (emcc
 * -sMEMORY64=2) gives and takes each pointer and size_t as a BigInt, and
 * the worker converts by those types (web/src/engine/bridge.ts); the
 * build checks them against each linked module.
 *
 * The call chain across it (web/src/engine/worker.ts):
 *   worker: instantiate a fresh module (one run is one boot: the kernel
 *           files keep static state, as a booted kernel does)
 *   -> lab_bridge_run(scenario, seed, params[], max_events, max_steps,
 *                     policy, schedule, program)
 *        params[]: the run parameters packed in wasm/runtime/params.def's
 *        order (the worker packs them with the generated params.ts)
 *        runs the whole scenario to completion on the simulated CPUs,
 *        following the given schedule first (lab_bridge_error() on failure);
 *        a long run calls the module's onProgress(done, total) as it goes
 *   -> lab_bridge_events() / lab_bridge_event_count()
 *        the 32-byte event records (layout: wasm/runtime/events.def,
 *        decoded by the generated web/src/engine/generated/events.ts),
 *        copied out by the worker and transferred to the page
 *   -> lab_bridge_decisions() / lab_bridge_decision_count()
 *        each scheduling decision: the event it came before, the CPU
 *        chosen, the CPU that ran last and the runnable CPUs (for manual play)
 *   (the page's "not yet seen" of a window of events, web/src/engine/unseen.ts:
 *    lab_bridge_unseen_window(from) before the run, max_events its end)
 *   -> lab_bridge_unseen() / lab_bridge_unseen_count()
 *        what each CPU had not yet seen of the others' stores: 56-byte
 *        records (struct sim_unseen, UNSEEN_OFFSETS), read before the meta,
 *        which then names the sites they name
 *   -> lab_bridge_meta(with_schedule)
 *        JSON naming what events refer to by number: sites (kernel tree,
 *        file, line, function), names, tasks, event kinds, the cost model
 * The Explore panel's worker (web/src/explore/worker.ts) calls instead
 *   -> lab_bridge_explore(scenario, seed, params[], bound, ..., program)
 *        many boots in the one module (the explorer puts the memory back
 *        after each), telling Module.onExplore(json) as it goes
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <emscripten/emscripten.h>
#include "../explore/explore.h"
#include "../lab/lab.h"
#include "../runtime/strbuf.h"

static struct lab_result result;
static char error[256];

/* Into the worker: Module.onProgress, given to the module when it was made. */
static void bridge_progress(int done, int total)
{
	EM_ASM({ if (Module['onProgress']) Module['onProgress']($0, $1); }, done, total);
}

/* JSON list of the scenarios with their defaults. Caller frees. */
EMSCRIPTEN_KEEPALIVE char *lab_bridge_scenarios(void)
{
	size_t cap = 4096, n = 0;
	char *s = malloc(cap);
	int i;

	if (!s)
		return NULL;
	n += (size_t)snprintf(s + n, cap - n, "[");
	for (i = 0; sim_scenario_at(i) && n < cap; i++) {
		const struct scenario *sc = sim_scenario_at(i);

		n += (size_t)snprintf(s + n, cap - n,
				      "%s{\"name\":\"%s\",\"title\":\"%s\",\"tree\":\"%s\",\"cpus\":%d,"
				      "\"nodes\":%d,\"seed\":%llu,\"rounds\":%d,\"objects\":%d}",
				      i ? "," : "", sc->name, sc->title, sc->tree, sc->nr_cpus,
				      sc->nr_nodes, sc->defaults.seed, sc->defaults.rounds,
				      sc->defaults.objects);
	}
	if (n < cap)
		snprintf(s + n, cap - n, "]");
	return s;
}

/*
 * Returns the run's status (enum sim_status), or -1 with a message for
 * lab_bridge_error(): no such scenario, a bad policy or schedule.
 */
EMSCRIPTEN_KEEPALIVE int lab_bridge_run(const char *name, unsigned seed_lo, unsigned seed_hi,
					const int *params, int nparams, unsigned max_events,
					unsigned max_steps, int policy, const char *schedule,
					const unsigned char *program, int program_len)
{
	const struct scenario *sc = sim_scenario_find(name);
	struct lab_options o = { .max_events = max_events, .max_steps = max_steps, .policy = policy,
				 .schedule = schedule };
	struct scenario_params p;

	if (!sc) {
		snprintf(error, sizeof(error), "no scenario named \"%s\"", name);
		return -1;
	}
	if (policy < 0 || policy >= SIM_NR_POLICIES) {
		snprintf(error, sizeof(error), "no scheduling policy %d", policy);
		return -1;
	}
	p = sc->defaults;
	p.seed = ((unsigned long long)seed_hi << 32) | seed_lo;
	if (lab_apply_params(params, nparams, &p, &o, error, sizeof(error)))
		return -1;
	if (program_len > 0) {
		p.program = program;
		p.program_len = (unsigned long)program_len;
	}
	sim_progress_hook = bridge_progress;
	if (lab_run(sc, &p, &o, &result, error, sizeof(error)))
		return -1;
	return result.status;
}

EMSCRIPTEN_KEEPALIVE const char *lab_bridge_error(void)
{
	return error;
}

EMSCRIPTEN_KEEPALIVE int lab_bridge_event_count(void)
{
	return (int)result.events;
}

EMSCRIPTEN_KEEPALIVE const struct sim_event *lab_bridge_events(void)
{
	size_t n;

	return sim_log(&n);
}

/* The run's scheduling decisions (16-byte records, DECISION_OFFSETS). */
EMSCRIPTEN_KEEPALIVE const struct sim_decision *lab_bridge_decisions(void)
{
	size_t n;

	return sim_decisions(&n);
}

EMSCRIPTEN_KEEPALIVE int lab_bridge_decision_count(void)
{
	size_t n;

	sim_decisions(&n);
	return (int)n;
}

/* The next run keeps what each CPU has not yet seen (tso, relaxed), from event `from` on. */
EMSCRIPTEN_KEEPALIVE void lab_bridge_unseen_window(unsigned from)
{
	sim_mm_unseen_on = 1;
	sim_mm_unseen_from = from;
}

EMSCRIPTEN_KEEPALIVE const struct sim_unseen *lab_bridge_unseen(void)
{
	size_t n;

	return mm_unseen_records(&n);
}

EMSCRIPTEN_KEEPALIVE int lab_bridge_unseen_count(void)
{
	size_t n;

	mm_unseen_records(&n);
	return (int)n;
}

/* Caller frees. */
EMSCRIPTEN_KEEPALIVE char *lab_bridge_meta(int with_schedule)
{
	return lab_meta_json_schedule(&result, with_schedule);
}

/*
 * The explorer (wasm/explore/) in the page's Explore panel: each
 * thing it tells goes to the module's onExplore(json) as one JSON object:
 * {"progress":...} at most every 100 ms, {"failing":...} for each of the
 * shortest failing schedules, {"summary":...} with each bound's line.
 */
struct bridge_explore {
	double last;
};

static void bridge_explore_tell(void *ctx, const struct explore_progress *p)
{
	struct bridge_explore *b = ctx;
	double now = emscripten_get_now();
	struct strbuf s = { 0 };
	int k, first = 1;

	if (!p->schedule && !p->summary && now - b->last < 100)
		return;
	b->last = now;
	sb_put(&s, "{\"progress\":{\"bound\":%d,\"executions\":%lu,\"blocked\":%lu,\"failing\":%lu,"
		   "\"end_states\":%zu,\"seconds\":%.3f}",
	       p->bound, p->executions, p->blocked, p->failing, p->end_states, p->seconds);
	if (p->schedule) {
		sb_put(&s, ",\"failing\":{\"preemptions\":%d,\"decisions\":%u,\"kinds\":[", p->preemptions,
		       p->decisions);
		for (k = 0; explore_fail_kind(k); k++)
			if (p->kinds & (1u << k)) {
				sb_put(&s, "%s", first ? "" : ",");
				sb_json(&s, explore_fail_kind(k));
				first = 0;
			}
		sb_put(&s, "],\"schedule\":");
		sb_json(&s, p->schedule);
		sb_put(&s, ",\"step\":%d,\"report\":", p->step);
		sb_json(&s, p->report ? p->report : "");
		if (p->branch >= 0)
			sb_put(&s, ",\"branch\":{\"decision\":%d,\"step\":%d,\"cpu\":%d,\"from\":%d}",
			       p->branch, p->branch_step, p->branch_cpu, p->branch_from);
		sb_put(&s, "}");
	}
	if (p->summary)
		sb_put(&s, ",\"summary\":%s", p->summary);
	sb_put(&s, "}");
	/* Number(): a pointer is a BigInt in the 64-bit module */
	EM_ASM({ if (Module['onExplore']) Module['onExplore'](UTF8ToString(Number($0))); }, s.s);
	free(s.s);
}

/*
 * Search the scenario's schedules: every execution with at most max_bound
 * preemptions, bound by bound (por: with sleep sets), or with pct_depth > 0
 * pct_runs PCT runs; max_execs and max_seconds stop it (0: no limit). The
 * failing list tells the shortest `failing` schedules; program, if not
 * empty, is the scenario's program of operations. Returns 0 nothing
 * failed, 1 an execution failed, -1 an error (lab_bridge_error()).
 */
EMSCRIPTEN_KEEPALIVE int lab_bridge_explore(const char *name, unsigned seed_lo, unsigned seed_hi,
					    const int *params, int nparams, int max_bound, int por,
					    int pct_depth, int pct_runs, unsigned max_execs,
					    double max_seconds, int failing,
					    const unsigned char *program, int program_len)
{
	const struct scenario *sc = sim_scenario_find(name);
	struct lab_options o = { 0 };
	struct scenario_params p;
	struct bridge_explore b = { 0 };
	struct explore_options xo = { .max_bound = max_bound, .por = por, .pct_depth = pct_depth,
				      .pct_runs = (unsigned long)pct_runs, .max_execs = max_execs,
				      .max_seconds = max_seconds, .progress = bridge_explore_tell,
				      .progress_ctx = &b, .progress_failing = failing };
	int r;

	if (!sc) {
		snprintf(error, sizeof(error), "no scenario named \"%s\"", name);
		return -1;
	}
	p = sc->defaults;
	p.seed = ((unsigned long long)seed_hi << 32) | seed_lo;
	if (lab_apply_params(params, nparams, &p, &o, error, sizeof(error)))
		return -1;
	if (program_len > 0) {
		p.program = program;
		p.program_len = (unsigned long)program_len;
	}
	xo.pct_seed = p.seed;
	sim_progress_hook = NULL;
	r = explore_run(sc, &p, &xo, NULL, NULL);
	if (r < 0)
		snprintf(error, sizeof(error), "the explorer stopped on an error (see the console)");
	return r;
}
