// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario "shrinker-churn": reclaim through shrink_slab() on two CPUs
 * while two others mount and unmount filesystems as fast as they can, on
 * any variant's kernel: the v6.1 rwsem, the 2023 SRCU series, the v6.12
 * refcount + RCU design, or a break of it. The shape of the stress-ng
 * ramfs stressor that measured the SRCU series' regression (each of its
 * operations mounts and unmounts a ramfs, whose super_block registers and
 * unregisters a shrinker), against the reclaim the shrinker designs exist
 * to make cheap.
 *
 *  CPU0 kswapd0      shrink_slab() for the root: the global shrinker list
 *  CPU1 reclaim-A    shrink_slab() for memcg /A: its shrinker bitmap
 *  CPU2 mount-0      mount, fill, unmount, again: register and unregister
 *  CPU3 mount-1      the same, with its own filesystems
 *
 * With --tasks 2 (prog=t2 in the page), the explorer's small race
 * (wasm/explore.json): kswapd0 on CPU0 and mount-0 on CPU1, beside one
 * resident cache, so that one register and one unregister meet one
 * shrink_slab() walk of the global list: under v6.1's shrinker_rwsem,
 * under the SRCU series' srcu_read_lock(), or under v6.12's RCU and
 * refcounts.
 *
 * Three resident caches stay registered all along, as a system's many
 * other shrinkers do; their objects are all in use, so their scan rotates
 * them and frees nothing (as inodes that still have page cache are),
 * and every reclaim pass keeps calling into them. A mounted filesystem's
 * objects are charged alternately to the root and to /A; its scan takes
 * them off the LRU, and the unmount frees them after the shrinker is gone,
 * in deactivate_locked_super()'s order.
 *
 * The scenario emits a CALL/RETURN pair around each ramfs operation
 * (mount, fill, unmount), mount, unmount, register, unregister and
 * shrink_slab(), the last three named for the variant's own functions, so
 * the run's statistics (stats.c) give the figures: operations per virtual
 * second, shrink_slab() calls that gave up, and the time unregistering
 * spends asleep.
 *
 * Designs: the SRCU series is Qi Zheng's "make slab shrink lockless"
 * (20230223132725.11685-1-zhengqi.arch@bytedance.com), reverted after the
 * ramfs regression; refcount + RCU is his "use refcount+RCU method to
 * implement lockless slab shrink" (20230911094444.68966-1-zhengqi.arch@bytedance.com).
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

#define NR_RESIDENT 3
#define NR_MOUNTERS 2
#define SMALL_TASKS 2	/* --tasks 2: one reclaimer, one mounter, one resident */
#define RESIDENT_OBJECTS 4

/*
 * Work the scenario stands in for, on the stress (measuring) scale only:
 * the rest of a ramfs operation, outside the shrinker API (path lookup,
 * the super_block, inodes, dentries...): 613 us, one stressor's share of
 * the baseline in the refcount + RCU cover letter (9 stressors, 14671
 * ops/s); and kswapd's page-LRU work between two shrink_slab() passes,
 * assumed 50 us. Watching, both are small, so the scene stays on the
 * shrinker code.
 */
#define RAMFS_WORK_NS_STRESS 613000
#define RAMFS_WORK_NS_WATCH 0
#define LRU_WORK_NS_STRESS 50000
#define LRU_WORK_NS_WATCH 300

struct fs {
	struct shrinker *shrinker;
	struct list_lru lru;
	struct list_head objects;	/* every object, for the unmount */
	bool resident;
};

struct fs_object {
	struct list_head lru;
	struct list_head all;
};

static struct mem_cgroup *memcg_a;
static struct fs *resident[NR_RESIDENT];
static struct completion done;
static struct scenario_params params;
static atomic_t mounters_left;
static unsigned int ramfs_work_ns, lru_work_ns;
static int nr_resident, nr_mounters, nr_reclaimers;

/* Two CPUs for the small race (--tasks 2); four for any other --tasks. */
static int churn_cpus(const struct scenario_params *p)
{
	return p->tasks == SMALL_TASKS ? SMALL_TASKS : 2 + NR_MOUNTERS;
}

