// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario "planted-race": a data race planted on purpose, for the race
 * detector (wasm/runtime/kcsan/, labrun --kcsan). A writer on CPU0 and a
 * reader on CPU1 share an object the init task allocated before starting
 * them, with nothing ordering the writer's plain store of its value and
 * the reader's plain load of it: KCSAN reports that, whichever comes
 * first. With planted 1, both accesses are inside data_race(), and there
 * is nothing to report; with planted 2, the writer publishes with
 * smp_store_release() and the reader waits with smp_load_acquire(), which
 * orders them. None of this is kernel code; the markers "RACE:" name the
 * lines a report must point at (the native tests look for them).
 */
#include <linux/kernel.h>
#include <linux/compiler.h>
#include <linux/slab.h>
#include <linux/completion.h>
#include <asm/barrier.h>
#include <sim.h>
#include "scenario.h"

struct race_object {
	int value;
	int ready;
	int pad[14];
};

enum { RACE_PLAIN, RACE_ANNOTATED, RACE_ORDERED };

static struct race_object *obj;
static int mode;
static struct completion race_done;

static noinline void write_value(struct race_object *o)
{
	if (mode == RACE_ANNOTATED)
		data_race(o->value = 42);
	else
		o->value = 42;			/* RACE: the write */
	if (mode == RACE_ORDERED)
		smp_store_release(&o->ready, 1);
}

static noinline int read_value(struct race_object *o)
{
	if (mode == RACE_ANNOTATED)
		return data_race(o->value);
	if (mode == RACE_ORDERED)
		while (!smp_load_acquire(&o->ready))
			cond_resched();
	return o->value;			/* RACE: the read */
}

static void writer_task(void *arg)
{
	SCENARIO_CALL("write_value", 0, 0, 0);
	write_value(obj);
	complete(&race_done);
}

static void reader_task(void *arg)
{
	int v;

	SCENARIO_CALL("read_value", 0, 0, 0);
	v = read_value(obj);
	SCENARIO_RETURN("read_value", v);
	complete(&race_done);
}

static void init_task(void *arg)
{
	mode = ((const struct scenario_params *)arg)->planted;
	init_completion(&race_done);
	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	sim_spawn(0, "writer", writer_task, NULL);
	sim_spawn(1, "reader", reader_task, NULL);
	wait_for_completion(&race_done);
	wait_for_completion(&race_done);
	kfree(obj);
}

const struct scenario scenario_planted_race = {
	.name = "planted-race",
	.title = "A planted data race (labrun --kcsan)",
	.tree = "project",
	.nr_cpus = 2,
	.nr_nodes = 1,
	.defaults = { .seed = 1 },
	.init = init_task,
};
