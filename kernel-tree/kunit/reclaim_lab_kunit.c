// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reclaim Lab's sequential scenarios as KUnit tests, for User-Mode Linux:
 * the bodies (kunit_*_body.h, the same files the simulated machine runs)
 * over the kernel's own shrinker and list_lru code, memcgs made in a
 * kernel-internal mount of cgroup2 and taken offline with rmdir, objects
 * charged to them by kmem accounting; and, on 6.12 and the ports on it,
 * the folio LRU. Each case prints its
 * normalised trace as "reclaim_lab: " lines; kernel-tree/kunit/compare.sh
 * diffs them with the traces of the native and wasm builds.
 *
 * In a kernel built with KASAN, PROVE_LOCKING and DEBUG_ATOMIC_SLEEP, two
 * more suites plant the planted-bugs scene's bugs and read the kernel's
 * reports back from the printk ring buffer (kunit_planted_body.h); lockdep
 * and KASAN report once per boot, so run.sh boots once for each.
 *
 * Built into mm/ of a copy of the tree (kernel-tree/kunit/run.sh), so it
 * can reach shrink_slab(): through mm/internal.h from 6.7 on; in 6.1,
 * where it is static in mm/vmscan.c, by being included at that file's end.
 */
#include <kunit/test.h>
#include <linux/cgroup.h>
#include <linux/debug_locks.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kmsg_dump.h>
#include <linux/list_lru.h>
#include <linux/memcontrol.h>
#include <linux/mount.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/version.h>
#include "internal.h"

#define rl_trace(fmt, ...)	pr_info("reclaim_lab: " fmt "\n", ##__VA_ARGS__)
#define RL_ROOT			root_mem_cgroup

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define RL_IDMAP		(&nop_mnt_idmap)
#else
#define RL_IDMAP		(&init_user_ns)
#endif

/* ---- memcgs: directories of a private cgroup2 mount ---------------------- */

static struct vfsmount *rl_mnt;
static struct {
	struct mem_cgroup *memcg;
	struct dentry *dentry;
	struct dentry *parent;
	const char *name;
} rl_dirs[8];	/* at least RL_MAX_MEMCGS (kunit_common.h): checked in rl_case() */

static int rl_dir_of(struct mem_cgroup *memcg)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(rl_dirs); i++)
		if (rl_dirs[i].memcg == memcg)
			return i;
	return -1;
}

static int rl_cgroup_write(const char *path, const char *val)
{
	struct file *f = file_open_root_mnt(rl_mnt, path, O_WRONLY, 0);
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, val, strlen(val), &pos);
	fput(f);
	return n < 0 ? n : 0;
}

static int rl_mount(void)
{
	struct file_system_type *type = get_fs_type("cgroup2");

	if (!type)
		return -ENODEV;
	rl_mnt = kern_mount(type);
	put_filesystem(type);
	if (IS_ERR(rl_mnt)) {
		int err = PTR_ERR(rl_mnt);

		rl_mnt = NULL;
		return err;
	}
	return 0;
}

/* mkdir <name> (its last component under parent's directory), memory enabled. */
static struct mem_cgroup *rl_memcg_create(struct mem_cgroup *parent, const char *name)
{
	int p = rl_dir_of(parent), slot = rl_dir_of(NULL);
	struct dentry *dir = p >= 0 ? rl_dirs[p].dentry : rl_mnt->mnt_root, *d;
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	struct cgroup_subsys_state *css;
	char path[64];
	int err;

	if (slot < 0)
		return NULL;
	snprintf(path, sizeof(path), "%.*scgroup.subtree_control", (int)(base - name), name);
	err = rl_cgroup_write(path, "+memory");
	if (err) {
		pr_err("reclaim_lab: writing %s: %d\n", path, err);
		return NULL;
	}
	inode_lock_nested(d_inode(dir), I_MUTEX_PARENT);
	d = lookup_one_len(base, dir, strlen(base));
	if (IS_ERR(d)) {
		inode_unlock(d_inode(dir));
		return NULL;
	}
	err = vfs_mkdir(RL_IDMAP, d_inode(dir), d, 0755);
	dput(d);
	/* kernfs leaves the dentry negative: look the directory up again */
	d = err ? ERR_PTR(err) : lookup_one_len(base, dir, strlen(base));
	inode_unlock(d_inode(dir));
	if (IS_ERR(d) || d_really_is_negative(d)) {
		pr_err("reclaim_lab: mkdir %s: %ld\n", name, IS_ERR(d) ? PTR_ERR(d) : -ENOENT);
		if (!IS_ERR(d))
			dput(d);
		return NULL;
	}
	css = css_tryget_online_from_dir(d, &memory_cgrp_subsys);
	if (IS_ERR(css)) {
		pr_err("reclaim_lab: no memory css in %s: %ld\n", name, PTR_ERR(css));
		dput(d);
		return NULL;
	}
	rl_dirs[slot].memcg = mem_cgroup_from_css(css);
	rl_dirs[slot].dentry = d;
	rl_dirs[slot].parent = dir;
	rl_dirs[slot].name = name;
	return rl_dirs[slot].memcg;
}

