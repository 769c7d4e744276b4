/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * For scenario "kunit-shadow" (kunit_shadow_body.h): the shadow-node
 * shrinker of mm/workingset.c, whose count_shadow_nodes() and
 * scan_shadow_nodes() are static there, called as do_shrink_slab() calls
 * a shrinker's, and the shadow nodes' list_lru count for one memcg:
 * compiled at the end of mm/workingset.c. Twice: inside User-Mode Linux
 * by kernel-tree/kunit/run.sh (appended to the copy of the branch's
 * mm/workingset.c), and in the simulation by wasm/glue/inode/filemap.c,
 * after the code it extracts from that file.
 */
#ifndef RECLAIM_LAB_KUNIT_INODE_WORKINGSET_H
#define RECLAIM_LAB_KUNIT_INODE_WORKINGSET_H

long rl_shadow_count(struct shrink_control *sc);
unsigned long rl_shadow_scan(struct shrink_control *sc);
unsigned long rl_shadow_nodes(int nid, struct mem_cgroup *memcg);

/* count_objects(): SHRINK_EMPTY as -2, on a 32- and a 64-bit long alike */
long rl_shadow_count(struct shrink_control *sc)
{
	return (long)count_shadow_nodes(NULL, sc);
}

unsigned long rl_shadow_scan(struct shrink_control *sc)
{
	return scan_shadow_nodes(NULL, sc);
}

/* The shadow nodes on memcg's list of node nid: those that hold shadow entries only */
unsigned long rl_shadow_nodes(int nid, struct mem_cgroup *memcg)
{
	return list_lru_count_one(&shadow_nodes, nid, memcg);
}

#endif /* RECLAIM_LAB_KUNIT_INODE_WORKINGSET_H */
