/* SPDX-License-Identifier: GPL-2.0-only */
/* Duplicated from the kernel (include/linux/numa.h). */
#ifndef _LINUX_NUMA_H
#define _LINUX_NUMA_H

#define NODES_SHIFT	CONFIG_NODES_SHIFT
#define MAX_NUMNODES	(1 << NODES_SHIFT)
#define NUMA_NO_NODE	(-1)

#endif /* _LINUX_NUMA_H */
