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
/* The memcg an allocation for memcg is charged to (current_obj_cgroup()), or NULL. */
struct mem_cgroup *sim_memcg_charge_target(struct mem_cgroup *memcg);
/* mem_cgroup_css_free() */
void sim_memcg_free(struct mem_cgroup *memcg);

#ifdef SIM_FOLIO_LRU
/* The lruvecs whose lists' folios are LRU_ADD and LRU_DEL events (wasm/glue/lru/mm.c). */
struct lruvec;
void lab_lruvec_register(struct lruvec *lruvec);
void lab_lruvec_unregister(struct lruvec *lruvec);
#endif

/*
 * One interface to the shrinker and list_lru API of the variant's kernel
 * (wasm/glue/<variant>/api.c): 6.1 embeds a caller-allocated shrinker and
 * registers it with prealloc_shrinker()/register_shrinker_prepared(); 6.7
 * and later allocate it with shrinker_alloc(). Scenarios use these, so one
 * scenario runs on every variant.
 */
struct shrinker;
struct shrink_control;
struct list_lru;
struct list_head;
typedef unsigned long (*lab_shrinker_fn)(struct shrinker *, struct shrink_control *);

struct shrinker *lab_shrinker_alloc(unsigned int flags, const char *name);
void lab_shrinker_register(struct shrinker *s, lab_shrinker_fn count, lab_shrinker_fn scan,
			   void *private_data);
/* The scan function's name, for the %pS of the shrink_slab tracepoints (runtime/ftrace.c). */
#define lab_shrinker_register(s, count, scan, private_data)			\
	(sim_kallsyms_add((const void *)(scan), #scan),				\
	 lab_shrinker_register(s, count, scan, private_data))
void *lab_shrinker_private(struct shrinker *s);
void lab_shrinker_free(struct shrinker *s);
int lab_list_lru_add(struct list_lru *lru, struct list_head *item);
int lab_list_lru_del(struct list_lru *lru, struct list_head *item);
unsigned long lab_shrink_slab(unsigned int gfp_mask, int nid, struct mem_cgroup *memcg, int priority);

/* Whether the shrinker's bit is set in memcg's shrinker_info for node nid. */
bool lab_shrinker_bit(struct mem_cgroup *memcg, int nid, struct shrinker *s);
/*
 * The shrinker's deferred count for memcg on node nid, where
 * do_shrink_slab() keeps it (xchg_nr_deferred()): memcg's shrinker_info
 * for a memcg-aware shrinker given a memcg, else the shrinker's own.
 */
long lab_nr_deferred(struct mem_cgroup *memcg, int nid, struct shrinker *s);
/* A memcg-aware shrinker's bit in the shrinker_info maps. */
int lab_shrinker_id(struct shrinker *s);
/*
 * A BITMAP event for each piece of memcg's shrinker_info bitmaps, so the
 * page can tell whose bits a BIT event flips: v6.12's units, v6.1's map.
 */
void lab_name_shrinker_maps(struct mem_cgroup *memcg);
/*
 * The shrinker ids whose bits are set in memcg's shrinker_info for node
 * nid, up to max of them, into ids; returns how many. Reads the maps
 * without simulating anything: a snapshot for the page.
 */
int lab_set_shrinker_bits(struct mem_cgroup *memcg, int nid, int *ids, int max);

/* The kernel functions lab_shrinker_register() and lab_shrinker_free() come down to. */
extern const char lab_register_fn[];
extern const char lab_unregister_fn[];

#endif /* SIM_GLUE_H */
