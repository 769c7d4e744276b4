// SPDX-License-Identifier: GPL-2.0-only
/*
 * Project port of the two pieces of lib/radix-tree.c that lib/xarray.c
 * uses (see lib/radix-tree.h): the node cache and the RCU callback that
 * frees a node. The rest of lib/radix-tree.c (per-CPU preloads, the
 * radix-tree API) is not needed by the compiled files.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/rcupdate.h>
#include <linux/xarray.h>
#include <linux/list.h>
#include "glue.h"

/* As radix_tree_node_ctor(): nodes start zeroed, with an empty private_list. */
static void radix_tree_node_ctor(void *arg)
{
	struct xa_node *node = arg;

	memset(node, 0, sizeof(*node));
	INIT_LIST_HEAD(&node->private_list);
}

static struct kmem_cache radix_tree_node_cache = {
	.name = "radix_tree_node",
	.size = sizeof(struct xa_node),
	.flags = SLAB_PANIC | SLAB_RECLAIM_ACCOUNT,
	.ctor = radix_tree_node_ctor,
};
struct kmem_cache *radix_tree_node_cachep = &radix_tree_node_cache;

/* As radix_tree_node_rcu_free() in lib/radix-tree.c. */
void radix_tree_node_rcu_free(struct rcu_head *head)
{
	struct xa_node *node = container_of(head, struct xa_node, rcu_head);

	memset(node->slots, 0, sizeof(node->slots));
	memset(node->marks, 0, sizeof(node->marks));
	INIT_LIST_HEAD(&node->private_list);
	kmem_cache_free(radix_tree_node_cachep, node);
}

