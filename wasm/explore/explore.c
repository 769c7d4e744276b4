// SPDX-License-Identifier: GPL-2.0-only
/*
 * The explorer: every schedule of a scenario (dfs.c), or a random sample
 * of them with a guarantee (pct.c), each run checked by what checks any
 * run (run.c) and counted (report.c).
 *
 * Every execution is a fresh boot. In the optimised native build each
 * runs in this process and the machine's memory (the static data and the
 * heap its allocations come from) is put back after it (exec_inprocess.c).
 * In the builds with AddressSanitizer, or with labrun --fork, each runs
 * in a child process forked from one that never ran the kernel, so the
 * kernel's static state and the heap are those of a boot, and a crash is
 * counted, not fatal. The children are forked by a fork server, a process forked when the search
 * starts, which never holds the search's work items, so a fork copies the
 * page tables of a small process (exec_fork.c). A child reads what it needs of the
 * search from a request in shared memory (struct request) and writes what
 * it saw there too. Every run thus starts from the same memory, whatever
 * the search has allocated since it started: the kernel's allocations get
 * the same addresses in every run, so the footprints of runs compare. A
 * wasm module cannot fork: there the memory as the search starts is
 * copied once, written over the memory before each run, and the search's
 * memory put back after it (exec_wasm.c).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifndef __EMSCRIPTEN__
#include <sys/wait.h>
#include <unistd.h>
#endif
#include "xp.h"

void explore_heap(void)
{
	sim_heap_start();
}

/*
 * --jobs: the search's shards in as many child processes, each writing its
 * record into a file of its own, merged when all have ended.
 */
static int run_jobs(const struct scenario *sc, const struct scenario_params *p,
		    const struct explore_options *o, FILE *out, struct explore_result *res)
{
#ifdef __EMSCRIPTEN__
	fprintf(stderr, "explore: no --jobs here (a wasm module cannot fork)\n");
	return -1;
#else
	FILE *f[64];
	pid_t pid[64];
	int i, st, failed = 0, n = o->jobs, r;

	if (n > 64) {
		fprintf(stderr, "explore: at most 64 jobs\n");
		return -1;
	}
	sim_heap_machine(0);	/* the records' files are the search's, not the machine's (put back after each run) */
	fflush(NULL);
	for (i = 0; i < n; i++) {
		if (!(f[i] = tmpfile())) {
			perror("explore: a job's record");
			return -1;
		}
		pid[i] = fork();
		if (pid[i] < 0) {
			perror("explore: fork");
			return -1;
		}
		if (pid[i] == 0) {
			struct explore_options co = *o;

			co.jobs = 0;
			co.shard = i;
			co.nshards = n;
			co.progress = NULL;
			r = explore_run(sc, p, &co, f[i], NULL);
			fflush(f[i]);
			_exit(r < 0 ? 2 : 0);
		}
	}
	for (i = 0; i < n; i++)
		if (waitpid(pid[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "explore: job %d of %d failed\n", i, n);
			failed = 1;
		}
	for (i = 0; i < n; i++)
		rewind(f[i]);
	r = failed ? -1 : explore_merge(f, n, out, res);
	for (i = 0; i < n; i++)
		fclose(f[i]);
	sim_heap_machine(1);
	return r;
#endif
}

int explore_run(const struct scenario *sc, const struct scenario_params *p,
		const struct explore_options *o, FILE *out, struct explore_result *res)
{
	struct xp *x;
	int r, b;

	if ((o->jobs > 1 || o->nshards > 1) &&
	    (o->pct_depth || o->checkpoint || o->max_execs || o->max_seconds > 0 || o->at_bound)) {
		/* Shards part at bound 1's items, which --at-bound never pushes. */
		fprintf(stderr, "explore: --jobs and --shard split a depth-first search bound by bound, "
			"with no budget or checkpoint\n");
		return -1;
	}
	if (o->nshards > 1 && (o->shard < 0 || o->shard >= o->nshards)) {
		fprintf(stderr, "explore: shard %d of %d\n", o->shard, o->nshards);
		return -1;
	}
	if (o->jobs > 1)
		return run_jobs(sc, p, o, out, res);

	sim_heap_machine(0);	/* the search's own allocations: the C library's heap */
	x = calloc(1, sizeof(*x));
	if (!x)
		xp_out_of_memory();
	xp_current = x;
	x->sc = sc;
	x->p = *p;
	x->o = *o;
	x->out = out;
	x->last_bound = -1;
	x->sc_name = sc->name;
	x->sc_tree = sc->tree;
	x->ncpus = sc->cpus ? sc->cpus(p) : sc->nr_cpus;
	x->branch = -1;
	x->choose[0] = xp_dfs_choose;
	x->choose[1] = xp_pct_choose;
	if (xp_parse_bounds(x, o->choice_bounds)) {
		xp_current = NULL;
		free(x);
		return -1;
	}
	if (x->ncpus > XP_MAX_CPUS || o->max_bound < 0 || o->max_bound > XP_MAX_BOUND ||
	    o->pct_depth < 0 || o->pct_depth > XP_MAX_BOUND) {
		fprintf(stderr, "explore: at most %d CPUs, bounds and depths from 0 to %d\n",
			XP_MAX_CPUS, XP_MAX_BOUND);
		xp_current = NULL;
		free(x);
		return -1;
	}
	x->sh = xp_shared_alloc(sizeof(struct shared));
	if (!x->sh) {
		perror("explore: the shared block");
		xp_current = NULL;
		free(x);
		return -1;
	}
	if (!o->pct_depth) {
		x->stack = calloc(XP_MAX_NODES, sizeof(*x->stack));
		if (!x->stack)
			xp_out_of_memory();
	}
	if (!XP_INPROCESS || !sim_heap_started())
		xp_warm_up();
	x->t0 = xp_now();
	if (xp_exec_start(x)) {
		free(x->stack);
		xp_shared_free(x->sh, sizeof(struct shared));
		xp_current = NULL;
		free(x);
		return -1;
	}
	r = o->pct_depth ? xp_pct(x) : xp_dfs(x);
	xp_exec_stop();
	if (res)
		xp_fill_result(x, res, x->exhausted);
	if (r == 0 && x->fail_execs)
		r = 1;
	xp_shared_free(x->sh, sizeof(struct shared));
	for (b = 0; b <= XP_MAX_BOUND + 1; b++) {
		while (x->items[b].n)
			xp_item_free(x, &x->items[b].v[--x->items[b].n]);
		free(x->items[b].v);
	}
	if (x->stack)	/* not all XP_MAX_NODES: clearing them would fault in every page of the stack */
		for (b = 0; b < (int)x->deepest && b < XP_MAX_NODES; b++)
			xp_node_clear(&x->stack[b]);
	free(x->stack);
	xp_fp_drain(x);
	free(x->states.v);
	free(x->fresh.v);
	free(x->best);
	free(x->best_kinds);
	xp_current = NULL;
	free(x);
	sim_heap_machine(1);
	return r;
}