/* rmdir: the cgroup goes; the memcg goes offline after an RCU grace period, from a workqueue. */
static void rl_memcg_offline(struct mem_cgroup *memcg)
{
	int i = rl_dir_of(memcg), n;
	struct dentry *dir;
	int err;

	if (i < 0 || !mem_cgroup_online(memcg))
		return;
	dir = rl_dirs[i].parent;
	inode_lock_nested(d_inode(dir), I_MUTEX_PARENT);
	err = vfs_rmdir(RL_IDMAP, d_inode(dir), rl_dirs[i].dentry);
	inode_unlock(d_inode(dir));
	if (err) {
		pr_err("reclaim_lab: rmdir %s: %d\n", rl_dirs[i].name, err);
		return;
	}
	for (n = 0; n < 1000 && mem_cgroup_online(memcg); n++)
		msleep(10);
	if (mem_cgroup_online(memcg))
		pr_err("reclaim_lab: %s still online 10 s after rmdir\n", rl_dirs[i].name);
}

static void rl_memcg_release(struct mem_cgroup *memcg)
{
	int i = rl_dir_of(memcg);

	if (!memcg || i < 0)
		return;
	rl_memcg_offline(memcg);
	css_put(&memcg->css);
	dput(rl_dirs[i].dentry);
	memset(&rl_dirs[i], 0, sizeof(rl_dirs[i]));
}

static void *rl_alloc_charged(size_t size, struct mem_cgroup *memcg)
{
	struct mem_cgroup *old;
	void *p;

	if (!memcg)
		return kzalloc(size, GFP_KERNEL);
	old = set_active_memcg(memcg);
	p = kzalloc(size, GFP_KERNEL_ACCOUNT);
	set_active_memcg(old);
	return p;
}

/* ---- the shrinker API of this kernel ------------------------------------- */

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
/* mm/shrinker.c: shrinker_alloc(), shrinker_register(), shrinker_free() */
#define rl_shrinker_alloc(flags, name)	shrinker_alloc(flags, "%s", name)
#define rl_shrinker_private(s)		((s)->private_data)
#define rl_shrinker_free(s)		shrinker_free(s)
#define rl_list_lru_add(lru, item)	list_lru_add_obj(lru, item)
#define rl_list_lru_del(lru, item)	list_lru_del_obj(lru, item)

static void rl_shrinker_register(struct shrinker *s,
				 unsigned long (*count)(struct shrinker *, struct shrink_control *),
				 unsigned long (*scan)(struct shrinker *, struct shrink_control *),
				 void *private_data)
{
	s->count_objects = count;
	s->scan_objects = scan;
	s->private_data = private_data;
	shrinker_register(s);
}

static int rl_shrinker_bit(struct mem_cgroup *memcg, struct shrinker *s)
{
	struct shrinker_info *info;
	int set = 0;

	rcu_read_lock();
	info = rcu_dereference(memcg->nodeinfo[0]->shrinker_info);
	if (info && s->id >= 0 && s->id < info->map_nr_max)
		set = test_bit(s->id % SHRINKER_UNIT_BITS, info->unit[s->id / SHRINKER_UNIT_BITS]->map);
	rcu_read_unlock();
	return set;
}

/* xchg_nr_deferred() and xchg_nr_deferred_memcg() of mm/shrinker.c, read without the xchg */
static long rl_nr_deferred(struct mem_cgroup *memcg, struct shrinker *s)
{
	struct shrinker_info *info;
	long nr = 0;

	if (!memcg || !(s->flags & SHRINKER_MEMCG_AWARE))
		return atomic_long_read(&s->nr_deferred[0]);
	rcu_read_lock();
	info = rcu_dereference(memcg->nodeinfo[0]->shrinker_info);
	if (info && s->id >= 0 && s->id < info->map_nr_max)
		nr = atomic_long_read(&info->unit[s->id / SHRINKER_UNIT_BITS]->nr_deferred[s->id % SHRINKER_UNIT_BITS]);
	rcu_read_unlock();
	return nr;
}

