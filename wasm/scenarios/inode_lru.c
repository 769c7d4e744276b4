// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario "inode-lru": inodes with page cache on and off the inode LRU
 * (seed 004, Johannes Weiner's "vfs: keep inodes with page cache off the
 * inode shrinker LRU", 20210614211904.14420-1-hannes@cmpxchg.org, merged
 * in 5.16). Runs on the variants inode (v6.12), inode-before (branch
 * inode-lru-before) and inode-rotate (branch inode-lru-rotate, Dave
 * Chinner's LRU_ROTATE_NODEFER counter-proposal): the inode LRU code is
 * the branch's fs/inode.c, extracted; list_lru and shrink_slab() are the
 * real mm/list_lru.c and mm/shrinker.c; the page cache is the branch's
 * mm/filemap.c, mm/truncate.c and mm/workingset.c, extracted
 * (wasm/glue/inode/filemap.c), over its real folio LRU (wasm/glue/lru/):
 * a reclaimed page leaves a shadow entry, and an XArray node left holding
 * only shadows goes on workingset.c's list_lru, whose shrinker
 * ("mm-shadow", registered by the real workingset_init()) frees it.
 *
 * A workingset of N inodes holding P active pages each is read in (each
 * page accessed twice: folio_mark_accessed() activates it) and closed
 * (iput()); then a streaming reader on CPU 0 reads files of F pages once
 * each, closing each after reading it, while kswapd on CPU 1 does
 * drop-behind reclaim: each shrink_node() runs the real
 * shrink_inactive_list() on inactive >> priority pages of the inactive
 * file list, then the real shrink_slab(), which asks the super block's
 * shrinker (fs/super.c's, for inodes only) to walk the inode LRU with the
 * real inode_lru_isolate(), and the shadow-node shrinker to walk its.
 *
 * Parameters come as a program of 5-byte records: a key byte, then a
 * 32-bit little-endian value (keys below; absent keys keep defaults).
 *
 * Scale: a run stands for 2^k times its populations (key SCALE_SHIFT;
 * or, with INODES 0 and MODEL_INODES given, the smallest k that brings
 * the simulated workingset within AUTO_PAGES pages and AUTO_INODES inodes,
 * the inodes rounded to MODEL_INODES / 2^k; STREAM_PAGES 0 reads four
 * times the inactive list):
 * N inodes, their pages and the inactive list are divided by 2^k, the
 * reclaim priority is DEF_PRIORITY - k and the shrinkers' batches 1024 >> k
 * (fs/super.c sets s_shrink->batch = 1024) and SHRINK_BATCH >> k (the
 * shadow-node shrinker's, 128), so that every shrink_slab()
 * and every page scan asks for as many objects as at full size.
 *
 * Cost model (virtual ns, besides the runtime's for each lock, atomic and
 * list operation of the real code): a reclaimed page's other work
 * (rmap, freeing to the buddy allocator) RECLAIM_NS; each inode
 * the shrinker visits one memory access, HIT_NS if the modelled inodes
 * (MODEL_INODES x INODE_BYTES) fit in a last-level cache of LLC_MIB,
 * else a DRAM miss MISS_NS, in proportion; the streaming reader's copy
 * READ_NS per page. The inactive list's budget is what is left of
 * MEMORY_MIB after the workingset and the inodes themselves
 * (MODEL_INODES x INODE_BYTES), unless INACTIVE gives it.
 *
 * Checks (WARN, so tests see them): after each kswapd round, under each
 * inode's i_lock, that an unused inode is on the inode LRU exactly when
 * the variant's rule says so (v6.12: when mapping_shrinkable(); the
 * others: always); at the end, that the LRU's count, nr_unused and the
 * pages add up.
 */
#include "../glue/lru/lru.h"
#include <linux/completion.h>
#include <linux/list_lru.h>
#include <linux/shrinker.h>
#include "scenario.h"
#include "../glue/glue.h"
#include "../glue/inode/inode.h"

enum {
	KEY_INODES = 1, KEY_PAGES, KEY_SCALE_SHIFT, KEY_MODEL_INODES, KEY_STREAM_PAGES,
	KEY_INACTIVE, KEY_FILE_PAGES, KEY_RECLAIM_NS, KEY_HIT_NS, KEY_MISS_NS, KEY_LLC_MIB,
	KEY_MEMORY_MIB, KEY_INODE_BYTES, KEY_READ_NS, NR_KEYS
};

#define DEF_PRIORITY 12
/* Auto scale's bounds on the simulated workingset: pages and inodes. */
#define AUTO_PAGES 65536
#define AUTO_INODES 50000

static unsigned long long cfg[NR_KEYS] = {
	[KEY_INODES] = 12, [KEY_PAGES] = 4, [KEY_SCALE_SHIFT] = 10, [KEY_MODEL_INODES] = 0,
	[KEY_STREAM_PAGES] = 160, [KEY_INACTIVE] = 24, [KEY_FILE_PAGES] = 6,
	[KEY_RECLAIM_NS] = 1600, [KEY_HIT_NS] = 5, [KEY_MISS_NS] = 300, [KEY_LLC_MIB] = 64,
	[KEY_MEMORY_MIB] = 16384, [KEY_INODE_BYTES] = 1024, [KEY_READ_NS] = 200,
};

static struct scenario_params params;
static struct super_block *sb;
static struct lruvec *lruvec;		/* the root memcg's: every page is charged to it */
static struct inode **inodes;
static unsigned long nr_inodes_max, nr_inodes;
static int priority;
static unsigned long inactive_low, inactive_min, inactive_high;
static struct completion kswapd_wake, kswapd_done, kswapd_exit, reader_done;
static int kswapd_awake, kswapd_stop;
static const struct super_operations lab_sops;

static void parse_program(void)
{
	unsigned long i;

	for (i = 0; i + 5 <= params.program_len; i += 5) {
		const unsigned char *r = params.program + i;
		unsigned long long v = r[1] | (r[2] << 8) | ((unsigned long)r[3] << 16) |
				       ((unsigned long long)r[4] << 24);

		if (r[0] > 0 && r[0] < NR_KEYS)
			cfg[r[0]] = v;
	}
}

static void inode_evicted(struct inode *inode)
{
	if (inode->i_ino < nr_inodes_max && inodes[inode->i_ino] == inode)
		inodes[inode->i_ino] = NULL;
}

/* new_inode() + the read path's iget: an inode in use, on no list. */
static struct inode *open_new_inode(const char *kind)
{
	struct inode *inode;
	char name[24];

	if (nr_inodes >= nr_inodes_max)
		return NULL;
	inode = lab_new_inode(sb, nr_inodes);
	if (!inode)
		return NULL;
	inodes[nr_inodes++] = inode;
	if (!params.stress) {
		snprintf(name, sizeof(name), "%s %lu", kind, inode->i_ino);
		SCENARIO_LABEL(inode, LABEL_ITEM, name);
	}
	return inode;
}

/* The variant's rule for an unused, clean inode of an active super block. */
static bool belongs_on_lru(struct inode *inode)
{
#if SIM_INODE_BEFORE
	return true;
#else
	return lab_mapping_shrinkable(&inode->i_data);
#endif
}

static void check_inodes(void)
{
	unsigned long i;

	for (i = 0; i < nr_inodes; i++) {
		struct inode *inode = READ_ONCE(inodes[i]);
		bool on_lru;

		if (!inode)
			continue;
		spin_lock(&inode->i_lock);
		on_lru = !list_empty(&inode->i_lru);
		if (!(inode->i_state & I_FREEING) && !atomic_read(&inode->i_count))
			WARN(on_lru != belongs_on_lru(inode),
			     "inode %lu (%lu pages) %s the inode LRU", inode->i_ino,
			     inode->i_data.nrpages, on_lru ? "is on" : "is not on");
		if (atomic_read(&inode->i_count))
			WARN(on_lru, "inode %lu in use is on the inode LRU", inode->i_ino);
		spin_unlock(&inode->i_lock);
	}
}

/* The inactive file list's pages (lruvec_page_state(): exact at every read here). */
static unsigned long nr_inactive(void)
{
	return lruvec_page_state(lruvec, NR_INACTIVE_FILE);
}

/* Returns whether the inactive list had pages to scan. */
static bool shrink_node(void)
{
	unsigned long nr = nr_inactive() >> priority, ret, scanned;

	SCENARIO_CALL("shrink_inactive_list", (int)nr, priority, 0);
	ret = rl_lru_shrink_inactive_list(lruvec, LRU_INACTIVE_FILE, nr ? nr : 1, &scanned);
	if (ret && cfg[KEY_RECLAIM_NS])
		sim_busy_ns((unsigned int)(cfg[KEY_RECLAIM_NS] * ret), SIM_SITE());
	SCENARIO_RETURN("shrink_inactive_list", (int)ret);
	SCENARIO_CALL("shrink_slab", priority, (int)list_lru_count(&sb->s_inode_lru), 0);
	ret = lab_shrink_slab(GFP_KERNEL, 0, root_mem_cgroup, priority);
	SCENARIO_RETURN("shrink_slab", (int)ret);
	return scanned > 0;
}

static void kswapd(void *arg)
{
	for (;;) {
		wait_for_completion(&kswapd_wake);
		if (READ_ONCE(kswapd_stop))
			break;
		SCENARIO_CALL("balance_pgdat", priority, (int)nr_inactive(), (int)inactive_high);
		/* until the list is short enough, or has nothing to scan (the rest is in lru_add batches) */
		while (nr_inactive() > inactive_high)
			if (!shrink_node())
				break;
		SCENARIO_RETURN("balance_pgdat", (int)nr_inactive());
		if (!params.stress)
			check_inodes();
		WRITE_ONCE(kswapd_awake, 0);
		complete(&kswapd_done);
	}
	complete(&kswapd_exit);
}

static void wake_kswapd(void)
{
	if (READ_ONCE(kswapd_awake))
		return;
	WRITE_ONCE(kswapd_awake, 1);
	reinit_completion(&kswapd_done);
	complete(&kswapd_wake);
}

/*
 * A page of inode read in (the read's copy READ_NS), accessed accesses
 * times. When the machine's memory is all in use, the reader does what
 * direct reclaim would first:
 * its own CPU's lru_add batch drained (shrink_inactive_list()'s
 * lru_add_drain()), then waits for kswapd's round.
 */
static void read_page(struct inode *inode, unsigned long index, int accesses)
{
	struct folio *folio;
	int tries;

	for (tries = 0; tries < 64; tries++) {
		folio = lab_folio_alloc(GFP_KERNEL, 0);
		if (folio)
			break;
		lru_add_drain();
		wake_kswapd();
		wait_for_completion(&kswapd_done);
	}
	if (WARN(!folio, "inode-lru: no memory for page %lu of inode %lu", index, inode->i_ino))
		return;
	/* the page's folio, for the page: its pfn names it in LRU_ADD/LRU_DEL */
	if (!params.stress)
		SCENARIO_CALL("read_folio", sim_obj_of(inode), (int)index, (int)folio_pfn(folio));
	sim_busy_ns((unsigned int)cfg[KEY_READ_NS], SIM_SITE());
	WARN_ON(lab_filemap_read_folio(&inode->i_data, folio, index, accesses));
	if (!params.stress)
		SCENARIO_RETURN("read_folio", (int)inode->i_data.nrpages);
}

/* lru_add_drain_all(): each CPU's lru_add batch drained, by a task on that CPU. */
static struct completion drained;

static void drain_cpu(void *arg)
{
	lru_add_drain();
	complete(&drained);
}

static void drain_all(void)
{
	int cpu;

	init_completion(&drained);
	for (cpu = 0; cpu < 2; cpu++)
		sim_spawn(cpu, "lru_add_drain", drain_cpu, NULL);
	for (cpu = 0; cpu < 2; cpu++)
		wait_for_completion(&drained);
}

/* Files of F pages, each read once and closed: drop-behind's food. */
static void reader(void *arg)
{
	unsigned long left = cfg[KEY_STREAM_PAGES], i;
	unsigned long file_pages = cfg[KEY_FILE_PAGES] ? cfg[KEY_FILE_PAGES] : 1;

	while (left) {
		struct inode *inode = open_new_inode("stream");

		if (!inode)
			break;
		for (i = 0; i < file_pages && left; i++, left--) {
			read_page(inode, i, 1);
			if (nr_inactive() >= inactive_low)
				wake_kswapd();
			if (nr_inactive() >= inactive_min)
				wait_for_completion(&kswapd_done);
		}
		if (!params.stress)
			SCENARIO_CALL("iput", sim_obj_of(inode), 0, 0);
		iput(inode);
		if (!params.stress)
			SCENARIO_RETURN("iput", 0);
		if (left && !(left % 4096))
			sim_progress((int)(cfg[KEY_STREAM_PAGES] - left), (int)cfg[KEY_STREAM_PAGES]);
	}
	complete(&reader_done);
}

/* The cost of one inode visit: a hit or a miss of the modelled last-level cache. */
static unsigned int visit_ns(unsigned long long model_inodes)
{
	unsigned long long bytes = model_inodes * cfg[KEY_INODE_BYTES];
	unsigned long long llc = cfg[KEY_LLC_MIB] << 20;
	unsigned long long hit = cfg[KEY_HIT_NS], miss = cfg[KEY_MISS_NS];

	if (bytes <= llc || miss <= hit)
		return (unsigned int)hit;
	/* hit + (miss - hit) * (1 - llc / bytes) */
	return (unsigned int)(hit + (miss - hit) * (bytes - llc) / bytes);
}

static void teardown_check(void)
{
	unsigned long i, on_lru = 0, pages = 0;

	for (i = 0; i < nr_inodes; i++) {
		struct inode *inode = inodes[i];

		if (!inode)
			continue;
		if (!list_empty(&inode->i_lru))
			on_lru++;
		pages += inode->i_data.nrpages;
	}
	WARN(on_lru != list_lru_count(&sb->s_inode_lru), "%lu inodes on the LRU, list_lru counts %lu",
	     on_lru, list_lru_count(&sb->s_inode_lru));
	WARN((long)on_lru != lab_inode_nr_unused(), "%lu inodes on the LRU, nr_unused %ld",
	     on_lru, lab_inode_nr_unused());
	WARN(pages != node_page_state(NODE_DATA(0), NR_FILE_PAGES),
	     "the mappings hold %lu pages, NR_FILE_PAGES counts %lu", pages,
	     node_page_state(NODE_DATA(0), NR_FILE_PAGES));
}

static void init_task(void *arg)
{
	unsigned long long model_inodes, model_pages, inode_pages, memory_pages;
	unsigned long n, p, i, j, inactive;
	struct mem_cgroup *root;
	int k;

	params = *(const struct scenario_params *)arg;
	parse_program();
	p = (unsigned long)cfg[KEY_PAGES];
	if (!cfg[KEY_INODES] && cfg[KEY_MODEL_INODES]) {
		/* Auto scale: the smallest 2^k that brings the run within AUTO_*. */
		model_inodes = cfg[KEY_MODEL_INODES];
		for (k = 0; k < DEF_PRIORITY; k++)
			if ((model_inodes * p) >> k <= AUTO_PAGES && model_inodes >> k <= AUTO_INODES)
				break;
		n = (unsigned long)((model_inodes + (1ULL << k) / 2) >> k);
	} else {
		n = (unsigned long)cfg[KEY_INODES];
		k = (int)min_t(unsigned long long, cfg[KEY_SCALE_SHIFT], DEF_PRIORITY);
		model_inodes = cfg[KEY_MODEL_INODES] ? cfg[KEY_MODEL_INODES] :
			(unsigned long long)n << k;
	}
	priority = DEF_PRIORITY - k;
	/* The inactive list gets what the workingset and the inodes leave. */
	memory_pages = cfg[KEY_MEMORY_MIB] << 8;
	model_pages = model_inodes * p;
	inode_pages = model_inodes * cfg[KEY_INODE_BYTES] / 4096;
	inactive = cfg[KEY_INACTIVE];
	if (!inactive)
		inactive = memory_pages > model_pages + inode_pages + (1024ULL << k) ?
			(unsigned long)((memory_pages - model_pages - inode_pages) >> k) : 1024;
	if (!cfg[KEY_STREAM_PAGES])
		cfg[KEY_STREAM_PAGES] = 4 * inactive;
	inactive_low = inactive;
	inactive_min = inactive + max(inactive / 16, 2UL);
	inactive_high = inactive - max(inactive / 16, 2UL);
	lab_inode_visit_ns = visit_ns(model_inodes);

	SCENARIO_CALL("inode_lru_setup", (int)n, (int)p, (int)inactive);
	/* For the page: the scale, the modelled inodes, the visit cost. */
	SCENARIO_CALL("inode_lru_model", k, (int)model_inodes, (int)lab_inode_visit_ns);
	SCENARIO_RETURN("inode_lru_model", (int)cfg[KEY_RECLAIM_NS]);
	root = sim_memcg_create(NULL, "root");
	sb = kzalloc(sizeof(*sb), GFP_KERNEL);
	nr_inodes_max = n + cfg[KEY_STREAM_PAGES] + 1;
	inodes = kcalloc(nr_inodes_max, sizeof(*inodes), GFP_KERNEL);
	/*
	 * The machine's memory: the workingset, the inactive list at its
	 * most, and what the two CPUs' lru_add batches hold.
	 */
	if (!root || !sb || !inodes || lab_mem_map_init(n * p + inactive_min + 4 * PAGEVEC_SIZE, 0))
		goto free;
	lruvec = mem_cgroup_lruvec(root, NODE_DATA(0));
	SCENARIO_LABEL_LOCK(&lruvec->lru_lock, "lru_lock", -1);
	if (lab_workingset_init())
		goto free_mem;
	/* its batch scaled as the super block's is (SHRINK_BATCH: workingset.c sets none) */
	lab_shadow_shrinker()->batch = max(128UL >> k, 1UL);	/* mm/shrinker.c SHRINK_BATCH */
	if (!params.stress)
		SCENARIO_LABEL(lab_shadow_shrinker(), LABEL_SHRINKER, "mm-shadow");
	lab_inode_evicted = inode_evicted;
	lab_mapping_events = !params.stress;
	sb->s_flags = SB_ACTIVE;
	sb->s_op = &lab_sops;
	if (list_lru_init(&sb->s_inode_lru))
		goto workingset;
	sb->s_shrink = lab_shrinker_alloc(0, "sb-inodes");
	if (!sb->s_shrink)
		goto lru;
	sb->s_shrink->batch = max(1024UL >> k, 1UL);
	if (!params.stress)
		SCENARIO_LABEL(sb->s_shrink, LABEL_SHRINKER, "sb-inodes");
	lab_shrinker_register(sb->s_shrink, lab_super_cache_count, lab_super_cache_scan, sb);
	SCENARIO_RETURN("inode_lru_setup", 0);

	/* The workingset: each inode read in (P active pages), then closed. */
	SCENARIO_CALL("workingset", (int)n, (int)p, 0);
	for (i = 0; i < n; i++) {
		struct inode *inode = open_new_inode("ws");

		if (!inode)
			break;
		for (j = 0; j < p; j++)
			read_page(inode, j, 2);
		iput(inode);
	}
	lru_add_drain();
	SCENARIO_RETURN("workingset", (int)list_lru_count(&sb->s_inode_lru));
	if (!params.stress)
		check_inodes();

	init_completion(&kswapd_wake);
	init_completion(&kswapd_done);
	init_completion(&kswapd_exit);
	init_completion(&reader_done);
	SCENARIO_CALL("drop_behind", (int)cfg[KEY_STREAM_PAGES], (int)cfg[KEY_FILE_PAGES], 0);
	sim_wall_mark("drop_behind start");
	sim_spawn(1, "kswapd0", kswapd, NULL);
	sim_spawn(0, "reader", reader, NULL);
	wait_for_completion(&reader_done);
	WRITE_ONCE(kswapd_stop, 1);
	complete(&kswapd_wake);
	wait_for_completion(&kswapd_exit);
	sim_wall_mark("drop_behind end");
	SCENARIO_RETURN("drop_behind", (int)list_lru_count(&sb->s_inode_lru));
	if (!params.stress)
		check_inodes();
	teardown_check();

	/* generic_shutdown_super(): SB_ACTIVE off, every inode evicted. */
	SCENARIO_CALL("kill_sb", 0, 0, 0);
	sb->s_flags &= ~SB_ACTIVE;
	for (i = 0; i < nr_inodes; i++)
		if (inodes[i])
			lab_inode_destroy(inodes[i]);
	lab_shrinker_free(sb->s_shrink);
	drain_all();
	SCENARIO_RETURN("kill_sb", 0);
	WARN(lab_shadow_nodes_count(), "%lu shadow nodes left after every inode's eviction",
	     lab_shadow_nodes_count());
	WARN(lab_nr_free_pages() != lab_nr_pages, "inode-lru: %lu pages not freed",
	     lab_nr_pages - lab_nr_free_pages());
lru:
	list_lru_destroy(&sb->s_inode_lru);
workingset:
	lab_workingset_exit();
free_mem:
	lab_mem_map_free();
free:
	lab_inode_evicted = NULL;
	lab_mapping_events = false;
	kfree(inodes);
	kfree(sb);
	if (root)
		sim_memcg_free(root);
}

const struct scenario scenario_inode_lru = {
	.name = "inode-lru",
	.title = "Inodes with page cache on and off the inode LRU during drop-behind reclaim",
	.tree = SIM_KERNEL_TREE,
	.nr_cpus = 2,
	.nr_nodes = 1,
	.defaults = { .seed = 1 },
	.init = init_task,
};
