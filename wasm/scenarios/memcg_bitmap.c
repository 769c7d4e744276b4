// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario "memcg-bitmap": which shrinkers reclaim calls for a memcg, with
 * the per-memcg shrinker bitmap (v6.12, the real mm/shrinker.c and
 * mm/list_lru.c) and without it (branch no-shrinker-bitmap).
 *
 * The machine is the seed's: containers, each with its own mounts (a
 * memcg-aware shrinker over a list_lru per mount, as a super_block has)
 * and its own memcgs, children of the root, that charge objects to their
 * container's mounts only. A global reclaim pass is shrink_node()'s walk:
 * shrink_slab() for every memcg mem_cgroup_iter() gives, the root first
 * (whose shrink_slab() walks the global shrinker list).
 *
 * Scale (params.containers > 0): C containers, M mounts and G memcgs each;
 * memcg g of a container charges one object to mount g % M. Then one
 * global pass at priority 12, counting do_shrink_slab() calls (each calls
 * count_objects once): with the bitmap, N + C * G for N = C * M shrinkers
 * (the root's walk, then one set bit per memcg); without, N + C * G * N.
 * The pass is a CALL/RETURN pair "global_reclaim_pass" returning the
 * count, so a quiet run (recording only calls) still carries it.
 * With params.rounds R > 0, instead R times the seed's drop_caches test:
 * each "echo 3 > drop_caches" repeats priority-0 passes while they free
 * (the first frees every object; its second pass finds the lists empty
 * and clears the bits; later echoes make one pass each). The seed's test
 * is --containers 4001 --mounts 1 --memcgs 1 --rounds 2: a tmpfs and a
 * memcg each (the seed's memcgs sit under one parent, ours under the root).
 *
 * Watching (no containers given): two containers of two mounts and two
 * memcgs, and a program of operations, from the page or the default one:
 *   ADD m k      an object charged to memcg m on mount k (list_lru_add(),
 *                set_shrinker_bit() at the real line)
 *   DEL m k      take one off again with list_lru_del(): the bit stays
 *   DRAIN m      memcg m's objects off every mount
 *   RECLAIM m    shrink_slab() for memcg m (SHRINK_EMPTY clears its bit)
 *   PASS         a global reclaim pass
 *   GROW n       register n more shrinkers: past a unit of the bitmap,
 *                expand_shrinker_info() grows every memcg's info and
 *                frees the old one after a grace period
 *   RACE m k     kswapd0 on CPU0 reclaims memcg m, whose list on mount k
 *                is empty with its bit still set, while CPU1 adds an
 *                object there: the count-then-clear of shrink_slab_memcg()
 *                against list_lru_add()'s add-then-set. Then a check:
 *                an object on the list with its bit clear is a lost bit
 *                (a WARN, so that the explorer counts it as a failure).
 *   EXPAND m k   shrinkers registered until the bitmaps' last unit is
 *                full (a unit is a long's bits), then CPU1 registers one
 *                more, whose id starts a new unit, while a writer on CPU0
 *                adds an object charged to memcg m on mount k, whose list
 *                is empty and its bit clear: expand_one_shrinker_info()
 *                publishes each memcg's bigger shrinker_info with
 *                rcu_assign_pointer() while set_shrinker_bit() reads it
 *                with rcu_dereference(). Then the same check as RACE.
 *
 * The bitmap is Kirill Tkhai's "Improve shrink_slab() scalability (old
 * complexity was O(n^2), new is O(n))", merged in 4.19
 * (153112469064.4097.2581798353485457328.stgit@localhost.localdomain).
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/shrinker.h>
#include <linux/list_lru.h>
#include <linux/memcontrol.h>
#include <linux/slab.h>
#include <linux/completion.h>
#include <sim.h>
#include "scenario.h"
#include "../glue/glue.h"

#define WATCH_CONTAINERS 2
#define WATCH_MOUNTS 2
#define WATCH_MEMCGS 2
#define MAX_GROWN 64

enum op { OP_ADD, OP_DEL, OP_DRAIN, OP_RECLAIM, OP_PASS, OP_GROW, OP_RACE, OP_EXPAND, NR_OPS };

struct mount {
	struct shrinker *shrinker;
	struct list_lru lru;
	struct list_head objects;	/* every object, for DEL, DRAIN and teardown */
};

struct object {
	struct list_head lru;
	struct list_head all;
	struct mem_cgroup *memcg;
};

static struct scenario_params params;
static int nr_containers, nr_mounts, nr_memcgs;	/* per container */
static struct mount **mounts;			/* [c * nr_mounts + k] */
static struct mem_cgroup **memcgs;		/* [c * nr_memcgs + g] */
static struct mount *grown[MAX_GROWN];
static int nr_grown;
static unsigned long count_calls;		/* do_shrink_slab() calls: count_objects */
static struct completion race_done;
static bool quiet;

static unsigned long mount_count(struct shrinker *s, struct shrink_control *sc)
{
	struct mount *m = lab_shrinker_private(s);
	unsigned long n;

	count_calls++;
	n = list_lru_shrink_count(&m->lru, sc);
	if (!quiet)
		sim_event(SIM_EV_SHRINKER_COUNT, SIM_SITE(), sim_obj_of(s), sim_obj_of(sc->memcg),
			  sc->nid, (int)n);
	sim_step(SIM_SITE(), SIM_COST_OBJECT_COUNT);
	return n ? n : SHRINK_EMPTY;
}

static enum lru_status mount_isolate(struct list_head *item, struct list_lru_one *list,
				     spinlock_t *lock, void *arg)
{
	list_lru_isolate(list, item);	/* freed at DRAIN or teardown */
	return LRU_REMOVED;
}

static unsigned long mount_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct mount *m = lab_shrinker_private(s);
	unsigned long nr = sc->nr_to_scan, freed;

	freed = list_lru_shrink_walk(&m->lru, sc, mount_isolate, NULL);
	if (!quiet)
		sim_event(SIM_EV_SHRINKER_SCAN, SIM_SITE(), sim_obj_of(s), sim_obj_of(sc->memcg),
			  (int)nr, (int)freed);
	return freed;
}

static struct mount *mount_new(const char *name)
{
	struct mount *m = kzalloc(sizeof(*m), GFP_KERNEL);

	if (!m)
		return NULL;
	INIT_LIST_HEAD(&m->objects);
	m->shrinker = lab_shrinker_alloc(SHRINKER_NUMA_AWARE | SHRINKER_MEMCG_AWARE, name);
	if (!m->shrinker)
		goto fail;
	SCENARIO_LABEL(m->shrinker, LABEL_SHRINKER, name);
	if (list_lru_init_memcg(&m->lru, m->shrinker)) {
		lab_shrinker_free(m->shrinker);
		goto fail;
	}
	SCENARIO_LABEL(&m->lru, LABEL_LIST_LRU, name);
	lab_shrinker_register(m->shrinker, mount_count, mount_scan, m);
	if (!quiet) {
		/* Which bit of the shrinker_info maps is this shrinker's, for the page. */
		SCENARIO_CALL("shrinker_id", sim_obj_of(m->shrinker), lab_shrinker_id(m->shrinker), 0);
		SCENARIO_RETURN("shrinker_id", 0);
	}
	return m;
fail:
	kfree(m);
	return NULL;
}

static void mount_free(struct mount *m)
{
	struct object *obj, *next;

	if (!m)
		return;
	lab_shrinker_free(m->shrinker);
	list_for_each_entry_safe(obj, next, &m->objects, all) {
		lab_list_lru_del(&m->lru, &obj->lru);
		list_del(&obj->all);
		kfree(obj);
	}
	list_lru_destroy(&m->lru);
	kfree(m);
}

static void object_add(struct mount *m, struct mem_cgroup *memcg)
{
	struct object *obj = SCENARIO_ALLOC_LRU(&m->lru, memcg, sizeof(*obj));

	if (!obj)
		return;
	obj->memcg = memcg;
	INIT_LIST_HEAD(&obj->lru);
	list_add_tail(&obj->all, &m->objects);
	lab_list_lru_add(&m->lru, &obj->lru);
}

/*
 * Take memcg's objects off a mount and free them: one still on the
 * list_lru (DEL), or all, those reclaim isolated too (DRAIN).
 */
static void objects_del(struct mount *m, struct mem_cgroup *memcg, bool all)
{
	struct object *obj, *next;

	list_for_each_entry_safe(obj, next, &m->objects, all) {
		if (obj->memcg != memcg || (!all && list_empty(&obj->lru)))
			continue;
		lab_list_lru_del(&m->lru, &obj->lru);
		list_del(&obj->all);
		kfree(obj);
		if (!all)
			return;
	}
}

static unsigned long reclaim(struct mem_cgroup *memcg)
{
	unsigned long freed;

	SCENARIO_CALL("shrink_slab", 0, sim_obj_of(memcg), 12);
	freed = lab_shrink_slab(GFP_KERNEL, 0, memcg, 12);
	SCENARIO_RETURN("shrink_slab", (int)freed);
	return freed;
}

/*
 * shrink_node()'s walk: every memcg, the root first, at the given
 * priority. Returns what it freed; its RETURN carries the
 * do_shrink_slab() calls it made.
 */
static unsigned long global_pass(int priority)
{
	struct mem_cgroup *memcg = NULL;
	unsigned long before = count_calls, freed = 0;
	int done = 0, total = nr_containers * nr_memcgs + 1;

	SCENARIO_CALL("global_reclaim_pass", priority, 0, 0);
	sim_wall_mark("pass start");
	while ((memcg = mem_cgroup_iter(NULL, memcg, NULL))) {
		freed += lab_shrink_slab(GFP_KERNEL, 0, memcg, priority);
		if (quiet && !(++done % 20))
			sim_progress(done, total);
	}
	sim_wall_mark("pass end");
	SCENARIO_RETURN("global_reclaim_pass", (int)(count_calls - before));
	return freed;
}

/*
 * echo 3 > /proc/sys/vm/drop_caches, the slab half: the project's port of
 * v6.12's drop_slab() (mm/vmscan.c, not compiled here), whose
 * drop_slab_node() is a global pass at priority 0, repeated while the
 * passes still free enough.
 */
static void drop_caches(void)
{
	unsigned long freed, total = 0;
	int shift = 0;

	SCENARIO_CALL("drop_caches", 0, 0, 0);
	sim_wall_mark("drop_caches start");
	do {
		freed = global_pass(0);
		total += freed;
	} while ((freed >> shift++) > 1);
	sim_wall_mark("drop_caches end");
	SCENARIO_RETURN("drop_caches", (int)total);
}

/*
 * At scale, before the pass: each set bit as a "bit" call (memcg's index,
 * shrinker id), so a quiet run still shows what the bitmaps hold.
 */
static void snapshot_bits(void)
{
	int ids[8], i, k, n;

	for (i = 0; i < nr_containers * nr_memcgs; i++) {
		n = lab_set_shrinker_bits(memcgs[i], 0, ids, ARRAY_SIZE(ids));
		for (k = 0; k < n; k++) {
			SCENARIO_CALL("bit", i, ids[k], 0);
			SCENARIO_RETURN("bit", 0);
		}
	}
}

/* Which memcg and node each bitmap piece belongs to, for the page. */
static void name_maps(void)
{
	int i;

	if (quiet)
		return;
	lab_name_shrinker_maps(root_mem_cgroup);
	for (i = 0; i < nr_containers * nr_memcgs; i++)
		lab_name_shrinker_maps(memcgs[i]);
}

static struct mem_cgroup *memcg_at(int i)
{
	return memcgs[i % (nr_containers * nr_memcgs)];
}

static struct mount *mount_at(int i)
{
	return mounts[i % (nr_containers * nr_mounts)];
}

/* The container's mount k, for memcg m: containers do not share mounts. */
static struct mount *mount_of(int m, int k)
{
	int c = (m % (nr_containers * nr_memcgs)) / nr_memcgs;

	return mount_at(c * nr_mounts + k % nr_mounts);
}

static struct mount *race_mount;

static void race_reclaim(void *memcg)
{
	reclaim(memcg);
	complete(&race_done);
}

static void race_add(void *memcg)
{
	SCENARIO_CALL("add", sim_obj_of(memcg), sim_obj_of(race_mount->shrinker), 0);
	object_add(race_mount, memcg);
	SCENARIO_RETURN("add", 0);
	complete(&race_done);
}

static void race(int mi, int k)
{
	struct mem_cgroup *memcg = memcg_at(mi);
	struct mount *m = mount_of(mi, k);
	long count;
	bool lost;

	SCENARIO_CALL("race", sim_obj_of(memcg), sim_obj_of(m->shrinker), 0);
	/* The list empty, the bit still set: an object added and taken off. */
	SCENARIO_CALL("del", sim_obj_of(memcg), sim_obj_of(m->shrinker), 1);
	objects_del(m, memcg, true);
	SCENARIO_RETURN("del", 0);
	SCENARIO_CALL("add", sim_obj_of(memcg), sim_obj_of(m->shrinker), 0);
	object_add(m, memcg);
	SCENARIO_RETURN("add", 0);
	SCENARIO_CALL("del", sim_obj_of(memcg), sim_obj_of(m->shrinker), 0);
	objects_del(m, memcg, false);
	SCENARIO_RETURN("del", 0);
	init_completion(&race_done);
	race_mount = m;
	sim_spawn(0, "kswapd0", race_reclaim, memcg);
	sim_spawn(1, "writer", race_add, memcg);
	wait_for_completion(&race_done);
	wait_for_completion(&race_done);
	/*
	 * What the next reclaim of this memcg will see: is the shrinker's bit
	 * set? An object on the list with the bit clear is never reclaimed
	 * until another add sets it: the invariant the recheck keeps.
	 */
	count = (long)list_lru_count_one(&m->lru, 0, memcg);
	lost = count && !lab_shrinker_bit(memcg, 0, m->shrinker);
	WARN(lost, "memcg-bitmap: lost bit: %ld object(s) of memcg %d on its mount %d, the shrinker's bit clear",
	     count, mi, k);
	SCENARIO_RETURN("race", lost ? 1 : 0);
}

static void expand_register(void *unused)
{
	char name[16];

	SCENARIO_CALL("grow", 1, 0, 0);
	snprintf(name, sizeof(name), "extra-%d", nr_grown);
	grown[nr_grown] = mount_new(name);
	if (grown[nr_grown])
		nr_grown++;
	SCENARIO_RETURN("grow", nr_grown);
	complete(&race_done);
}

/* Whether the next shrinker registered takes the first id of a new unit. */
static bool next_id_starts_unit(void)
{
	struct mount *last = nr_grown ? grown[nr_grown - 1] : mounts[nr_containers * nr_mounts - 1];

	return !((lab_shrinker_id(last->shrinker) + 1) % BITS_PER_LONG);
}

static void expand_race(int mi, int k)
{
	struct mem_cgroup *memcg = memcg_at(mi);
	struct mount *m = mount_of(mi, k);
	char name[16];
	long count;
	bool lost;

	SCENARIO_CALL("expand_race", sim_obj_of(memcg), sim_obj_of(m->shrinker), 0);
	/* The bitmaps' last unit full, so that the racing registration expands them. */
	SCENARIO_CALL("grow", 0, 0, 0);
	while (lab_shrinker_id(m->shrinker) >= 0 && !next_id_starts_unit() && nr_grown < MAX_GROWN - 1) {
		snprintf(name, sizeof(name), "extra-%d", nr_grown);
		grown[nr_grown] = mount_new(name);
		if (!grown[nr_grown])
			break;
		nr_grown++;
	}
	SCENARIO_RETURN("grow", nr_grown);
	/* The writer's list empty and its bit clear: its add calls set_shrinker_bit(). */
	SCENARIO_CALL("drain", sim_obj_of(memcg), 0, 0);
	objects_del(m, memcg, true);
	SCENARIO_RETURN("drain", 0);
	reclaim(memcg);
	init_completion(&race_done);
	race_mount = m;
	sim_spawn(0, "writer", race_add, memcg);
	sim_spawn(1, "mount", expand_register, NULL);
	wait_for_completion(&race_done);
	wait_for_completion(&race_done);
	name_maps();
	count = (long)list_lru_count_one(&m->lru, 0, memcg);
	lost = count && !lab_shrinker_bit(memcg, 0, m->shrinker);
	WARN(lost, "memcg-bitmap: lost bit: %ld object(s) of memcg %d on its mount %d, the shrinker's bit clear",
	     count, mi, k);
	SCENARIO_RETURN("expand_race", lost ? 1 : 0);
}

static void run_op(int op, int a, int b)
{
	switch (op) {
	case OP_ADD:
		SCENARIO_CALL("add", sim_obj_of(memcg_at(a)), sim_obj_of(mount_of(a, b)->shrinker), 0);
		object_add(mount_of(a, b), memcg_at(a));
		SCENARIO_RETURN("add", 0);
		break;
	case OP_DEL:
		SCENARIO_CALL("del", sim_obj_of(memcg_at(a)), sim_obj_of(mount_of(a, b)->shrinker), 0);
		objects_del(mount_of(a, b), memcg_at(a), false);
		SCENARIO_RETURN("del", 0);
		break;
	case OP_DRAIN: {
		int k;

		SCENARIO_CALL("drain", sim_obj_of(memcg_at(a)), 0, 0);
		for (k = 0; k < nr_mounts; k++)
			objects_del(mount_of(a, k), memcg_at(a), true);
		SCENARIO_RETURN("drain", 0);
		break;
	}
	case OP_RECLAIM:
		reclaim(memcg_at(a));
		break;
	case OP_PASS:
		global_pass(12);
		break;
	case OP_GROW: {
		char name[16];
		int n = a % 40 + 1;

		SCENARIO_CALL("grow", n, 0, 0);
		while (n-- && nr_grown < MAX_GROWN) {
			snprintf(name, sizeof(name), "extra-%d", nr_grown);
			grown[nr_grown] = mount_new(name);
			if (!grown[nr_grown])
				break;
			nr_grown++;
		}
		SCENARIO_RETURN("grow", nr_grown);
		name_maps();
		break;
	}
	case OP_RACE:
		race(a, b);
		break;
	case OP_EXPAND:
		expand_race(a, b);
		break;
	}
}

/* Without a program: the bit set by the first object, left set, cleared, raced. */
static const unsigned char default_program[] = {
	OP_ADD, 0, 0,  OP_ADD, 1, 1,  OP_ADD, 2, 0,  OP_PASS, 0, 0,
	OP_DRAIN, 1, 0,  OP_PASS, 0, 0,  OP_RECLAIM, 1, 0,
	OP_RACE, 3, 1,  OP_RECLAIM, 3, 0,
};

static void init_task(void *arg)
{
	char name[24];
	int c, i, n;

	params = *(const struct scenario_params *)arg;
	quiet = params.containers > 0;
	nr_containers = quiet ? params.containers : WATCH_CONTAINERS;
	nr_mounts = quiet && params.mounts > 0 ? params.mounts : WATCH_MOUNTS;
	nr_memcgs = quiet && params.memcgs > 0 ? params.memcgs : WATCH_MEMCGS;
	count_calls = 0;
	nr_grown = 0;
	mounts = kcalloc(nr_containers * nr_mounts, sizeof(*mounts), GFP_KERNEL);
	memcgs = kcalloc(nr_containers * nr_memcgs, sizeof(*memcgs), GFP_KERNEL);
	if (!mounts || !memcgs || !sim_memcg_create(NULL, "/"))
		goto out;

	/* The containers come up one by one: their memcgs, then their mounts. */
	SCENARIO_CALL("setup", nr_containers, nr_mounts, nr_memcgs);
	for (c = 0; c < nr_containers; c++) {
		for (i = 0; i < nr_memcgs; i++) {
			snprintf(name, sizeof(name), "/ct%d/%d", c, i);
			memcgs[c * nr_memcgs + i] = sim_memcg_create(root_mem_cgroup, name);
			if (!memcgs[c * nr_memcgs + i])
				goto teardown;
		}
		for (i = 0; i < nr_mounts; i++) {
			snprintf(name, sizeof(name), "ct%d/mnt%d", c, i);
			mounts[c * nr_mounts + i] = mount_new(name);
			if (!mounts[c * nr_mounts + i])
				goto teardown;
		}
		/* Setting up is most of a scale run: containers done, of all of them. */
		if (quiet && (!((c + 1) % 20) || c + 1 == nr_containers))
			sim_progress(c + 1, nr_containers);
		cond_resched();
	}
	SCENARIO_RETURN("setup", 0);
	name_maps();

	if (quiet) {
		/* The seed's experiment: memcg g of a container writes on mount g % M. */
		for (i = 0; i < nr_containers * nr_memcgs; i++)
			object_add(mount_of(i, i % nr_memcgs), memcgs[i]);
		snapshot_bits();
		if (params.rounds > 0) {
			for (n = 0; n < params.rounds && n < 10; n++)
				drop_caches();
		} else {
			global_pass(12);
		}
	} else {
		const unsigned char *p = params.program_len ? params.program : default_program;
		unsigned long len = params.program_len ? params.program_len : sizeof(default_program);

		for (i = 0; i + 2 < (int)len && i < 3 * 64; i += 3)
			run_op(p[i] % NR_OPS, p[i + 1], p[i + 2]);
	}

teardown:
	for (n = 0; n < nr_grown; n++)
		mount_free(grown[n]);
	for (i = 0; i < nr_containers * nr_mounts; i++)
		mount_free(mounts[i]);
	for (i = 0; i < nr_containers * nr_memcgs; i++) {
		if (!memcgs[i])
			continue;
		sim_memcg_offline(memcgs[i]);
		sim_memcg_free(memcgs[i]);
	}
	if (root_mem_cgroup)
		sim_memcg_free(root_mem_cgroup);
out:
	kfree(mounts);
	kfree(memcgs);
	rcu_barrier();
}

/*
 * At scale, every memcg's shrinker_info holds a bit and a deferred count
 * for each shrinker (a unit of SHRINKER_UNIT_BITS each), and a pass
 * without the bitmap calls each shrinker for each memcg: at most
 * SCALE_MAX_PAIRS shrinker-memcg pairs, about 70 MB of shrinker_info at
 * 32 bits (140 MB at 64) and 16.8 million do_shrink_slab() calls a pass.
 */
#define SCALE_MAX_PAIRS (4096ULL * 4096)

static const char *refuse(const struct scenario_params *p)
{
	static char why[160];
	unsigned long long n, m;

	if (p->containers <= 0)
		return NULL;
	n = (unsigned long long)p->containers * (p->mounts > 0 ? p->mounts : WATCH_MOUNTS);
	m = (unsigned long long)p->containers * (p->memcgs > 0 ? p->memcgs : WATCH_MEMCGS);
	if (n * m <= SCALE_MAX_PAIRS)
		return NULL;
	snprintf(why, sizeof(why), "memcg-bitmap at scale: %llu shrinkers (containers x mounts) by %llu memcgs "
		 "(containers x memcgs) is more than %llu pairs", n, m, SCALE_MAX_PAIRS);
	return why;
}

const struct scenario scenario_memcg_bitmap = {
	.name = "memcg-bitmap",
	.title = "memcg shrinker bitmaps: which shrinkers reclaim calls",
	.tree = SIM_KERNEL_TREE,
	.nr_cpus = 2,
	.nr_nodes = 1,
	.kasan_panic = 1,
	/*
	 * At scale, teardown frees thousands of shrinker_infos after grace
	 * periods, and rcu_barrier() waits for all of them: a second of
	 * virtual time, not the runtime's millisecond, before a task is hung.
	 */
	.hung_task_ns = 1000000000ULL,
	.defaults = { .seed = 1 },
	.init = init_task,
	.refuse = refuse,
};
