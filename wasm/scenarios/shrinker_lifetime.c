// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario "shrinker-lifetime": the real v6.12 shrink_slab() on CPU 0 races
 * the real shrinker_alloc() / shrinker_register() / shrinker_free() on
 * CPU 1, the way kswapd races mount and umount.
 *
 * CPU 1 mounts a filesystem-like cache per round: a memcg- and NUMA-aware
 * shrinker over a list_lru, as a super_block has (fs/super.c alloc_super()),
 * fills the list_lru with objects charged to memcg /A or to the root, then
 * unmounts in deactivate_locked_super()'s order: shrinker_free() first,
 * which drops the initial reference and sleeps until shrink_slab's
 * references are gone, then the objects, then list_lru_destroy().
 *
 * CPU 0 reclaims in a loop through shrink_slab() for the root (the global
 * shrinker_list walk under RCU) and for /A (the memcg bitmap walk), at
 * falling priorities. The shrinker's memory is freed by the RCU callback
 * shrinker_free_rcu_cb() after a grace period, on whichever CPU queued it.
 *
 * The design being animated is Qi Zheng's "use refcount+RCU method to
 * implement lockless slab shrink", merged in 6.7
 * (20230911094444.68966-1-zhengqi.arch@bytedance.com).
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/shrinker.h>
#include <linux/list_lru.h>
#include <linux/memcontrol.h>
#include <linux/slab.h>
#include <linux/completion.h>
#include <linux/version.h>
#include <sim.h>
#include "scenario.h"
#include "../glue/glue.h"

/* This scene is about the refcount + RCU design: kernels from 6.7 on. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)

unsigned long shrink_slab(gfp_t gfp_mask, int nid, struct mem_cgroup *memcg, int priority);

struct fs_cache {
	struct shrinker *shrinker;
	struct list_lru lru;
};

struct fs_object {
	struct list_head lru;
};

static struct mem_cgroup *memcg_a;
static struct completion tasks_done;
static int mounts_left;
static struct scenario_params params;

static unsigned long fs_count_objects(struct shrinker *shrinker, struct shrink_control *sc)
{
	struct fs_cache *fs = shrinker->private_data;
	unsigned long n;

	/* Fault injection: a shrinker that takes its time, and sleeps doing so. */
	if (params.slow_ns)
		sim_sleep_ns(params.slow_ns, SIM_SITE());
	n = list_lru_shrink_count(&fs->lru, sc);
	sim_event(SIM_EV_SHRINKER_COUNT, SIM_SITE(), sim_obj_of(shrinker),
		  sim_obj_of(sc->memcg), sc->nid, (int)n);
	sim_step(SIM_SITE(), SIM_COST_OBJECT_COUNT);
	/* As super_cache_count(): an empty cache says so, so its memcg bit clears. */
	return n ? n : SHRINK_EMPTY;
}

static enum lru_status fs_isolate(struct list_head *item, struct list_lru_one *list,
				  spinlock_t *lock, void *dispose)
{
	list_lru_isolate_move(list, item, dispose);
	return LRU_REMOVED;
}

static void fs_dispose(struct list_head *dispose)
{
	while (!list_empty(dispose)) {
		struct fs_object *obj = list_first_entry(dispose, struct fs_object, lru);

		list_del_init(&obj->lru);
		kfree(obj);
	}
}

static unsigned long fs_scan_objects(struct shrinker *shrinker, struct shrink_control *sc)
{
	struct fs_cache *fs = shrinker->private_data;
	unsigned long nr_to_scan = sc->nr_to_scan, freed;
	LIST_HEAD(dispose);

	freed = list_lru_shrink_walk(&fs->lru, sc, fs_isolate, &dispose);
	sim_step(SIM_SITE(), SIM_COST_OBJECT_SCAN);
	fs_dispose(&dispose);
	sim_event(SIM_EV_SHRINKER_SCAN, SIM_SITE(), sim_obj_of(shrinker),
		  sim_obj_of(sc->memcg), (int)nr_to_scan, (int)freed);
	return freed;
}

static void fs_add_object(struct fs_cache *fs, struct mem_cgroup *memcg)
{
	struct fs_object *obj = SCENARIO_ALLOC_LRU(&fs->lru, memcg, sizeof(*obj));

	if (!obj)
		return;
	INIT_LIST_HEAD(&obj->lru);
	list_lru_add_obj(&fs->lru, &obj->lru);
}

static struct fs_cache *fs_mount(int index)
{
	struct fs_cache *fs;
	char name[16];