static unsigned long fs_count(struct shrinker *s, struct shrink_control *sc)
{
	struct fs *fs = lab_shrinker_private(s);
	unsigned long n;

	/* Fault injection: a shrinker that takes its time, and sleeps doing so. */
	if (params.slow_ns)
		sim_sleep_ns(params.slow_ns, SIM_SITE());
	n = list_lru_shrink_count(&fs->lru, sc);
	sim_event(SIM_EV_SHRINKER_COUNT, SIM_SITE(), sim_obj_of(s), sim_obj_of(sc->memcg),
		  sc->nid, (int)n);
	sim_step(SIM_SITE(), SIM_COST_OBJECT_COUNT);
	return n ? n : SHRINK_EMPTY;
}

static enum lru_status fs_isolate(struct list_head *item, struct list_lru_one *list,
				  spinlock_t *lock, void *arg)
{
	const struct fs *fs = arg;

	if (fs->resident)
		return LRU_ROTATE;	/* in use: to the tail, not freed */
	list_lru_isolate(list, item);	/* the unmount frees it */
	return LRU_REMOVED;
}

static unsigned long fs_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct fs *fs = lab_shrinker_private(s);
	unsigned long nr_to_scan = sc->nr_to_scan, freed;

	freed = list_lru_shrink_walk(&fs->lru, sc, fs_isolate, fs);
	sim_step(SIM_SITE(), SIM_COST_OBJECT_SCAN);
	sim_event(SIM_EV_SHRINKER_SCAN, SIM_SITE(), sim_obj_of(s), sim_obj_of(sc->memcg),
		  (int)nr_to_scan, (int)freed);
	return freed;
}

static void fs_add_object(struct fs *fs, struct mem_cgroup *memcg)
{
	struct fs_object *obj = SCENARIO_ALLOC_LRU(&fs->lru, memcg, sizeof(*obj));

	if (!obj)
		return;
	INIT_LIST_HEAD(&obj->lru);
	list_add_tail(&obj->all, &fs->objects);
	lab_list_lru_add(&fs->lru, &obj->lru);
}

static struct fs *fs_mount(const char *name, bool is_resident, int objects)
{
	struct fs *fs;
	int i;

	SCENARIO_CALL("fs_mount", 0, 0, 0);
	fs = kzalloc(sizeof(*fs), GFP_KERNEL);
	if (!fs)
		goto out;
	INIT_LIST_HEAD(&fs->objects);
	fs->resident = is_resident;
	fs->shrinker = lab_shrinker_alloc(SHRINKER_NUMA_AWARE | SHRINKER_MEMCG_AWARE, name);
	if (!fs->shrinker) {
		kfree(fs);
		fs = NULL;
		goto out;
	}
	SCENARIO_LABEL(fs->shrinker, LABEL_SHRINKER, name);
	if (list_lru_init_memcg(&fs->lru, fs->shrinker)) {
		lab_shrinker_free(fs->shrinker);
		kfree(fs);
		fs = NULL;
		goto out;
	}
	SCENARIO_CALL(lab_register_fn, sim_obj_of(fs->shrinker), 0, 0);
	lab_shrinker_register(fs->shrinker, fs_count, fs_scan, fs);
	SCENARIO_RETURN(lab_register_fn, 0);
	for (i = 0; i < objects; i++)
		fs_add_object(fs, i % 2 ? memcg_a : root_mem_cgroup);
out:
	SCENARIO_RETURN("fs_mount", fs ? sim_obj_of(fs->shrinker) : 0);
	return fs;
}

static void fs_umount(struct fs *fs)
{
	struct fs_object *obj, *next;
	int shrinker = sim_obj_of(fs->shrinker);

	SCENARIO_CALL("fs_umount", shrinker, 0, 0);
	/* deactivate_locked_super(): the shrinker goes first... */
	SCENARIO_CALL(lab_unregister_fn, shrinker, 0, 0);
	lab_shrinker_free(fs->shrinker);
	SCENARIO_RETURN(lab_unregister_fn, shrinker);
	/* ...then the objects, then the list_lru. */
	list_for_each_entry_safe(obj, next, &fs->objects, all) {
		lab_list_lru_del(&fs->lru, &obj->lru);
		list_del(&obj->all);
		kfree(obj);
	}
	list_lru_destroy(&fs->lru);
	kfree(fs);
	SCENARIO_RETURN("fs_umount", shrinker);
}