/* mm/shrinker.c's, as mm/shrinker_debug.c declares them */
extern struct mutex shrinker_mutex;
extern struct list_head shrinker_list;

#define rl_shrinkers_lock()	mutex_lock(&shrinker_mutex)
#define rl_shrinkers_unlock()	mutex_unlock(&shrinker_mutex)

/* The root memcg's deferred count at id (node 0), shrinker_mutex held; NULL past its map. */
static atomic_long_t *rl_root_deferred_at(int id)
{
	struct shrinker_info *info = rcu_dereference_protected(root_mem_cgroup->nodeinfo[0]->shrinker_info,
							       lockdep_is_held(&shrinker_mutex));

	if (!info || id >= info->map_nr_max)
		return NULL;
	return &info->unit[id / SHRINKER_UNIT_BITS]->nr_deferred[id % SHRINKER_UNIT_BITS];
}
#else
/*
 * 6.1's mm/vmscan.c (this file is included at its end): a shrinker lives
 * in its owner, prealloc_shrinker() before list_lru_init_memcg(),
 * register_shrinker_prepared(), unregister_shrinker(), as a super_block's.
 */
struct rl_owned_shrinker {
	struct shrinker shrinker;
	void *private_data;
	bool registered;
};

#define rl_list_lru_add(lru, item)	list_lru_add(lru, item)
#define rl_list_lru_del(lru, item)	list_lru_del(lru, item)
#define rl_shrinker_private(s)		(container_of(s, struct rl_owned_shrinker, shrinker)->private_data)

static struct shrinker *rl_shrinker_alloc(unsigned int flags, const char *name)
{
	struct rl_owned_shrinker *o = kzalloc(sizeof(*o), GFP_KERNEL);

	if (!o)
		return NULL;
	o->shrinker.flags = flags;
	o->shrinker.seeks = DEFAULT_SEEKS;
	if (prealloc_shrinker(&o->shrinker, "%s", name)) {
		kfree(o);
		return NULL;
	}
	return &o->shrinker;
}

static void rl_shrinker_register(struct shrinker *s,
				 unsigned long (*count)(struct shrinker *, struct shrink_control *),
				 unsigned long (*scan)(struct shrinker *, struct shrink_control *),
				 void *private_data)
{
	struct rl_owned_shrinker *o = container_of(s, struct rl_owned_shrinker, shrinker);

	s->count_objects = count;
	s->scan_objects = scan;
	o->private_data = private_data;
	register_shrinker_prepared(s);
	o->registered = true;
}

static void rl_shrinker_free(struct shrinker *s)
{
	struct rl_owned_shrinker *o = container_of(s, struct rl_owned_shrinker, shrinker);

	if (o->registered)
		unregister_shrinker(s);
	else
		free_prealloced_shrinker(s);
	kfree(o);
}

static int rl_shrinker_bit(struct mem_cgroup *memcg, struct shrinker *s)
{
	struct shrinker_info *info;
	int set = 0;

	rcu_read_lock();
	info = rcu_dereference(memcg->nodeinfo[0]->shrinker_info);
	if (info && s->id >= 0)
		set = test_bit(s->id, info->map);
	rcu_read_unlock();
	return set;
}

/* xchg_nr_deferred() and xchg_nr_deferred_memcg() of 6.1's mm/vmscan.c, without the xchg */
static long rl_nr_deferred(struct mem_cgroup *memcg, struct shrinker *s)
{
	struct shrinker_info *info;
	long nr = 0;

	if (!memcg || !(s->flags & SHRINKER_MEMCG_AWARE))
		return atomic_long_read(&s->nr_deferred[0]);
	rcu_read_lock();
	info = rcu_dereference(memcg->nodeinfo[0]->shrinker_info);
	if (info && s->id >= 0)
		nr = atomic_long_read(&info->nr_deferred[s->id]);
	rcu_read_unlock();
	return nr;
}

#define rl_shrinkers_lock()	down_write(&shrinker_rwsem)
#define rl_shrinkers_unlock()	up_write(&shrinker_rwsem)

/* The root memcg's deferred count at id (node 0), shrinker_rwsem held; NULL past its map. */
static atomic_long_t *rl_root_deferred_at(int id)
{
	struct shrinker_info *info = rcu_dereference_protected(root_mem_cgroup->nodeinfo[0]->shrinker_info,
							       lockdep_is_held(&shrinker_rwsem));

	if (!info || id >= shrinker_nr_max)
		return NULL;
	return &info->nr_deferred[id];
}
#endif

