// SPDX-License-Identifier: GPL-2.0-only
/*
 * labrun: run a scenario and print its event log as JSON lines.
 *
 * The same source builds natively (build/native/labrun) and as wasm for
 * Node (build/wasm/labrun.cjs), so the two logs can be diffed byte for byte.
 *
 *   labrun --list
 *   labrun --scenario shrinker-lifetime --seed 7            # JSON lines
 *   labrun --scenario shrinker-lifetime --seed 7 --hash     # one digest
 *   labrun --scenario shrinker-lifetime --seed 7 --meta     # sites, names...
 *   labrun --scenario shrinker-lifetime --seed 7 --dump DIR # events.bin + meta.json
 *   labrun --scenario kunit-seq --trace                     # the normalised trace
 *
 * --dump writes the raw event and decision records and the meta JSON, exactly
 * what the browser worker hands to the page; the web engine's tests load
 * them through the same decoder.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../runtime/lab.h"
#include "../runtime/explore.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: labrun [--scenario NAME] [--seed N] [--rounds N] [--objects N]\n"
		"              [--slow-ns N] [--stress] [--policy timed|rr|random] [--schedule S]\n"
		"              [--max-events N] [--max-steps N]\n"
		"              [--containers N --mounts N --memcgs N] [--quiet] [--program B,B,...]\n"
		"              [--tasks N --lru-mode 0|1|2 --lru-fixed --lru-release-all --munmap-ns N]\n"
		"              [--hash | --meta | --summary | --schedule-out | --dump DIR | --trace |\n"
		"               --console]\n"
		"              [--stats]\n"
		"       labrun --explore [--bound K] [--max-execs N] [--time-limit S] [--no-por]\n"
		"              [--checkpoint FILE] [--pct D --runs N] (and the run options above)\n"
		"       labrun --list\n"
		"Prints the run's events as JSON lines: cpu, virtual time (ns), kind,\n"
		"kernel tree, file, line, function and arguments.\n"
		"--schedule follows a recorded schedule (as --schedule-out prints it)\n"
		"before the policy decides; the same seed and schedule replay a run.\n"
		"--slow-ns makes the scenario's shrinkers sleep that long in count_objects;\n"
		"--stress measures: grace periods at real length, stand-in work included.\n"
		"--containers, --mounts, --memcgs size memcg-bitmap's scale experiment;\n"
		"--quiet records only the scenario's calls, tasks, labels and reports.\n"
		"--tasks, --lru-mode (0 one lru_lock, 1 batch locks, 2 and splicing),\n"
		"--lru-fixed, --lru-release-all and --munmap-ns set up lru-batch (its variant\n"
		"only); --slow-ns is its fault's cost there.\n"
		"--program gives a scenario that takes one its operations, as bytes\n"
		"(memcg-bitmap: three per operation, see wasm/scenarios/memcg_bitmap.c).\n"
		"--console prints every line the kernel printed and every report's text;\n"
		"--trace prints the normalised trace the kernel's KUnit suite prints too:\n"
		"the text of every \"reclaim_lab: \" printk (kernel-tree/kunit/compare.sh).\n"
		"--explore searches the scenario's schedules (wasm/runtime/explore.c): every\n"
		"execution with at most K preemptions (default 2), bound by bound, with sleep\n"
		"sets unless --no-por; or, with --pct D, N random PCT runs for bugs of depth D.\n"
		"One JSON line per bound: executions, distinct end states, failing executions\n"
		"by kind and the shortest failing schedule. --max-execs and --time-limit stop\n"
		"it; --checkpoint FILE is where it stops and where it resumes from.\n"
		"Exit status: 0 nothing failed, 1 an execution failed, 2 an error.\n");
}

static int parse_num(const char *opt, const char *s, unsigned long long *out)
{
	char *end;

	if (!s) {
		fprintf(stderr, "labrun: %s needs a value\n", opt);
		return -1;
	}
	*out = strtoull(s, &end, 0);
	if (!*s || *end) {
		fprintf(stderr, "labrun: %s: '%s' is not a number\n", opt, s);
		return -1;
	}
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int write_file(const char *dir, const char *name, const void *data, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, n, f) != n || fclose(f)) {
		fprintf(stderr, "labrun: cannot write %s\n", path);
		return -1;
	}
	return 0;
}

#define PROGRAM_MAX 192

/* "0,0,0,4,0,0": a program's bytes, each 0 to 255. */
static int parse_program(const char *text, unsigned char *out, unsigned long *len)
{
	const char *s = text;

	*len = 0;
	while (*s) {
		char *end;
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || v > 255 || (*end && *end != ',') || *len == PROGRAM_MAX) {
			fprintf(stderr, "labrun: --program takes up to %d comma-separated bytes (0 to 255): '%s'\n",
				PROGRAM_MAX, text);
			return 1;
		}
		out[(*len)++] = (unsigned char)v;
		s = *end ? end + 1 : end;
	}
	return 0;
}

