// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario "fuzz-ops": a program of operations, from a fuzzer's input or a
 * seed, run by several tasks at once against the real shrinker and list_lru
 * code of any variant (through the lab's interface to its API, glue.h): mounting and unmounting filesystem-like caches (a shrinker over a
 * list_lru each), adding and deleting their objects in memcgs, creating and
 * offlining memcgs, reclaiming through shrink_slab() for the root and for
 * memcgs, and waiting for grace periods.
 *
 * The scenario keeps the rules a filesystem and the memcg code keep: a
 * cache's table entry and its objects are touched only under fs_lock, and
 * its shrinker is freed (which waits for a running shrink_slab) before its
 * objects and list_lru go; memcgs are created and offlined under
 * memcg_lock, objects charged to an offlined memcg move to its parent (as
 * objcg reparenting does), and memcgs are freed at teardown. Within those
 * rules anything may interleave. Whatever the program and the schedule,
 * the run must end with nothing allocated and no report (lockdep, KASAN,
 * list corruption from CONFIG_DEBUG_LIST's real lib/list_debug.c, refcount
 * warnings, a shrinker called after it was freed).
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/shrinker.h>
#include <linux/list_lru.h>
#include <linux/memcontrol.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/completion.h>
#include <sim.h>
#include "scenario.h"
#include "../glue/glue.h"


#define MAX_FS 4
#define MAX_MEMCGS 4
#define MAX_TASKS 4
#define MAX_OPS 48

enum op { OP_MOUNT, OP_ADD, OP_DEL, OP_SHRINK, OP_UMOUNT, OP_MEMCG_NEW, OP_MEMCG_OFFLINE,
	  OP_RESCHED, OP_SYNC, NR_OPS };

struct fs {
	struct shrinker *shrinker;
	struct list_lru lru;
	struct list_head objects;	/* every object, for deletes and teardown */
	int nr_objects;
};

struct fs_object {
	struct list_head lru;
	struct list_head all;
	struct mem_cgroup *memcg;
};

static struct fs *fs_table[MAX_FS];
static struct mem_cgroup *memcgs[MAX_MEMCGS];	/* children of the root; NULL: none */
static bool memcg_offline[MAX_MEMCGS];
static DEFINE_MUTEX(fs_lock);
static DEFINE_MUTEX(memcg_lock);
static struct completion done;
static struct scenario_params params;
static int nr_tasks;

/* One task's slice of the program. */
struct program {
	const unsigned char *ops;
	int len;
};
static struct program programs[MAX_TASKS];

static unsigned long fs_count(struct shrinker *s, struct shrink_control *sc)
{
	struct fs *fs = lab_shrinker_private(s);	/* after the shrinker is freed: KASAN */
	unsigned long n;

	n = list_lru_shrink_count(&fs->lru, sc);
	return n ? n : SHRINK_EMPTY;
}

static enum lru_status fs_isolate(struct list_head *item, struct list_lru_one *list,
				  spinlock_t *lock, void *arg)
{
	list_lru_isolate(list, item);
	return LRU_REMOVED;
}

static unsigned long fs_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct fs *fs = lab_shrinker_private(s);

	/* Only take objects off the LRU: freeing them needs fs_lock (teardown does it). */
	return list_lru_shrink_walk(&fs->lru, sc, fs_isolate, NULL);
}

static struct mem_cgroup *memcg_at(int i)
{
	struct mem_cgroup *m = memcgs[i % MAX_MEMCGS];

	return m && !memcg_offline[i % MAX_MEMCGS] ? m : root_mem_cgroup;
}

static void op_mount(int slot)
{
	struct fs *fs;
	char name[16];

	mutex_lock(&fs_lock);
	if (fs_table[slot]) {
		mutex_unlock(&fs_lock);
		return;
	}
	fs = kzalloc(sizeof(*fs), GFP_KERNEL);
	if (!fs)
		goto out;
	INIT_LIST_HEAD(&fs->objects);
	snprintf(name, sizeof(name), "fuzz-%d", slot);
	fs->shrinker = lab_shrinker_alloc(SHRINKER_NUMA_AWARE | SHRINKER_MEMCG_AWARE, name);
	if (!fs->shrinker) {
		kfree(fs);
		goto out;
	}
	SCENARIO_LABEL(fs->shrinker, LABEL_SHRINKER, name);
	if (list_lru_init_memcg(&fs->lru, fs->shrinker)) {
		lab_shrinker_free(fs->shrinker);
		kfree(fs);
		goto out;
	}
	lab_shrinker_register(fs->shrinker, fs_count, fs_scan, fs);
	fs_table[slot] = fs;
out:
	mutex_unlock(&fs_lock);
}

/* Called with fs_lock held. */
static void fs_destroy(struct fs *fs)
{
	struct fs_object *obj, *next;

	lab_shrinker_free(fs->shrinker);
	list_for_each_entry_safe(obj, next, &fs->objects, all) {
		lab_list_lru_del(&fs->lru, &obj->lru);
		list_del(&obj->all);
		kfree(obj);
	}
	list_lru_destroy(&fs->lru);
	kfree(fs);
}

static void op_umount(int slot)
{
	struct fs *fs;

	mutex_lock(&fs_lock);
	fs = fs_table[slot];
	fs_table[slot] = NULL;
	if (fs)
		fs_destroy(fs);
	mutex_unlock(&fs_lock);
}