/*
 * What a freed memcg-aware shrinker leaves in the root memcg: its deferred
 * count at its id (reparent_shrinker_deferred() adds an offline memcg's
 * there too), which neither shrinker_free() nor anything else clears, so
 * the next shrinker given that id starts from it (xchg_nr_deferred_memcg()).
 * The simulation starts every scenario from a fresh machine, where these
 * are 0; so that every case starts from that state in a boot it shares,
 * the counts at the ids no registered shrinker holds are zeroed before
 * each case (the ids UML's own shrinkers hold are left as they are). In a
 * boot the cases share in a shuffled order, kunit-seq after kunit-bigcount
 * otherwise starts with the 1.2 billion objects bigcount deferred in A
 * and A's offline moved to the root, at the id its first shrinker takes.
 */
static void rl_forget_deferred(void)
{
	unsigned long *held = bitmap_zalloc(1 << 16, GFP_KERNEL);
	struct shrinker *s;
	atomic_long_t *nr;
	long left;
	int id;

	if (!held)
		return;
	rl_shrinkers_lock();
	list_for_each_entry(s, &shrinker_list, list)
		if ((s->flags & SHRINKER_MEMCG_AWARE) && s->id >= 0 && s->id < (1 << 16))
			__set_bit(s->id, held);
	for (id = 0; id < (1 << 16) && (nr = rl_root_deferred_at(id)); id++) {
		if (test_bit(id, held))
			continue;
		left = atomic_long_xchg(nr, 0);
		if (left)
			pr_info("reclaim_lab_state: the root memcg's nr_deferred %ld at free shrinker id %d zeroed\n",
				left, id);
	}
	rl_shrinkers_unlock();
	bitmap_free(held);
}

#define rl_shrink_slab(gfp, memcg, priority)	shrink_slab(gfp, 0, memcg, priority)

#include "kunit_seq_body.h"
#include "kunit_lifetime_body.h"
#include "kunit_churn_body.h"
#include "kunit_bitmap_body.h"
#include "kunit_offline_body.h"
#include "kunit_deferred_body.h"
#include "kunit_reuse_body.h"
#include "kunit_runaway_body.h"
#include "kunit_bigcount_body.h"

/*
 * Inodes with page cache kept off the inode LRU (5.16 and later; compared
 * on v6.12 and lru-batch-locks, whose fs/ and page cache code are
 * v6.12's, with variant inode). Real inodes of a pseudo file system
 * mounted with kern_mount(): its super_operations have no drop_inode, so
 * the final iput() of a hashed inode leaves it cached (iput_final() ->
 * __inode_add_lru()), and an evict_inode that tells the body which inodes
 * evict() freed. Real page cache: __filemap_get_folio(FGP_CREAT),
 * truncate_inode_pages(), invalidate_mapping_pages() from
 * inode_lru_isolate().
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/pagemap.h>
#include <linux/pseudo_fs.h>
#include <linux/swap.h>
#define RL_INODE 1

/* fs/internal.h, which mm/ cannot include */
extern long prune_icache_sb(struct super_block *sb, struct shrink_control *sc);

static struct vfsmount *rl_inode_mnt;
static void rl_inode_evicted(struct inode *inode);

static void rl_inode_evict_inode(struct inode *inode)
{
	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	rl_inode_evicted(inode);
}

static const struct super_operations rl_inode_sops = {
	.statfs		= simple_statfs,
	.evict_inode	= rl_inode_evict_inode,
};

static int rl_inode_init_fs_context(struct fs_context *fc)
{
	struct pseudo_fs_context *ctx = init_pseudo(fc, 0x726c6162);

	if (!ctx)
		return -ENOMEM;
	ctx->ops = &rl_inode_sops;
	return 0;
}

static struct file_system_type rl_inode_fs_type = {
	.name			= "reclaim_lab_inodes",
	.init_fs_context	= rl_inode_init_fs_context,
	.kill_sb		= kill_anon_super,
};

static struct super_block *rl_inode_mount(void)
{
	rl_inode_mnt = kern_mount(&rl_inode_fs_type);
	if (IS_ERR(rl_inode_mnt)) {
		rl_inode_mnt = NULL;
		return NULL;
	}
	return rl_inode_mnt->mnt_sb;
}

