// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario "explore-litmus": a race small enough for the explorer
 * (wasm/explore/) to enumerate every schedule without reduction,
 * so that the tests can check that its partial-order reduction loses no
 * end state. Project code over the runtime's primitives, on any kernel.
 *
 * The writer (on CPU0, after it started the reader on CPU1) bumps a
 * counter of its own, publishes "data" and then "flag"
 * (smp_store_release()), then adds to a shared atomic; the reader bumps
 * its own counter, reads "flag" (smp_load_acquire()) and then "data", and
 * adds to the shared atomic. The own counters are independent steps (each
 * on its own cache line), the ones the reduction should not reorder twice;
 * the rest race. Each task's RETURN carries what it saw, its part of the
 * end state: which add to the shared atomic came first, and the flag and
 * data the reader read. A reader that sees the flag and not the data
 * would WARN (it cannot happen: the acquire pairs with the release, under
 * every memory model).
 */
#include <linux/kernel.h>
#include <linux/cache.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/bug.h>
#include <asm/barrier.h>
#include <sim.h>
#include <choice.h>
#include "scenario.h"

static atomic_t shared_count;
static atomic_t own_count[2][16];	/* a cache line each */
static int data, flag ____cacheline_aligned;
static struct completion litmus_done;

static void writer(void)
{
	int v;

	atomic_inc(&own_count[0][0]);
	WRITE_ONCE(data, 1);
	smp_store_release(&flag, 1);
	v = atomic_add_return(1, &shared_count);
	SCENARIO_RETURN("writer", v);
}

static void reader_task(void *arg)
{
	int v, f, d;

	atomic_inc(&own_count[1][0]);
	f = smp_load_acquire(&flag);
	d = READ_ONCE(data);
	WARN_ON(f && !d);
	v = atomic_add_return(1, &shared_count);
	SCENARIO_RETURN("reader", v * 4 + f * 2 + d);
	complete(&litmus_done);
}

static void init_task(void *arg)
{
	init_completion(&litmus_done);
	atomic_set(&shared_count, 0);
	atomic_set(&own_count[0][0], 0);
	atomic_set(&own_count[1][0], 0);
	data = 0;
	flag = 0;
	sim_spawn(1, "reader", reader_task, NULL);
	writer();
	wait_for_completion(&litmus_done);
}

const struct scenario scenario_explore_litmus = {
	.name = "explore-litmus",
	.title = "Explorer litmus: an atomic and a message",
	.tree = "project",
	.nr_cpus = 2,
	.nr_nodes = 1,
	.defaults = { .seed = 1 },
	.init = init_task,
};

/*
 * Scenario "explore-choice": the test of choice points (wasm/runtime/
 * choice.h) other than the scheduler's. The writer (CPU0) takes one of
 * the values it may store in "data" at a choice point of kind litmus: 0
 * (the default) or 1, and 2 too once the reader has marked "seen" (read as
 * a model of the machine reads its own state, out of the explorer's sight:
 * a function KASAN does not instrument). Each value but 0 costs one. It
 * publishes the value, raises "flag", lets the reader go on and lowers
 * "flag". The reader (CPU1) marks "seen", waits for the writer, reads
 * "flag" and "data", and WARNs when it saw the flag and the value 2. The
 * WARN takes the choice of 2 (a litmus bound of 1) and two preemptions:
 * the reader's mark before the writer's choice, and the reader's run
 * inside the writer's window. The choice's key is "seen".
 */
static int choice_data, choice_flag ____cacheline_aligned;
static int choice_seen ____cacheline_aligned;
static struct completion choice_go, choice_done;

/* What the writer's alternatives depend on, read where the explorer does not see it. */
static noinline __attribute__((no_sanitize("address"))) int choice_peek(void)
{
	return *(volatile int *)&choice_seen;
}

static void choice_reader(void *arg)
{
	int f, d;

	WRITE_ONCE(choice_seen, 1);
	wait_for_completion(&choice_go);
	f = smp_load_acquire(&choice_flag);
	d = READ_ONCE(choice_data);
	WARN_ON(f && d == 2);
	SCENARIO_RETURN("reader", f * 4 + d);
	complete(&choice_done);
}

static void choice_init(void *arg)
{
	int v;

	init_completion(&choice_go);
	init_completion(&choice_done);
	choice_data = 0;
	choice_flag = 0;
	choice_seen = 0;
	sim_spawn(1, "reader", choice_reader, NULL);
	smp_store_release(&choice_flag, 0);
	v = sim_choose(SIM_CHOICE_LITMUS, 2 + choice_peek(), NULL, &choice_seen);
	WRITE_ONCE(choice_data, v);
	smp_store_release(&choice_flag, 1);
	complete(&choice_go);
	smp_store_release(&choice_flag, 0);
	SCENARIO_RETURN("writer", v);
	wait_for_completion(&choice_done);
}

const struct scenario scenario_explore_choice = {
	.name = "explore-choice",
	.title = "Explorer litmus: a choice point and a window",
	.tree = "project",
	.nr_cpus = 2,
	.nr_nodes = 1,
	.defaults = { .seed = 1 },
	.init = choice_init,
};
