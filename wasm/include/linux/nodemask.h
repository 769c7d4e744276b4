/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: NUMA nodes. The simulation has sim_nr_nodes nodes, all
 * possible and online; CPUs are spread over them evenly.
 */
#ifndef __LINUX_NODEMASK_H
#define __LINUX_NODEMASK_H

#include <linux/numa.h>
#include <linux/bitops.h>
#include <sim.h>

/* include/linux/nodemask_types.h */
typedef struct { unsigned long bits[BITS_TO_LONGS(MAX_NUMNODES)]; } nodemask_t;

#define nr_node_ids	sim_nr_nodes
#define nr_online_nodes	sim_nr_nodes
#define for_each_node(node)	for ((node) = 0; (node) < sim_nr_nodes; (node)++)
enum node_states { N_POSSIBLE, N_ONLINE, N_NORMAL_MEMORY, N_MEMORY, N_CPU, NR_NODE_STATES };
#define for_each_node_state(node, state)	for_each_node(node)
#define for_each_online_node(node)	for_each_node(node)
#define node_online(node)	((node) >= 0 && (node) < sim_nr_nodes)

#endif /* __LINUX_NODEMASK_H */