static void rl_inode_unmount(struct super_block *sb)
{
	kern_unmount(rl_inode_mnt);
	rl_inode_mnt = NULL;
}

static struct inode *rl_inode_new(struct super_block *sb, unsigned long ino)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = ino;
	inode->i_mode = S_IFREG | 0600;
	insert_inode_hash(inode);
	return inode;
}

static int rl_inode_add_page(struct inode *inode, unsigned long index)
{
	struct folio *folio = __filemap_get_folio(inode->i_mapping, index,
						  FGP_LOCK | FGP_CREAT, GFP_KERNEL);

	if (IS_ERR(folio))
		return PTR_ERR(folio);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	folio_put(folio);
	return 0;
}

/* The new folios out of this CPU's lru_add batch, onto the LRU lists. */
static void rl_inode_settle(void)
{
	lru_add_drain();
}

static void rl_inode_truncate(struct inode *inode, unsigned long index)
{
	truncate_inode_pages(inode->i_mapping, (loff_t)index << PAGE_SHIFT);
}

#define rl_prune_icache_sb(sb, sc)	prune_icache_sb(sb, sc)

#include "kunit_inode_body.h"

/*
 * Shadow entries (kunit_shadow_body.h): the case's page cache charged to a
 * memcg of its own in a cgroup2 mount of its own, reclaimed through the
 * kernel's shrink_inactive_list() (kunit_lru_vmscan.h, appended to
 * mm/vmscan.c) and its shadow nodes scanned by the shadow-node shrinker's
 * own functions (kunit_inode_workingset.h, appended to mm/workingset.c
 * by run.sh).
 */
static struct mem_cgroup *rl_shadow_memcg_create(void)
{
	struct mem_cgroup *memcg;

	if (rl_mount())
		return NULL;
	memcg = rl_memcg_create(RL_ROOT, "shadow");
	if (!memcg) {
		kern_unmount(rl_mnt);
		rl_mnt = NULL;
	}
	return memcg;
}

static void rl_shadow_memcg_release(struct mem_cgroup *memcg)
{
	rl_memcg_release(memcg);
	kern_unmount(rl_mnt);
	rl_mnt = NULL;
}

/* count_shadow_nodes() reads the memcg's page counts: flushed, they are exact */
#define rl_shadow_flush(memcg)	mem_cgroup_flush_stats(memcg)

#include "kunit_shadow_body.h"
#endif

/*
 * 6.12's folio LRU (compared on branches of 6.12 and later, with variant
 * v6.12): real folios from the page allocator, charged to a memcg of the
 * case's own, through the kernel's own mm/swap.c and mm/vmscan.c;
 * shrink_inactive_list() through the hook run.sh appends to mm/vmscan.c
 * (kunit_lru_vmscan.h).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/mm_inline.h>
#include <linux/pagevec.h>
#include <linux/sched/mm.h>
#define RL_FOLIO_LRU 1
#define rl_folio_alloc()	folio_alloc(GFP_KERNEL, 0)

#include "kunit_lru_body.h"
#endif

/* ---- planted bugs, for the kernel's own checkers ------------------------------- */

#if defined(CONFIG_KASAN_GENERIC) && defined(CONFIG_PROVE_LOCKING) && \
	defined(CONFIG_DEBUG_ATOMIC_SLEEP) && defined(CONFIG_PREEMPT_RCU)
#define RL_PLANTED

static struct kmsg_dump_iter rl_kmsg;

/* Read the ring buffer up to its end. */
static void rl_reports_skip(void)
{
	char line[128];
	size_t len;

	while (kmsg_dump_get_line(&rl_kmsg, false, line, sizeof(line), &len))
		;
}

/* The console lines printed since, one per line. */
static void rl_reports_take(char *buf, size_t size)
{
	size_t n = 0, len;

	while (n + 2 < size && kmsg_dump_get_line(&rl_kmsg, false, buf + n, size - n - 1, &len)) {
		n += min(len, size - n - 2);
		if (n && buf[n - 1] != '\n')
			buf[n++] = '\n';
	}
	buf[n] = '\0';
}

#define rl_debug_locks()	READ_ONCE(debug_locks)

#include "kunit_planted_body.h"

/*
 * A KASAN report fails the KUnit test it happens in (mm/kasan/report.c,
 * fail_non_kasan_kunit_test()); this one is planted, so the body runs
 * with no test recorded as current, and the result is checked after.
 */
