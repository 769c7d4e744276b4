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
 *   labrun --scenario kunit-seq --ftrace                    # the tracepoints, as tracefs
 *
 * --dump writes the raw event and decision records and the meta JSON, exactly
 * what the browser worker hands to the page; the web engine's tests load
 * them through the same decoder.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif
#include "../lab/lab.h"
#include "../explore/explore.h"

/* The options that are not run parameters (those come from params.def). */
enum {
	OPT_LIST = 1000, OPT_SCENARIO, OPT_SEED, OPT_POLICY, OPT_SCHEDULE, OPT_MAX_EVENTS,
	OPT_MAX_STEPS, OPT_PROGRAM, OPT_HASH, OPT_META, OPT_SUMMARY, OPT_SCHEDULE_OUT, OPT_DUMP,
	OPT_TRACE, OPT_FTRACE, OPT_STATS, OPT_HELP, OPT_CONSOLE, OPT_EXPLORE, OPT_NO_POR, OPT_FORK, OPT_CHECKPOINT,
	OPT_TIME_LIMIT, OPT_BOUND, OPT_MAX_EXECS, OPT_PCT, OPT_RUNS, OPT_REPEAT, OPT_CHOICE_BOUND, OPT_AT_BOUND,
	OPT_JOBS, OPT_SHARD, OPT_UNSEEN, OPT_UNSEEN_CHECK, OPT_UNSEEN_FROM,
};

static const struct option fixed_options[] = {
	{ "list",         no_argument,       NULL, OPT_LIST },
	{ "scenario",     required_argument, NULL, OPT_SCENARIO },
	{ "seed",         required_argument, NULL, OPT_SEED },
	{ "policy",       required_argument, NULL, OPT_POLICY },
	{ "schedule",     required_argument, NULL, OPT_SCHEDULE },
	{ "max-events",   required_argument, NULL, OPT_MAX_EVENTS },
	{ "max-steps",    required_argument, NULL, OPT_MAX_STEPS },
	{ "program",      required_argument, NULL, OPT_PROGRAM },
	{ "hash",         no_argument,       NULL, OPT_HASH },
	{ "unseen",       no_argument,       NULL, OPT_UNSEEN },
	{ "unseen-check", no_argument,       NULL, OPT_UNSEEN_CHECK },
	{ "unseen-from",  required_argument, NULL, OPT_UNSEEN_FROM },
	{ "meta",         no_argument,       NULL, OPT_META },
	{ "summary",      no_argument,       NULL, OPT_SUMMARY },
	{ "schedule-out", no_argument,       NULL, OPT_SCHEDULE_OUT },
	{ "dump",         required_argument, NULL, OPT_DUMP },
	{ "trace",        no_argument,       NULL, OPT_TRACE },
	{ "ftrace",       no_argument,       NULL, OPT_FTRACE },
	{ "stats",        no_argument,       NULL, OPT_STATS },
	{ "repeat",       required_argument, NULL, OPT_REPEAT },
	{ "help",         no_argument,       NULL, OPT_HELP },
	{ "console",      no_argument,       NULL, OPT_CONSOLE },
	{ "explore",      no_argument,       NULL, OPT_EXPLORE },
	{ "no-por",       no_argument,       NULL, OPT_NO_POR },
	{ "fork",         no_argument,       NULL, OPT_FORK },
	{ "checkpoint",   required_argument, NULL, OPT_CHECKPOINT },
	{ "time-limit",   required_argument, NULL, OPT_TIME_LIMIT },
	{ "bound",        required_argument, NULL, OPT_BOUND },
	{ "at-bound",     no_argument,       NULL, OPT_AT_BOUND },
	{ "max-execs",    required_argument, NULL, OPT_MAX_EXECS },
	{ "pct",          required_argument, NULL, OPT_PCT },
	{ "runs",         required_argument, NULL, OPT_RUNS },
	{ "choice-bound", required_argument, NULL, OPT_CHOICE_BOUND },
	{ "jobs",         required_argument, NULL, OPT_JOBS },
	{ "shard",        required_argument, NULL, OPT_SHARD },
};
#define NR_FIXED (sizeof(fixed_options) / sizeof(fixed_options[0]))