static void mount_task(void *arg)
{
	int id = (int)(long)arg, round;
	char name[16];

	for (round = 0; round < params.rounds; round++) {
		struct fs *fs;

		/* One stress-ng ramfs operation: mount, use, unmount. */
		SCENARIO_CALL("ramfs_op", id, round, 0);
		snprintf(name, sizeof(name), "ramfs-%d.%d", id, round);
		sim_busy_ns(ramfs_work_ns / 2, SIM_SITE());
		fs = fs_mount(name, false, params.objects);
		if (fs) {
			cond_resched();
			fs_umount(fs);
		}
		sim_busy_ns(ramfs_work_ns / 2, SIM_SITE());
		SCENARIO_RETURN("ramfs_op", !!fs);
		if (!fs)
			break;
		cond_resched();
	}
	atomic_dec(&mounters_left);
	complete(&done);
}

/* Reclaim at falling priorities while anyone still mounts. */
static void reclaim_task(void *arg)
{
	static const int priorities[] = { 12, 10, 8, 6, 4, 2 };
	struct mem_cgroup *memcg = arg ? memcg_a : root_mem_cgroup;
	unsigned int pass;

	for (pass = 0; atomic_read(&mounters_left); pass++) {
		int priority = priorities[pass % ARRAY_SIZE(priorities)];
		unsigned long freed;

		SCENARIO_CALL("shrink_slab", 0, sim_obj_of(memcg), priority);
		freed = lab_shrink_slab(GFP_KERNEL, 0, memcg, priority);
		SCENARIO_RETURN("shrink_slab", (int)freed);
		sim_busy_ns(lru_work_ns, SIM_SITE());
		cond_resched();
	}
	complete(&done);
}

static void init_task(void *arg)
{
	struct mem_cgroup *root;
	char name[16];
	long i;

	params = *(const struct scenario_params *)arg;
	ramfs_work_ns = params.stress ? RAMFS_WORK_NS_STRESS : RAMFS_WORK_NS_WATCH;
	lru_work_ns = params.stress ? LRU_WORK_NS_STRESS : LRU_WORK_NS_WATCH;
	nr_resident = params.tasks == SMALL_TASKS ? 1 : NR_RESIDENT;
	nr_mounters = params.tasks == SMALL_TASKS ? 1 : NR_MOUNTERS;
	nr_reclaimers = params.tasks == SMALL_TASKS ? 1 : 2;
	init_completion(&done);
	root = sim_memcg_create(NULL, "/");
	memcg_a = sim_memcg_create(root, "/A");
	if (!root || !memcg_a)
		return;
	for (i = 0; i < nr_resident; i++) {
		snprintf(name, sizeof(name), "resident-%ld", i);
		resident[i] = fs_mount(name, true, RESIDENT_OBJECTS);
	}
	atomic_set(&mounters_left, nr_mounters);

	sim_spawn(0, "kswapd0", reclaim_task, NULL);
	if (nr_reclaimers > 1)
		sim_spawn(1, "reclaim-A", reclaim_task, (void *)1);
	for (i = 0; i < nr_mounters; i++) {
		snprintf(name, sizeof(name), "mount-%ld", i);
		sim_spawn(nr_reclaimers + (int)i, name, mount_task, (void *)i);
	}
	for (i = 0; i < nr_mounters + nr_reclaimers; i++)
		wait_for_completion(&done);

	for (i = 0; i < nr_resident; i++)
		if (resident[i])
			fs_umount(resident[i]);
	sim_memcg_offline(memcg_a);
	sim_memcg_free(memcg_a);
	sim_memcg_free(root);
	rcu_barrier();
}

const struct scenario scenario_shrinker_churn = {
	.name = "shrinker-churn",
	.title = "Shrinker churn: reclaim against mount and unmount, on every design",
	.tree = SIM_KERNEL_TREE,
	.nr_cpus = 2 + NR_MOUNTERS,
	.cpus = churn_cpus,
	.nr_nodes = 1,
	.kasan_panic = 1,
	.defaults = { .seed = 1, .rounds = 3, .objects = 4 },
	.init = init_task,
};