static void rl_planted_case(struct kunit *test, bool uaf_first)
{
	struct kunit *saved = current->kunit_test;
	int err;

	kmsg_dump_rewind(&rl_kmsg);
	current->kunit_test = NULL;
	err = rl_planted_run(uaf_first);
	current->kunit_test = saved;
	KUNIT_EXPECT_EQ(test, err, 0);
}

/* Case names differ from their suites' (kunit.py's parser needs that). */
static void reclaim_lab_planted_bugs(struct kunit *test)
{
	rl_planted_case(test, false);
}

static void reclaim_lab_planted_uaf_first(struct kunit *test)
{
	rl_planted_case(test, true);
}

static struct kunit_case reclaim_lab_planted_cases[] = {
	KUNIT_CASE(reclaim_lab_planted_bugs),
	{}
};

static struct kunit_case reclaim_lab_planted_taint_cases[] = {
	KUNIT_CASE(reclaim_lab_planted_uaf_first),
	{}
};

/* Each in a boot of its own: run.sh boots with one suite's name as the filter. */
static struct kunit_suite reclaim_lab_planted_suite = {
	.name = "reclaim_lab_planted",
	.test_cases = reclaim_lab_planted_cases,
};

static struct kunit_suite reclaim_lab_planted_taint_suite = {
	.name = "reclaim_lab_planted_taint",
	.test_cases = reclaim_lab_planted_taint_cases,
};
#endif

/* ---- the vmscan tracepoints, as tracefs shows them --------------------------- */

#if defined(CONFIG_EVENT_TRACING) && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
/*
 * In a kernel with tracing (v6.12.kunitconfig), each case in a cgroup2
 * mount of its own runs with the two tracepoints of do_shrink_slab()
 * enabled in a trace instance of its own, made as a module would make
 * one (samples/ftrace/sample-trace-array.c: trace_array_get_by_name(),
 * whose buffer is full-sized at once, and trace_array_set_clr_event());
 * after the body, the instance's "trace" file is read through a
 * kernel-internal mount of tracefs, as cat reads it, and printed line by
 * line as "reclaim_lab_ftrace: <line>", after "reclaim_lab_ftrace:
 * scenario NAME" (run.sh cuts the console there).
 */
#include <linux/trace.h>
#include <linux/trace_events.h>
#include <linux/uio.h>

static const char *const rl_ftrace_events[] = { "mm_shrink_slab_start", "mm_shrink_slab_end" };
static struct trace_array *rl_ftrace_tr;

static void rl_ftrace_enable(bool on)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(rl_ftrace_events); i++) {
		err = trace_array_set_clr_event(rl_ftrace_tr, "vmscan", rl_ftrace_events[i], on);
		if (err)
			pr_err("reclaim_lab: %s vmscan:%s: %d\n", on ? "enabling" : "disabling",
			       rl_ftrace_events[i], err);
	}
}

static void rl_ftrace_begin(void)
{
	rl_ftrace_tr = trace_array_get_by_name("reclaim_lab", "vmscan");
	if (IS_ERR_OR_NULL(rl_ftrace_tr)) {
		pr_err("reclaim_lab: no trace instance: %ld\n", PTR_ERR(rl_ftrace_tr));
		rl_ftrace_tr = NULL;
		return;
	}
	rl_ftrace_enable(true);
}

/*
 * read(2) of a tracefs file: kernel_read() refuses a file that has both
 * ->read and ->read_iter, as "trace" has (seq_read(), seq_read_iter()),
 * so its ->read_iter, as seq_read() calls it for cat.
 */
static ssize_t rl_tracefs_read(struct file *f, void *buf, size_t count, loff_t *pos)
{
	struct kvec iov = { .iov_base = buf, .iov_len = count };
	struct iov_iter iter;
	struct kiocb kiocb;
	ssize_t ret;

	init_sync_kiocb(&kiocb, f);
	kiocb.ki_pos = *pos;
	iov_iter_kvec(&iter, ITER_DEST, &iov, 1, count);
	ret = f->f_op->read_iter(&kiocb, &iter);
	if (ret > 0)
		*pos = kiocb.ki_pos;
	return ret;
}