/* getopt_long's table: the run parameters (val: OPT_PARAM + their index), then the rest. */
#define OPT_PARAM 2000
static struct option long_options[LAB_NR_PARAMS + NR_FIXED + 1];

static void build_options(void)
{
	int i;

	for (i = 0; i < LAB_NR_PARAMS; i++)
		long_options[i] = (struct option){ lab_params[i].flag,
			lab_params[i].type == LAB_PARAM_FLAG ? no_argument : required_argument, NULL,
			OPT_PARAM + i };
	memcpy(long_options + LAB_NR_PARAMS, fixed_options, sizeof(fixed_options));
}

static void usage(FILE *f)
{
	int i;

	fprintf(f,
		"usage: labrun [--scenario NAME] [--seed N] [--policy timed|rr|random] [--schedule S]\n"
		"              [--max-events N] [--max-steps N] [--no-schedule] [--program B,B,...]\n"
		"              [run parameters]\n"
		"              [--hash | --meta | --summary | --schedule-out | --dump DIR | --trace |\n"
		"               --console | --ftrace]\n"
		"              [--stats [--repeat N]]\n"
		"       labrun --explore [--bound K] [--max-execs N] [--time-limit S] [--no-por]\n"
		"              [--fork] [--checkpoint FILE] [--pct D --runs N] [--choice-bound KIND=N ...]\n"
		"              [--at-bound] [--jobs N | --shard I/N] (and the run options above)\n"
		"       labrun --explore-merge FILE...\n"
		"       labrun --list\n"
		"Prints the run's events as JSON lines: cpu, virtual time (ns), kind,\n"
		"kernel tree, file, line, function and arguments.\n"
		"--schedule follows a recorded schedule (as --schedule-out prints it)\n"
		"before the policy decides; the same seed and schedule replay a run.\n"
		"--no-schedule keeps no record of the scheduler's decisions (16 bytes each:\n"
		"past 67 million, the record's growth to 2 GiB fails in a 32-bit process);\n"
		"the run cannot then be replayed, dumped or explored.\n"
		"--program gives a scenario that takes one its operations, as bytes\n"
		"(memcg-bitmap: three per operation, see wasm/scenarios/memcg_bitmap.c).\n"
		"--stats prints the run's wall and CPU time; --repeat N runs it N times in\n"
		"this process and prints each run's (the first pays for loading: in wasm,\n"
		"compiling the module; later ones show the steady state). A process\n"
		"is one boot: later runs start from the kernel state the earlier ones\n"
		"left, and may differ from the first (inode-lru's stop in a deadlock).\n"
		"--dump writes events.bin, decisions.bin and meta.json, as the browser gets them\n"
		"(and unseen.bin with --unseen).\n"
		"--unseen keeps, under tso and relaxed, what each CPU has not yet seen of the\n"
		"others' stores, as the page does, and prints its size and the log's to stderr;\n"
		"--unseen-check also checks it against the model at every event (slow);\n"
		"--unseen-from N keeps it from event N on, as the page asks for a window.\n"
		"--console prints every line the kernel printed and every report's text;\n"
		"--trace prints the normalised trace the kernel's KUnit suite prints too:\n"
		"the text of every \"reclaim_lab: \" printk (kernel-tree/kunit/compare.sh).\n"
		"--ftrace prints the run's trace buffer as the kernel's tracing/trace file\n"
		"shows it with options/irq-info off: the shrink_slab tracepoints' text.\n"
		"--explore searches the scenario's schedules (wasm/explore/): every\n"
		"execution with at most K preemptions (default 2), bound by bound, with sleep\n"
		"sets unless --no-por; or, with --pct D, N random PCT runs for bugs of depth D.\n"
		"--at-bound searches at K at once, not bound by bound: nothing is deferred,\n"
		"so sleep sets prune all they can (one summary; the litmus tests).\n"
		"One JSON line per bound: executions, distinct end states, failing executions\n"
		"by kind and the shortest failing schedule. --max-execs and --time-limit stop\n"
		"it; --checkpoint FILE is where it stops and where it resumes from.\n"
		"--choice-bound KIND=N bounds the cost of the choice points of a kind other\n"
		"than the scheduler's in one execution (wasm/runtime/choice.def: its default).\n"
		"Natively without sanitizers each execution runs in this process, whose\n"
		"memory is put back after it; --fork runs each in a forked child instead,\n"
		"as the sanitizer builds do (the same summaries, slower).\n"
		"--jobs N splits the depth-first search into N shards run side by side in\n"
		"child processes and prints their merged summaries: the one search's, all\n"
		"but seconds and rate. --shard I/N (I from 0) runs shard I alone and prints\n"
		"its record instead, for a batch system to run the shards anywhere;\n"
		"--explore-merge reads the N records and prints the summaries.\n"
		"Exit status: 0 nothing failed, 1 an execution failed, 2 an error.\n"
		"Run parameters (wasm/runtime/params.def; a number of 0 keeps the scenario's default):\n");
	for (i = 0; i < LAB_NR_PARAMS; i++) {
		char left[40];

		snprintf(left, sizeof(left), "--%s%s", lab_params[i].flag,
			 lab_params[i].type == LAB_PARAM_NUM ? " N" : "");
		fprintf(f, "  %-20s %s", left, lab_params[i].help);
		if (lab_params[i].type == LAB_PARAM_NUM)
			fprintf(f, " [at most %d]", lab_params[i].max);
		fprintf(f, "\n");
	}
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

/*
 * CPU time of the process, for --stats: on a shared machine the wall
 * clock also counts others' work. Node's process.cpuUsage() in wasm.
 */
#ifdef __EMSCRIPTEN__
EM_JS(double, cpu_seconds, (void), {
	var u = process.cpuUsage();
	return (u.user + u.system) / 1e6;
});
/*
 * And the CPU time of Node's main thread alone (Linux's per-thread
 * schedstat), where the module runs: the rest is V8's other threads,
 * mostly its optimising compiler tiering the module up. -1: unknown.
 */
EM_JS(double, main_thread_seconds, (void), {
	try {
		var f = '/proc/self/task/' + process.pid + '/schedstat';
		return Number(require('fs').readFileSync(f, 'utf8').split(' ')[0]) / 1e9;
	} catch (e) {
		return -1;
	}
});

/* --stats in wasm: how a run's CPU time splits between the threads. */
static void print_threads(double c, double m)
{
	if (m >= 0)
		fprintf(stderr, "of which %.3f s on Node's main thread, %.3f s on its other threads\n",
			m, c - m);
}
#else
static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double main_thread_seconds(void)
{
	return -1;	/* one thread: all of cpu_seconds() */
}

static void print_threads(double c, double m)
{
	(void)c;
	(void)m;
}
#endif

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
	size_t n, nu;
	const struct sim_event *log = sim_log(&n);
	const struct sim_unseen *u = mm_unseen_records(&nu);	/* before the meta: it names their sites */
	char *m = lab_meta_json(res);
	int err;

	size_t nd;
	const struct sim_decision *d = sim_decisions(&nd);

	err = write_file(dir, "events.bin", log, n * sizeof(*log)) ||
	      write_file(dir, "decisions.bin", d, nd * sizeof(*d)) ||
	      (sim_mm_unseen_on && write_file(dir, "unseen.bin", u, nu * sizeof(*u))) ||
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
 * The trace buffer (runtime/ftrace.c), after the header the kernel's
 * tracing/trace prints with options/irq-info off (print_func_help_header()).
 */
static void print_ftrace(void)
{
	int lines;
	const char *text = sim_ftrace_text(&lines);

	printf("# tracer: nop\n#\n# entries-in-buffer/entries-written: %d/%d   #P:%d\n#\n"
	       "#           TASK-PID     CPU#     TIMESTAMP  FUNCTION\n"
	       "#              | |         |         |         |\n%s",
	       lines, lines, sim_nr_cpus(), text);
}

/*
 * The kernel's console: every line the run printed and every report's
 * text (WARN, BUG, lockdep, KASAN...), in the order they happened. A
 * printk() that starts with KERN_CONT (pr_cont()) continues the line
 * before it when that one did not end in a newline, as the kernel's
 * printk() does; otherwise every text ends a line.
 */
#define SIM_KERN_CONT	"\001c"	/* include/linux/kern_levels.h */
static void print_console(void)
{
	size_t i, n;
	const struct sim_event *log = sim_log(&n);
	int open = 0;	/* the last line printed is not ended yet */

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
		if (!text)
			continue;
		if (log[i].kind == SIM_EV_PRINTK && !strncmp(text, SIM_KERN_CONT, 2)) {
			text += 2;
		} else {
			if (open)
				putchar('\n');
			if (!text[0])
				putchar('\n');	/* an empty line */
		}
		open = text[0] && text[strlen(text) - 1] != '\n';
		fputs(text, stdout);
	}
	if (open)
		putchar('\n');
}

