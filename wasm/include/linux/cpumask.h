/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the cpumask operations a torture test uses, over the bitmap
 * library, for the simulated machine's CPUs: nr_cpu_ids and
 * num_online_cpus() are sim_nr_cpus(), every CPU is online and stays so
 * (no CPU hotplug). CONFIG_CPUMASK_OFFSTACK is off, as in
 * include/linux/cpumask.h: allocating a cpumask_var_t cannot fail.
 */
#ifndef __LINUX_CPUMASK_H
#define __LINUX_CPUMASK_H

#include <linux/cpumask_types.h>
#include <linux/bitmap.h>
#include <linux/gfp.h>
#include <sim.h>

#define nr_cpu_ids		((unsigned int)sim_nr_cpus())
#define num_online_cpus()	((unsigned int)sim_nr_cpus())
#define cpumask_pr_args(maskp)	nr_cpu_ids, cpumask_bits(maskp)

static inline void cpumask_setall(struct cpumask *dstp)
{
	bitmap_fill(cpumask_bits(dstp), nr_cpu_ids);
}

static inline bool cpumask_empty(const struct cpumask *srcp)
{
	return bitmap_empty(cpumask_bits(srcp), nr_cpu_ids);
}

static inline int cpulist_parse(const char *buf, struct cpumask *dstp)
{
	return bitmap_parselist(buf, cpumask_bits(dstp), nr_cpu_ids);
}

static inline bool alloc_cpumask_var(cpumask_var_t *mask, gfp_t flags)
{
	return true;
}

static inline void free_cpumask_var(cpumask_var_t mask)
{
}

static inline bool cpumask_available(cpumask_var_t mask)
{
	return true;
}

#endif /* __LINUX_CPUMASK_H */