static void op_add(int slot, int memcg)
{
	struct fs *fs;
	struct fs_object *obj;
	struct mem_cgroup *m;

	mutex_lock(&memcg_lock);	/* the memcg stays online while we charge it */
	mutex_lock(&fs_lock);
	fs = fs_table[slot];
	m = memcg_at(memcg);
	if (!fs || fs->nr_objects >= 8)
		goto out;
	obj = SCENARIO_ALLOC_LRU(&fs->lru, m, sizeof(*obj));
	if (!obj)
		goto out;
	INIT_LIST_HEAD(&obj->lru);
	list_add_tail(&obj->all, &fs->objects);
	fs->nr_objects++;
	lab_list_lru_add(&fs->lru, &obj->lru);
out:
	mutex_unlock(&fs_lock);
	mutex_unlock(&memcg_lock);
}

static void op_del(int slot)
{
	struct fs *fs;
	struct fs_object *obj;

	mutex_lock(&fs_lock);
	fs = fs_table[slot];
	if (fs && !list_empty(&fs->objects)) {
		obj = list_first_entry(&fs->objects, struct fs_object, all);
		lab_list_lru_del(&fs->lru, &obj->lru);
		list_del(&obj->all);
		fs->nr_objects--;
		kfree(obj);
	}
	mutex_unlock(&fs_lock);
}

static void op_memcg_new(int i)
{
	char name[16];

	mutex_lock(&memcg_lock);
	if (!memcgs[i]) {
		snprintf(name, sizeof(name), "/fuzz%d", i);
		memcgs[i] = sim_memcg_create(root_mem_cgroup, name);
		memcg_offline[i] = false;
	}
	mutex_unlock(&memcg_lock);
}

static void op_memcg_offline(int i)
{
	mutex_lock(&memcg_lock);
	if (memcgs[i] && !memcg_offline[i]) {
		sim_memcg_offline(memcgs[i]);
		memcg_offline[i] = true;
	}
	mutex_unlock(&memcg_lock);
}

static void run_program(void *arg)
{
	const struct program *p = arg;
	int i;

	for (i = 0; i + 1 < p->len; i += 2) {
		int op = p->ops[i] % NR_OPS, a = p->ops[i + 1];

		switch (op) {
		case OP_MOUNT: op_mount(a % MAX_FS); break;
		case OP_ADD: op_add(a % MAX_FS, a / MAX_FS); break;
		case OP_DEL: op_del(a % MAX_FS); break;
		case OP_SHRINK: {
			struct mem_cgroup *m = a & 1 ? memcg_at(a >> 1) : root_mem_cgroup;

			lab_shrink_slab(GFP_KERNEL, 0, m, (a >> 3) % 13);
			break;
		}
		case OP_UMOUNT: op_umount(a % MAX_FS); break;
		case OP_MEMCG_NEW: op_memcg_new(a % MAX_MEMCGS); break;
		case OP_MEMCG_OFFLINE: op_memcg_offline(a % MAX_MEMCGS); break;
		case OP_RESCHED: cond_resched(); break;
		case OP_SYNC:
			if (a & 1)
				synchronize_rcu();
			else
				rcu_barrier();
			break;
		}
	}
	complete(&done);
}

/* Without a program, make one from the seed. */
static unsigned char seeded_ops[MAX_TASKS][MAX_OPS * 2];

static void seed_programs(void)
{
	unsigned long long x = params.seed * 0x9e3779b97f4a7c15ULL + 1;
	int t, i;

	for (t = 0; t < nr_tasks; t++) {
		for (i = 0; i < MAX_OPS * 2; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			seeded_ops[t][i] = (unsigned char)(x >> 24);
		}
		programs[t].ops = seeded_ops[t];
		programs[t].len = MAX_OPS * 2;
	}
}

/* A fuzzer's input: one byte of task count, then the tasks' ops in turn. */
static void split_program(void)
{
	const unsigned char *p = params.program;
	int len = (int)params.program_len, t, each;

	nr_tasks = 2 + (len ? p[0] % (MAX_TASKS - 1) : 0);
	if (!len) {
		seed_programs();
		return;
	}
	p++;
	len--;
	each = len / nr_tasks;
	if (each > MAX_OPS * 2)
		each = MAX_OPS * 2;
	for (t = 0; t < nr_tasks; t++) {
		programs[t].ops = p + t * each;
		programs[t].len = each;
	}
}

static void init_task(void *arg)
{
	int i, t;

	params = *(const struct scenario_params *)arg;
	memset(fs_table, 0, sizeof(fs_table));
	memset(memcgs, 0, sizeof(memcgs));
	memset(memcg_offline, 0, sizeof(memcg_offline));
	init_completion(&done);
	if (!sim_memcg_create(NULL, "/"))
		return;
	split_program();
	for (t = 0; t < nr_tasks; t++)
		sim_spawn(t % sim_nr_cpus(), "fuzz", run_program, &programs[t]);
	for (t = 0; t < nr_tasks; t++)
		wait_for_completion(&done);

	/* Teardown: every cache, then every memcg, then wait out RCU. */
	for (i = 0; i < MAX_FS; i++)
		op_umount(i);
	for (i = 0; i < MAX_MEMCGS; i++) {
		if (!memcgs[i])
			continue;
		op_memcg_offline(i);
		sim_memcg_free(memcgs[i]);
		memcgs[i] = NULL;
	}
	sim_memcg_free(root_mem_cgroup);
	rcu_barrier();
}

const struct scenario scenario_fuzz_ops = {
	.name = "fuzz-ops",
	.title = "Random operations on shrinkers, list_lrus and memcgs (fuzzing)",
	.tree = SIM_KERNEL_TREE,
	.nr_cpus = 3,
	.nr_nodes = 1,
	.kasan_panic = 1,
	.defaults = { .seed = 1, .rounds = 1, .objects = 0 },
	.init = init_task,
};