/* cat instances/reclaim_lab/trace, a line of the console each */
static void rl_ftrace_end(const char *name)
{
	static char chunk[1024], line[512];
	struct file_system_type *type;
	struct vfsmount *mnt;
	size_t len = 0;
	struct file *f;
	loff_t pos = 0;
	ssize_t n, i;

	if (!rl_ftrace_tr)
		return;
	rl_ftrace_enable(false);
	pr_info("reclaim_lab_ftrace: scenario %s\n", name);
	type = get_fs_type("tracefs");
	mnt = type ? kern_mount(type) : ERR_PTR(-ENODEV);
	if (type)
		put_filesystem(type);
	f = IS_ERR(mnt) ? ERR_CAST(mnt) :
		file_open_root_mnt(mnt, "instances/reclaim_lab/trace", O_RDONLY, 0);
	if (IS_ERR(f)) {
		pr_err("reclaim_lab: reading tracefs instances/reclaim_lab/trace: %ld\n", PTR_ERR(f));
	} else {
		while ((n = rl_tracefs_read(f, chunk, sizeof(chunk), &pos)) > 0) {
			for (i = 0; i < n; i++) {
				if (chunk[i] != '\n' && len < sizeof(line) - 1) {
					line[len++] = chunk[i];
					continue;
				}
				if (chunk[i] != '\n')
					pr_err("reclaim_lab: a trace line longer than %zu characters\n",
					       sizeof(line) - 1);
				line[len] = '\0';
				pr_info("reclaim_lab_ftrace: %s\n", line);
				len = 0;
			}
		}
		if (n < 0)
			pr_err("reclaim_lab: reading tracefs instances/reclaim_lab/trace: %zd\n", n);
		fput(f);
		/* a kthread's fput() is deferred: the file must let go of the instance */
		flush_delayed_fput();
	}
	if (!IS_ERR(mnt))
		kern_unmount(mnt);
	trace_array_put(rl_ftrace_tr);
	n = trace_array_destroy(rl_ftrace_tr);
	if (n)
		pr_err("reclaim_lab: trace instance not destroyed: %zd\n", n);
	rl_ftrace_tr = NULL;
}
#else
static void rl_ftrace_begin(void) { }
static void rl_ftrace_end(const char *name) { }
#endif

/* ---- the KUnit suite --------------------------------------------------------- */

/* Each case in a cgroup2 mount of its own; its body prints the trace and returns 0 or -errno. */
static void rl_case(struct kunit *test, int (*body)(void), const char *name)
{
	BUILD_BUG_ON(ARRAY_SIZE(rl_dirs) < RL_MAX_MEMCGS);
	rl_forget_deferred();
	KUNIT_ASSERT_EQ(test, rl_mount(), 0);
	rl_ftrace_begin();
	KUNIT_EXPECT_EQ(test, body(), 0);
	rl_ftrace_end(name);
	kern_unmount(rl_mnt);
	rl_mnt = NULL;
}

/* What each "where" of kunit.def needs of this kernel. */
#define RL_IF_ALL(...)		__VA_ARGS__
#define RL_IF_WORD64(...)	__VA_ARGS__	/* UML is a 64-bit kernel */
#ifdef RL_INODE
#define RL_IF_INODE(...)		__VA_ARGS__
#else
#define RL_IF_INODE(...)
#endif
#ifdef RL_FOLIO_LRU
#define RL_IF_FOLIO_LRU(...)	__VA_ARGS__
#else
#define RL_IF_FOLIO_LRU(...)
#endif
#define RL_IF_PLANTED(...)	/* suites of their own, below */

/* In a cgroup2 mount of its own (ALL, WORD64), or as it is. */
#define RL_RUN_ALL(test, fn, name)	rl_case(test, fn, name)
#define RL_RUN_WORD64(test, fn, name)	rl_case(test, fn, name)
#define RL_RUN_INODE(test, fn, name)	KUNIT_EXPECT_EQ(test, fn(), 0)
#define RL_RUN_FOLIO_LRU(test, fn, name)	rl_case(test, fn, name)

/* A case for each scenario of kunit.def this kernel can run. */
#define KUNIT_SCENARIO(ident, name, fn, where, variant, title)		\
	RL_IF_##where(static void reclaim_lab_##ident(struct kunit *test)	\
	{									\
		RL_RUN_##where(test, fn, name);				\
	})
#include "kunit.def"
#undef KUNIT_SCENARIO

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
/*
 * The folio LRU's invariants (kunit_folio_lru_body.h): a suite of its
 * own, reclaim_lab_folio_lru, booted on its own by run.sh; on the ports
 * of the 2018 lru_lock RFC it checks the batches too. Order-0 folios
 * charged to a memcg of the case's own, so that its lruvec holds them
 * alone.
 */
#include <linux/mm_inline.h>
#include <linux/pagevec.h>
#include <linux/swap.h>