	fs = kzalloc(sizeof(*fs), GFP_KERNEL);
	if (!fs)
		return NULL;
	SCENARIO_CALL("shrinker_alloc", index, 0, 0);
	fs->shrinker = shrinker_alloc(SHRINKER_NUMA_AWARE | SHRINKER_MEMCG_AWARE, "fs-%d", index);
	SCENARIO_RETURN("shrinker_alloc", sim_obj_of(fs->shrinker));
	if (!fs->shrinker) {
		kfree(fs);
		return NULL;
	}
	snprintf(name, sizeof(name), "fs-%d", index);
	SCENARIO_LABEL(fs->shrinker, LABEL_SHRINKER, name);
	if (list_lru_init_memcg(&fs->lru, fs->shrinker)) {
		shrinker_free(fs->shrinker);
		kfree(fs);
		return NULL;
	}
	fs->shrinker->count_objects = fs_count_objects;
	fs->shrinker->scan_objects = fs_scan_objects;
	fs->shrinker->private_data = fs;
	SCENARIO_CALL("shrinker_register", sim_obj_of(fs->shrinker), 0, 0);
	shrinker_register(fs->shrinker);
	SCENARIO_RETURN("shrinker_register", 0);
	return fs;
}

static void fs_umount(struct fs_cache *fs)
{
	LIST_HEAD(dispose);
	unsigned long nr = ULONG_MAX;
	int shrinker = sim_obj_of(fs->shrinker);

	/* deactivate_locked_super(): the shrinker goes first... */
	SCENARIO_CALL("shrinker_free", shrinker, 0, 0);
	shrinker_free(fs->shrinker);
	SCENARIO_RETURN("shrinker_free", shrinker);
	/* ...then kill_sb() frees the objects, then the list_lru goes. */
	list_lru_walk(&fs->lru, fs_isolate, &dispose, nr);
	fs_dispose(&dispose);
	list_lru_destroy(&fs->lru);
	kfree(fs);
}

static void mount_task(void *arg)
{
	int round, i;

	for (round = 0; round < params.rounds; round++) {
		struct fs_cache *fs = fs_mount(round);

		if (!fs)
			break;
		for (i = 0; i < params.objects; i++)
			fs_add_object(fs, i % 2 ? memcg_a : root_mem_cgroup);
		cond_resched();
		fs_umount(fs);
		cond_resched();
	}
	WRITE_ONCE(mounts_left, 0);
	complete(&tasks_done);
}

static void kswapd_task(void *arg)
{
	static const int priorities[] = { 12, 6, 2, 0 };
	unsigned int pass;

	for (pass = 0; READ_ONCE(mounts_left); pass++) {
		int priority = priorities[pass % ARRAY_SIZE(priorities)];
		unsigned long freed;

		SCENARIO_CALL("shrink_slab", 0, sim_obj_of(root_mem_cgroup), priority);
		freed = shrink_slab(GFP_KERNEL, 0, root_mem_cgroup, priority);
		SCENARIO_RETURN("shrink_slab", (int)freed);

		SCENARIO_CALL("shrink_slab", 0, sim_obj_of(memcg_a), priority);
		freed = shrink_slab(GFP_KERNEL, 0, memcg_a, priority);
		SCENARIO_RETURN("shrink_slab", (int)freed);
		cond_resched();
	}
	complete(&tasks_done);
}

static void init_task(void *arg)
{
	struct mem_cgroup *root;

	params = *(const struct scenario_params *)arg;
	init_completion(&tasks_done);
	root = sim_memcg_create(NULL, "/");
	memcg_a = sim_memcg_create(root, "/A");
	if (!root || !memcg_a)
		return;
	mounts_left = 1;

	sim_spawn(0, "kswapd0", kswapd_task, NULL);
	sim_spawn(1, "mount", mount_task, NULL);
	wait_for_completion(&tasks_done);
	wait_for_completion(&tasks_done);

	sim_memcg_offline(memcg_a);
	sim_memcg_free(memcg_a);
	sim_memcg_free(root);
	rcu_barrier();
}

const struct scenario scenario_shrinker_lifetime = {
	.name = "shrinker-lifetime",
	.title = "Shrinker lifetime (v6.12, refcount + RCU)",
	.tree = SIM_KERNEL_TREE,
	.nr_cpus = 2,
	.nr_nodes = 1,
	.kasan_panic = 1,
	.defaults = { .seed = 1, .rounds = 3, .objects = 6 },
	.init = init_task,
};
#endif /* 6.7 and later */