static int dump_run(const char *dir, const struct lab_result *res)
{
	size_t n;
	const struct sim_event *log = sim_log(&n);
	char *m = lab_meta_json(res);
	int err;

	size_t nd;
	const struct sim_decision *d = sim_decisions(&nd);

	err = write_file(dir, "events.bin", log, n * sizeof(*log)) ||
	      write_file(dir, "decisions.bin", d, nd * sizeof(*d)) ||
	      write_file(dir, "meta.json", m, strlen(m));
	free(m);
	return err;
}

/* The "reclaim_lab: " lines the scenario printed, as the kernel's console shows them. */
static void print_trace(void)
{
	static const char prefix[] = "reclaim_lab: ";
	size_t i, n;
	const struct sim_event *log = sim_log(&n);

	for (i = 0; i < n; i++) {
		const char *text;

		if (log[i].kind != SIM_EV_PRINTK)
			continue;
		text = sim_name_at(log[i].arg[0]);
		if (text && !strncmp(text, prefix, sizeof(prefix) - 1))
			puts(text);
	}
}

/*
 * The kernel's console: every line the run printed and every report's
 * text (WARN, BUG, lockdep, KASAN...), in the order they happened.
 */
static void print_console(void)
{
	size_t i, n;
	const struct sim_event *log = sim_log(&n);

	for (i = 0; i < n; i++) {
		const char *text = NULL, *title;
		int type, event, id = -1;

		if (log[i].kind == SIM_EV_PRINTK)
			text = sim_name_at(log[i].arg[0]);
		else if (log[i].kind == SIM_EV_WARN || log[i].kind == SIM_EV_BUG)
			id = log[i].arg[1];
		else if (log[i].kind == SIM_EV_REPORT)
			id = log[i].arg[2];
		if (id >= 0 && sim_report_info(id, &type, &event, &title, &text))
			text = NULL;
		if (text)
			printf("%s%s", text, text[0] && text[strlen(text) - 1] == '\n' ? "" : "\n");
	}
}

