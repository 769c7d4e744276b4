/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario "kunit-bitmap": the memcg-bitmap scene's operations as a fixed
 * sequential program, for the real kernel to referee (the scene's RACE
 * needs two CPUs, which UML has not; every other operation is here).
 * Compiled twice, as kunit_seq_body.h is: wasm/scenarios/kunit_seq.c, and
 * kernel-tree/kunit/reclaim_lab_kunit.c inside User-Mode Linux.
 *
 * The scene's machine when watching: two containers, each with two mounts
 * (a memcg-aware shrinker over a list_lru, as a super_block has) and two
 * memcgs, children of the root (ct0.0 ct0.1 ct1.0 ct1.1), which charge
 * objects to their own container's mounts only. The operations, as the
 * scene names them:
 *   ADD m k      an object charged to memcg m on its container's mount k
 *                (list_lru_add() sets m's bit of that shrinker)
 *   DEL m k      one of them off the list again: the bit stays set
 *   DRAIN m      all of memcg m's objects off its container's mounts
 *   RECLAIM m    shrink_slab() for memcg m at priority 12: SHRINK_EMPTY
 *                clears the bit of a shrinker with nothing for m
 *   PASS         a global pass: shrink_slab() for the root (the global
 *                shrinker list), then each memcg in mem_cgroup_iter()'s
 *                order for this tree; the count_objects() calls our
 *                shrinkers got are the scene's figure
 *   GROW n       register n more memcg-aware shrinkers "extra-N";
 *                XADD m j adds memcg m's object on extra-j
 * GROW crosses the simulation's 32-bit bitmap units and UML's 64-bit ones
 * (expand_shrinker_info() grows every memcg's map and keeps its bits);
 * the trace reads bits by shrinker name, so where a unit ends does not
 * show, only that no bit is lost.
 *
 * Kernels whose shrinker_info is one flat map (6.1: no SHRINKER_UNIT_BITS)
 * set every old bit when they grow it ("map: set all old bits, clear all
 * new bits" in expand_one_shrinker_info()), so which of our shrinkers then
 * have their bit set depends on where a long ends (32 bits here, 64 in
 * UML) and on the ids the kernel's own shrinkers took: a difference of
 * word size, not of code, which no id-free trace can hide. There GROW and
 * XADD are left out, and the trace says so.
 */
#ifndef RECLAIM_LAB_KUNIT_BITMAP_BODY_H
#define RECLAIM_LAB_KUNIT_BITMAP_BODY_H

#include "kunit_common.h"

#define RL_BITMAP_CONTAINERS 2
#define RL_BITMAP_MOUNTS 2	/* per container */
#define RL_BITMAP_MEMCGS 2	/* per container */
#define RL_BITMAP_GROWN 66

enum rl_bitmap_op { RL_ADD, RL_DEL, RL_DRAIN, RL_RECLAIM, RL_PASS, RL_GROW, RL_XADD };

static const char *const rl_bitmap_op_names[] = {
	"ADD", "DEL", "DRAIN", "RECLAIM", "PASS", "GROW", "XADD",
};

/* The bit set by the first object, kept by DEL, cleared by RECLAIM; GROW past a unit. */
static const unsigned char rl_bitmap_program[][3] = {
	{ RL_ADD, 0, 0 }, { RL_ADD, 1, 1 }, { RL_ADD, 2, 0 }, { RL_PASS },
	{ RL_DRAIN, 1 }, { RL_PASS }, { RL_RECLAIM, 1 },
	{ RL_ADD, 3, 1 }, { RL_ADD, 3, 1 }, { RL_DEL, 3, 1 }, { RL_RECLAIM, 3 },
	{ RL_DEL, 3, 1 }, { RL_RECLAIM, 3 }, { RL_RECLAIM, 3 },
	{ RL_GROW, 30 }, { RL_XADD, 0, 29 }, { RL_GROW, 36 }, { RL_XADD, 2, 65 },
	{ RL_PASS }, { RL_DRAIN, 0 }, { RL_DRAIN, 2 }, { RL_PASS }, { RL_PASS },
};

static const char *const rl_bitmap_memcg_names[] = { "ct0.0", "ct0.1", "ct1.0", "ct1.1" };
static struct rl_cache rl_bitmap_mounts[RL_BITMAP_CONTAINERS * RL_BITMAP_MOUNTS] = {
	{ .name = "ct0/mnt0" }, { .name = "ct0/mnt1" }, { .name = "ct1/mnt0" }, { .name = "ct1/mnt1" },
};
static struct rl_cache *rl_bitmap_grown[RL_BITMAP_GROWN];
static int rl_bitmap_nr_grown;

/* Memcg m of the scene (0..3) is rl_memcgs[m + 1]; its container's mount k. */
static struct rl_cache *rl_bitmap_mount_of(int m, int k)
{
	return &rl_bitmap_mounts[m / RL_BITMAP_MEMCGS * RL_BITMAP_MOUNTS + k % RL_BITMAP_MOUNTS];
}

static void rl_bitmap_pass(int priority)
{
	unsigned long counted = 0, freed = 0;
	int m;

	rl_trace("pass priority=%d", priority);
	for (m = 0; m < rl_nr_memcgs; m++) {
		rl_reclaim(m, priority);
		counted += rl_counted;
		freed += rl_freed;
	}
	rl_trace("pass priority=%d: ours counted %lu times, freed %lu", priority, counted, freed);
}

static int rl_bitmap_op(const unsigned char *op)
{
	int m = op[1] % (RL_BITMAP_CONTAINERS * RL_BITMAP_MEMCGS), n;
	struct rl_cache *c;
	struct rl_obj *obj;

	switch (op[0]) {
	case RL_ADD:
		rl_trace("op ADD %s %d", rl_bitmap_memcg_names[m], op[2]);
		if (rl_add(rl_bitmap_mount_of(m, op[2]), m + 1, 1))
			return -ENOMEM;
		rl_bits(m + 1);
		break;
	case RL_DEL:
		rl_trace("op DEL %s %d", rl_bitmap_memcg_names[m], op[2]);
		c = rl_bitmap_mount_of(m, op[2]);
		list_for_each_entry(obj, &c->objs, all)
			if (obj->memcg == m + 1) {
				rl_del(c, m + 1, obj->id, 1);
				break;
			}
		rl_bits(m + 1);
		break;
	case RL_DRAIN:
		rl_trace("op DRAIN %s", rl_bitmap_memcg_names[m]);
		for (n = 0; n < RL_BITMAP_MOUNTS; n++)
			rl_del(rl_bitmap_mount_of(m, n), m + 1, 0, -1);
		rl_bits(m + 1);
		break;
	case RL_RECLAIM:
		rl_trace("op RECLAIM %s", rl_bitmap_memcg_names[m]);
		rl_reclaim(m + 1, 12);
		break;
	case RL_PASS:
		rl_trace("op PASS");
		rl_bitmap_pass(12);
		break;
	case RL_GROW:
#ifndef SHRINKER_UNIT_BITS
		rl_trace("op GROW %d: left out, a flat shrinker map sets every old bit as it grows", op[1]);
		break;
#endif
		rl_trace("op GROW %d", op[1]);
		for (n = 0; n < op[1] && rl_bitmap_nr_grown < RL_BITMAP_GROWN; n++) {
			c = rl_cache_new(true, false, "extra-%d", rl_bitmap_nr_grown, 0);
			if (!c)
				return -ENOMEM;
			rl_bitmap_grown[rl_bitmap_nr_grown++] = c;
		}
		for (n = 1; n < rl_nr_memcgs; n++)
			rl_bits(n);
		break;
	case RL_XADD:
#ifndef SHRINKER_UNIT_BITS
		rl_trace("op XADD %s extra-%d: left out, as GROW", rl_bitmap_memcg_names[m], op[2]);
		break;
#endif
		rl_trace("op XADD %s extra-%d", rl_bitmap_memcg_names[m], op[2]);
		if (op[2] >= rl_bitmap_nr_grown || rl_add(rl_bitmap_grown[op[2]], m + 1, 1))
			return -ENOMEM;
		rl_bits(m + 1);
		break;
	}
	return 0;
}

static int rl_bitmap_run(void)
{
	int i, err = -ENOMEM;

	rl_trace("scenario kunit-bitmap");
	rl_memcgs_init();
	rl_bits_compact = true;
	rl_bitmap_nr_grown = 0;
	for (i = 0; i < ARRAY_SIZE(rl_bitmap_memcg_names); i++)
		if (rl_memcg_add(0, rl_bitmap_memcg_names[i]) < 0)
			goto out;
	rl_trace("memcgs root ct0.0 ct0.1 ct1.0 ct1.1 online");
	for (i = 0; i < ARRAY_SIZE(rl_bitmap_mounts); i++)
		if (rl_cache_setup(&rl_bitmap_mounts[i], true, false))
			goto out;

	for (i = 0; i < ARRAY_SIZE(rl_bitmap_program); i++)
		if (rl_bitmap_op(rl_bitmap_program[i]))
			goto out;
	err = 0;
out:
	for (i = 0; i < rl_bitmap_nr_grown; i++)
		rl_cache_delete(rl_bitmap_grown[i], false);
	if (rl_bitmap_nr_grown)
		rl_trace("shrinker_free extra-0..extra-%d", rl_bitmap_nr_grown - 1);
	for (i = 0; i < ARRAY_SIZE(rl_bitmap_mounts); i++)
		rl_cache_teardown(&rl_bitmap_mounts[i], true);
	rl_memcgs_release();
	rl_trace("done: %d", err);
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_BITMAP_BODY_H */