static struct folio *rl_fl_folio_alloc(struct mem_cgroup *memcg, bool anon)
{
	struct folio *folio = folio_alloc(GFP_KERNEL, 0);
	struct mem_cgroup *old;
	int err;

	if (!folio)
		return NULL;
	if (anon)
		__folio_set_swapbacked(folio);
	old = set_active_memcg(memcg);
	err = mem_cgroup_charge(folio, NULL, GFP_KERNEL);
	set_active_memcg(old);
	if (err) {
		folio_put(folio);
		return NULL;
	}
	return folio;
}

#include "kunit_folio_lru_body.h"

static void rl_fl_case(struct kunit *test, int (*body)(void), const char *name)
{
	KUNIT_ASSERT_EQ(test, rl_mount(), 0);
	rl_trace("scenario %s", name);
	KUNIT_EXPECT_EQ(test, body(), 0);
	kern_unmount(rl_mnt);
	rl_mnt = NULL;
}

static void reclaim_lab_folio_lru_walk(struct kunit *test)
{
	rl_fl_case(test, rl_fl_walk_run, "kunit-folio-lru-walk");
}

static void reclaim_lab_folio_lru_stress(struct kunit *test)
{
	rl_fl_case(test, rl_fl_stress_run, "kunit-folio-lru-stress");
}

static void reclaim_lab_folio_lru_rfc537(struct kunit *test)
{
	rl_fl_case(test, rl_fl_rfc537_run, "kunit-folio-lru-rfc537");
}

static struct kunit_case reclaim_lab_folio_lru_cases[] = {
	KUNIT_CASE(reclaim_lab_folio_lru_walk),
	KUNIT_CASE(reclaim_lab_folio_lru_rfc537),
	KUNIT_CASE_SLOW(reclaim_lab_folio_lru_stress),
	{}
};

static struct kunit_suite reclaim_lab_folio_lru_suite = {
	.name = "reclaim_lab_folio_lru",
	.test_cases = reclaim_lab_folio_lru_cases,
};
#define RL_FL_SUITE	&reclaim_lab_folio_lru_suite,
#else
#define RL_FL_SUITE
#endif

/* In kunit.def's order, as compare.sh reads them. */
static struct kunit_case reclaim_lab_cases[] = {
#define KUNIT_SCENARIO(ident, name, fn, where, variant, title)		\
	RL_IF_##where(KUNIT_CASE(reclaim_lab_##ident),)
#include "kunit.def"
#undef KUNIT_SCENARIO
	{}
};

/*
 * reclaim_lab_order=IDENT,IDENT,... on the kernel's command line (run.sh's
 * boot in a shuffled order): the suite runs its cases in that order, all
 * in the one boot, so that a case which depends on what another left in
 * the kernel shows it. The order must name every case the suite runs, each
 * once, or the suite fails to initialise.
 */
static char rl_order[256];

static int __init rl_order_setup(char *str)
{
	strscpy(rl_order, str, sizeof(rl_order));
	return 1;
}
__setup("reclaim_lab_order=", rl_order_setup);

static int rl_suite_init(struct kunit_suite *suite)
{
	struct kunit_case *cases = suite->test_cases;
	char order[sizeof(rl_order)], name[64], *p = order, *ident;
	int n = 0, i;

	if (!rl_order[0])
		return 0;
	strscpy(order, rl_order, sizeof(order));
	while ((ident = strsep(&p, ",")) != NULL) {
		snprintf(name, sizeof(name), "reclaim_lab_%s", ident);
		for (i = n; cases[i].run_case && strcmp(cases[i].name, name); i++)
			;
		if (!cases[i].run_case) {
			pr_err("reclaim_lab_order: no case %s to run next (unknown, or named twice)\n",
			       name);
			return -EINVAL;
		}
		swap(cases[n], cases[i]);
		n++;
	}
	if (cases[n].run_case) {
		pr_err("reclaim_lab_order: %s is not in the order\n", cases[n].name);
		return -EINVAL;
	}
	return 0;
}

static struct kunit_suite reclaim_lab_suite = {
	.name = "reclaim_lab",
	.suite_init = rl_suite_init,
	.test_cases = reclaim_lab_cases,
};
#ifdef RL_PLANTED
kunit_test_suites(&reclaim_lab_suite, RL_FL_SUITE &reclaim_lab_planted_suite,
		  &reclaim_lab_planted_taint_suite);
#else
kunit_test_suites(&reclaim_lab_suite, RL_FL_SUITE);
#endif
