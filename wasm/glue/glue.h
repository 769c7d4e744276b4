/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Project code in kernel style that stands where the rest of the kernel
 * would be: the memcg life cycle (mm/memcontrol.c's calls into the
 * shrinker and list_lru code) and the radix-tree node cache.
 */
#ifndef SIM_GLUE_H
#define SIM_GLUE_H

struct mem_cgroup;

/* mem_cgroup_css_alloc() + mem_cgroup_css_online() */
struct mem_cgroup *sim_memcg_create(struct mem_cgroup *parent, const char *name);
/* mem_cgroup_css_offline() */
void sim_memcg_offline(struct mem_cgroup *memcg);
/* mem_cgroup_css_free() */
void sim_memcg_free(struct mem_cgroup *memcg);

#endif /* SIM_GLUE_H */