/* labrun --explore-merge FILE...: the shards' records (--shard I/N) merged into the summaries. */
static int merge(int n, char **paths)
{
	FILE *f[256];
	int i, r;

	if (n < 1 || n > 256) {
		fprintf(stderr, "labrun: --explore-merge takes the 1 to 256 records of one search's shards\n");
		return 2;
	}
	for (i = 0; i < n; i++)
		if (!(f[i] = fopen(paths[i], "r"))) {
			perror(paths[i]);
			return 2;
		}
	r = explore_merge(f, n, stdout, NULL);
	for (i = 0; i < n; i++)
		fclose(f[i]);
	return r < 0 ? 2 : r;
}

int main(int argc, char **argv)
{
	const char *name = "shrinker-lifetime";
	const struct scenario *sc;
	struct scenario_params p;
	struct lab_result res;
	unsigned long long v, max_events = 1000000;	/* a runaway guard */
	long long seed = -1;
	int values[LAB_NR_PARAMS] = { 0 };
	char flag[40];
	int hash = 0, meta = 0, summary = 0, stats = 0, sched_out = 0, trace = 0, ch;
	unsigned long long repeat = 1;
	const char *dump = NULL;
	static unsigned char program[PROGRAM_MAX];
	unsigned long program_len = 0;
	struct lab_options opt = { .max_events = 1000000, .policy = SIM_POLICY_TIMED };
	struct explore_options xo = { .max_bound = 2, .por = 1, .pct_runs = 1000, .pct_seed = 1 };
	static char choice_bounds[512];
	int explore = 0;
	char err[256];
	double t0, t1, c0, c1, m0, m1;
	char *line;
	size_t n;

	if (argc > 1 && !strcmp(argv[1], "--explore-merge"))
		return merge(argc - 2, argv + 2);
	for (ch = 1; ch < argc && strcmp(argv[ch], "--fork"); ch++)
		;
	if (ch == argc)
		for (ch = 1; ch < argc; ch++)
			if (!strcmp(argv[ch], "--explore"))
				explore_heap();	/* before the machine allocates anything */
	build_options();
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
		if (ch >= OPT_PARAM && ch < OPT_PARAM + LAB_NR_PARAMS) {
			ch -= OPT_PARAM;
			if (lab_params[ch].type == LAB_PARAM_FLAG) {
				values[ch] = 1;
				continue;
			}
			snprintf(flag, sizeof(flag), "--%s", lab_params[ch].flag);
			if (ch == LAB_P_MEMORY && sim_memory_from_name(optarg) >= 0) {
				values[ch] = sim_memory_from_name(optarg);
				continue;
			}
			if (parse_num(flag, optarg, &v))
				return 2;
			values[ch] = v > INT_MAX ? INT_MAX : (int)v;
			continue;
		}
		switch (ch) {
		case OPT_LIST:
			for (n = 0; sim_scenario_at((int)n); n++)
				printf("%s\t%s\t(%s, %d CPUs)\n", sim_scenario_at((int)n)->name,
				       sim_scenario_at((int)n)->title, sim_scenario_at((int)n)->tree,
				       sim_scenario_at((int)n)->nr_cpus);
			return 0;
		case OPT_SCENARIO:
			name = optarg;
			break;
		case OPT_SEED:
		case OPT_MAX_EVENTS:
		case OPT_MAX_STEPS:
		case OPT_REPEAT:
			if (parse_num(ch == OPT_SEED ? "--seed" : ch == OPT_MAX_EVENTS ? "--max-events" :
				      ch == OPT_REPEAT ? "--repeat" : "--max-steps", optarg, &v))
				return 2;
			if (ch == OPT_REPEAT)
				repeat = v ? v : 1;
			else if (ch == OPT_SEED)
				seed = (long long)v;
			else if (ch == OPT_MAX_EVENTS)
				max_events = v;
			else
				opt.max_steps = (unsigned long)v;
			break;
		case OPT_POLICY:
			opt.policy = sim_policy_from_name(optarg);
			if (opt.policy < 0) {
				fprintf(stderr, "labrun: unknown policy '%s' (timed, rr or random)\n", optarg);
				return 2;
			}
			break;
		case OPT_PROGRAM:
			if (parse_program(optarg, program, &program_len))
				return 2;
			break;
		case OPT_SCHEDULE:
			opt.schedule = optarg;
			break;
		case OPT_SCHEDULE_OUT:
			sched_out = 1;
			break;
		case OPT_DUMP:
			dump = optarg;
			break;
		case OPT_HASH:
			hash = 1;
			break;
		case OPT_UNSEEN:
			sim_mm_unseen_on = sim_mm_unseen_on > 1 ? 2 : 1;
			break;
		case OPT_UNSEEN_CHECK:
			sim_mm_unseen_on = 2;
			break;
		case OPT_UNSEEN_FROM:
			sim_mm_unseen_from = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case OPT_META:
			meta = 1;
			break;
		case OPT_SUMMARY:
			summary = 1;
			break;
		case OPT_TRACE:
			trace = 1;
			break;
		case OPT_STATS:
			stats = 1;
			break;
		case OPT_CONSOLE:
			trace = 2;
			break;
		case OPT_FTRACE:
			trace = 3;
			break;
		case OPT_EXPLORE:
			explore = 1;
			break;
		case OPT_FORK:
			break;
		case OPT_NO_POR:
			xo.por = 0;
			break;
		case OPT_CHECKPOINT:
			xo.checkpoint = optarg;
			break;
		case OPT_CHOICE_BOUND:
			/* KIND=N, repeated: joined by commas, as explore_options.choice_bounds takes them */
			if (strlen(choice_bounds) + strlen(optarg) + 2 > sizeof(choice_bounds)) {
				fprintf(stderr, "labrun: too many --choice-bound\n");
				return 2;
			}
			if (*choice_bounds)
				strcat(choice_bounds, ",");
			strcat(choice_bounds, optarg);
			xo.choice_bounds = choice_bounds;
			break;
		case OPT_TIME_LIMIT:
			xo.max_seconds = atof(optarg);
			break;
		case OPT_AT_BOUND:
			xo.at_bound = 1;
			break;
		case OPT_JOBS:
			if (parse_num("--jobs", optarg, &v))
				return 2;
			xo.jobs = v > 64 ? 65 : (int)v;
			break;
		case OPT_SHARD: {
			unsigned int i, n;
			char end;

			if (sscanf(optarg, "%u/%u%c", &i, &n, &end) != 2 || n < 1 || i >= n || n > 1u << 20) {
				fprintf(stderr, "labrun: --shard I/N, I from 0 to N - 1\n");
				return 2;
			}
			xo.shard = (int)i;
			xo.nshards = (int)n;
			break;
		}
		case OPT_BOUND:
		case OPT_MAX_EXECS:
		case OPT_PCT:
		case OPT_RUNS:
			if (parse_num(ch == OPT_BOUND ? "--bound" : ch == OPT_MAX_EXECS ? "--max-execs" :
				      ch == OPT_PCT ? "--pct" : "--runs", optarg, &v))
				return 2;
			if (ch == OPT_BOUND)
				xo.max_bound = (int)v;
			else if (ch == OPT_MAX_EXECS)
				xo.max_execs = (unsigned long)v;
			else if (ch == OPT_PCT)
				xo.pct_depth = (int)v;
			else
				xo.pct_runs = (unsigned long)v;
			break;
		case 'h':
		case OPT_HELP:
			usage(stdout);
			return 0;
		default:
			if (optopt)
				fprintf(stderr, "labrun: %s needs a value\n", argv[optind - 1]);
			else
				fprintf(stderr, "labrun: unknown option '%s'\n", argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "labrun: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}

	sc = sim_scenario_find(name);
	if (!sc) {
		fprintf(stderr, "labrun: no scenario '%s' (try --list)\n", name);
		return 2;
	}
	p = sc->defaults;
	if (seed >= 0)
		p.seed = (unsigned long long)seed;
	if (lab_apply_params(values, LAB_NR_PARAMS, &p, &opt, err, sizeof(err))) {
		fprintf(stderr, "labrun: %s\n", err);
		return 2;
	}
	if (program_len) {
		p.program = program;
		p.program_len = program_len;
	}

	opt.max_events = (unsigned long)max_events;
	if (opt.no_schedule && (explore || sched_out || dump || meta)) {
		fprintf(stderr, "labrun: --no-schedule keeps no schedule for --explore, --schedule-out, --dump or --meta\n");
		return 2;
	}
	if (explore) {
		xo.pct_seed = p.seed;
		switch (explore_run(sc, &p, &xo, stdout, NULL)) {
		case 0: return 0;
		case 1: return 1;
		default: return 2;
		}
	}
	sim_ftrace_on = trace == 3;
	/* --repeat: the same run before this one, each timed, then freed. */
	for (; repeat > 1; repeat--) {
		m0 = main_thread_seconds();
		c0 = cpu_seconds();
		if (lab_run(sc, &p, &opt, &res, err, sizeof(err))) {
			fprintf(stderr, "labrun: %s\n", err);
			return 2;
		}
		c1 = cpu_seconds();
		m1 = main_thread_seconds();
		if (stats) {
			fprintf(stderr, "%.3f s of CPU, %.0f events per CPU second\n",
				c1 - c0, c1 > c0 ? (double)sim_events_seen() / (c1 - c0) : 0.0);
			print_threads(c1 - c0, m0 < 0 ? -1 : m1 - m0);
		}
		sim_fini();
	}
	t0 = now_seconds();
	m0 = main_thread_seconds();
	c0 = cpu_seconds();
	if (lab_run(sc, &p, &opt, &res, err, sizeof(err))) {
		fprintf(stderr, "labrun: %s\n", err);
		return 2;
	}
	t1 = now_seconds();
	c1 = cpu_seconds();
	m1 = main_thread_seconds();

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
	} else if (trace == 3) {
		print_ftrace();
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
	if (sim_mm_unseen_on) {
		size_t nu;

		mm_unseen_records(&nu);
		fprintf(stderr, "unseen: %zu records, %zu bytes; the event log: %zu events, %zu bytes\n", nu,
			nu * sizeof(struct sim_unseen), res.events, res.events * sizeof(struct sim_event));
	}
	if (summary || stats)
		fprintf(summary ? stdout : stderr,
			"scenario %s seed %llu: %s, %zu events, %lu scheduler steps, "
			"%llu ns virtual, %lu objects left, %d reports\n",
			sc->name, p.seed, sim_status_str(res.status), res.events, res.steps,
			(unsigned long long)res.end_time, res.live_objects, sim_nr_reports());
	if (stats)
		fprintf(stderr, "%.3f s, %.0f events/s; %.3f s of CPU, %.0f events per CPU second\n",
			t1 - t0, t1 > t0 ? (double)sim_events_seen() / (t1 - t0) : 0.0,
			c1 - c0, c1 > c0 ? (double)sim_events_seen() / (c1 - c0) : 0.0);
	if (stats)
		print_threads(c1 - c0, m0 < 0 ? -1 : m1 - m0);
	free(line);
	sim_fini();
	return res.status == SIM_DONE && res.live_objects == 0 ? 0 : 1;	/* reports are not failures here */
}