int main(int argc, char **argv)
{
	const char *name = "shrinker-lifetime";
	const struct scenario *sc;
	struct scenario_params p;
	struct lab_result res;
	unsigned long long v, max_events = 1000000;	/* a runaway guard */
	long long tasks = -1, lru_mode = -1, munmap_ns = -1;
	int lru_fixed = 0, lru_release_all = 0;
	long long rounds = -1, objects = -1, seed = -1, slow = -1, containers = -1, mounts = -1, memcgs = -1;
	int hash = 0, meta = 0, summary = 0, stats = 0, sched_out = 0, stress = 0, trace = 0, i;
	const char *dump = NULL;
	static unsigned char program[PROGRAM_MAX];
	unsigned long program_len = 0;
	struct lab_options opt = { .max_events = 1000000, .policy = SIM_POLICY_TIMED };
	struct explore_options xo = { .max_bound = 2, .por = 1, .pct_runs = 1000, .pct_seed = 1 };
	int explore = 0;
	char err[256];
	double t0, t1;
	char *line;
	size_t n;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--list")) {
			for (n = 0; sim_scenario_at((int)n); n++)
				printf("%s\t%s\t(%s, %d CPUs)\n", sim_scenario_at((int)n)->name,
				       sim_scenario_at((int)n)->title, sim_scenario_at((int)n)->tree,
				       sim_scenario_at((int)n)->nr_cpus);
			return 0;
		} else if (!strcmp(a, "--scenario") && next) {
			name = next;
			i++;
		} else if (!strcmp(a, "--seed") || !strcmp(a, "--rounds") || !strcmp(a, "--slow-ns") ||
			   !strcmp(a, "--objects") || !strcmp(a, "--max-events") || !strcmp(a, "--containers") ||
			   !strcmp(a, "--mounts") || !strcmp(a, "--memcgs") || !strcmp(a, "--max-steps") ||
			   !strcmp(a, "--tasks") || !strcmp(a, "--lru-mode") || !strcmp(a, "--munmap-ns")) {
			if (parse_num(a, next, &v))
				return 2;
			i++;
			if (!strcmp(a, "--seed"))
				seed = (long long)v;
			else if (!strcmp(a, "--rounds"))
				rounds = (long long)v;
			else if (!strcmp(a, "--objects"))
				objects = (long long)v;
			else if (!strcmp(a, "--slow-ns"))
				slow = (long long)v;
			else if (!strcmp(a, "--containers"))
				containers = (long long)v;
			else if (!strcmp(a, "--mounts"))
				mounts = (long long)v;
			else if (!strcmp(a, "--memcgs"))
				memcgs = (long long)v;
			else if (!strcmp(a, "--tasks"))
				tasks = (long long)v;
			else if (!strcmp(a, "--lru-mode"))
				lru_mode = (long long)v;
			else if (!strcmp(a, "--munmap-ns"))
				munmap_ns = (long long)v;
			else if (!strcmp(a, "--max-steps"))
				opt.max_steps = (unsigned long)v;
			else
				max_events = v;
		} else if (!strcmp(a, "--explore")) {
			explore = 1;
		} else if (!strcmp(a, "--no-por")) {
			xo.por = 0;
		} else if (!strcmp(a, "--checkpoint") && next) {
			xo.checkpoint = next;
			i++;
		} else if (!strcmp(a, "--time-limit") && next) {
			xo.max_seconds = atof(next);
			i++;
		} else if (!strcmp(a, "--bound") || !strcmp(a, "--max-execs") || !strcmp(a, "--pct") ||
			   !strcmp(a, "--runs")) {
			if (parse_num(a, next, &v))
				return 2;
			i++;
			if (!strcmp(a, "--bound"))
				xo.max_bound = (int)v;
			else if (!strcmp(a, "--max-execs"))
				xo.max_execs = (unsigned long)v;
			else if (!strcmp(a, "--pct"))
				xo.pct_depth = (int)v;
			else
				xo.pct_runs = (unsigned long)v;
		} else if (!strcmp(a, "--policy") && next) {
			opt.policy = sim_policy_from_name(next);
			if (opt.policy < 0) {
				fprintf(stderr, "labrun: unknown policy '%s' (timed, rr or random)\n", next);
				return 2;
			}
			i++;
		} else if (!strcmp(a, "--program") && next) {
			if (parse_program(next, program, &program_len))
				return 2;
			i++;
		} else if (!strcmp(a, "--schedule") && next) {
			opt.schedule = next;
			i++;
		} else if (!strcmp(a, "--schedule-out")) {
			sched_out = 1;
		} else if (!strcmp(a, "--dump") && next) {
			dump = next;
			i++;
		} else if (!strcmp(a, "--hash")) {
			hash = 1;
		} else if (!strcmp(a, "--meta")) {
			meta = 1;
		} else if (!strcmp(a, "--summary")) {
			summary = 1;
		} else if (!strcmp(a, "--trace")) {
			trace = 1;
		} else if (!strcmp(a, "--console")) {
			trace = 2;
		} else if (!strcmp(a, "--stats")) {
			stats = 1;
		} else if (!strcmp(a, "--stress")) {
			stress = 1;
		} else if (!strcmp(a, "--lru-fixed")) {
			lru_fixed = 1;
		} else if (!strcmp(a, "--lru-release-all")) {
			lru_release_all = 1;
		} else if (!strcmp(a, "--quiet")) {
			opt.quiet = 1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "labrun: unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		}
	}

	sc = sim_scenario_find(name);
	if (!sc) {
		fprintf(stderr, "labrun: no scenario '%s' (try --list)\n", name);
		return 2;
	}
	p = sc->defaults;
	if (seed >= 0)
		p.seed = (unsigned long long)seed;
	if (rounds >= 0)
		p.rounds = (int)rounds;
	if (objects >= 0)
		p.objects = (int)objects;
	if (slow >= 0)
		p.slow_ns = (int)slow;
	p.stress = stress;
	if (containers >= 0)
		p.containers = (int)containers;
	if (mounts >= 0)
		p.mounts = (int)mounts;
	if (tasks >= 0)
		p.tasks = (int)tasks;
	if (lru_mode >= 0)
		p.lru_mode = (int)lru_mode;
	if (munmap_ns >= 0)
		p.munmap_ns = (int)munmap_ns;
	p.lru_fixed = lru_fixed;
	p.lru_release_all = lru_release_all;
	if (memcgs >= 0)
		p.memcgs = (int)memcgs;
	if (program_len) {
		p.program = program;
		p.program_len = program_len;
	}
	if (p.rounds > 1000 || p.objects > 10000 || p.slow_ns > 10000000) {
		fprintf(stderr, "labrun: --rounds is at most 1000, --objects 10000, --slow-ns 10000000\n");
		return 2;
	}

	opt.max_events = (unsigned long)max_events;
	if (explore) {
		xo.pct_seed = p.seed;
		switch (explore_run(sc, &p, &xo, stdout, NULL)) {
		case 0: return 0;
		case 1: return 1;
		default: return 2;
		}
	}
	t0 = now_seconds();
	if (lab_run(sc, &p, &opt, &res, err, sizeof(err))) {
		fprintf(stderr, "labrun: %s\n", err);
		return 2;
	}
	t1 = now_seconds();

	line = malloc(4096);
	if (!line)
		return 2;
	if (dump) {
		if (dump_run(dump, &res)) {
			free(line);
			sim_fini();
			return 2;
		}
	} else if (sched_out) {
		size_t nd;
		const struct sim_decision *d = sim_decisions(&nd);
		char *text = lab_schedule_encode(d, nd);

		puts(text ? text : "");
		free(text);
	} else if (meta) {
		char *m = lab_meta_json(&res);

		puts(m);
		free(m);
	} else if (trace == 2) {
		print_console();
	} else if (trace) {
		print_trace();
	} else if (hash) {
		uint64_t h = LAB_FNV_INIT;

		for (n = 0; n < res.events; n++) {
			int len = lab_event_json(n, line, 4096);

			h = lab_fnv1a(h, line, (size_t)len);
			h = lab_fnv1a(h, "\n", 1);
		}
		printf("%016llx %zu events %s\n", (unsigned long long)h, res.events,
		       sim_status_str(res.status));
	} else if (!summary) {
		for (n = 0; n < res.events; n++) {
			lab_event_json(n, line, 4096);
			puts(line);
		}
	}
	if (summary || stats)
		fprintf(summary ? stdout : stderr,
			"scenario %s seed %llu: %s, %zu events, %lu scheduler steps, "
			"%llu ns virtual, %lu objects left, %d reports\n",
			sc->name, p.seed, sim_status_str(res.status), res.events, res.steps,
			(unsigned long long)res.end_time, res.live_objects, sim_nr_reports());
	if (stats)
		fprintf(stderr, "%.3f s, %.0f events/s\n", t1 - t0,
			t1 > t0 ? (double)sim_events_seen() / (t1 - t0) : 0.0);
	free(line);
	sim_fini();
	return res.status == SIM_DONE && res.live_objects == 0 ? 0 : 1;	/* reports are not failures here */
}
