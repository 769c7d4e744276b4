/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: per-CPU data. A per-CPU area is an array of one copy per
 * possible CPU; this_cpu_*() use the current simulated CPU's copy.
 * Dynamic per-CPU pointers (alloc_percpu(), per_cpu_ptr(), this_cpu_ptr())
 * point at copy 0, and per_cpu_ptr(p, cpu) is p + cpu. Static per-CPU
 * variables (DEFINE_PER_CPU) are reached by name through per_cpu() and
 * this_cpu_*(); taking their address with per_cpu_ptr(&var, cpu) is not
 * supported and fails to compile.
 */
#ifndef __LINUX_PERCPU_H
#define __LINUX_PERCPU_H

#include <linux/slab.h>
#include <sim.h>

#define SIM_NR_POSSIBLE_CPUS 64
#define nr_cpu_ids sim_nr_cpus()
#define num_possible_cpus() sim_nr_cpus()
#define num_online_cpus() sim_nr_cpus()
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < sim_nr_cpus(); (cpu)++)
#define for_each_online_cpu(cpu) for_each_possible_cpu(cpu)

#define DEFINE_PER_CPU(type, name) __typeof__(type) name##__sim_pcpu[SIM_NR_POSSIBLE_CPUS]
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name##__sim_pcpu[SIM_NR_POSSIBLE_CPUS]
#define per_cpu(name, cpu)	(name##__sim_pcpu[(cpu)])
#define this_cpu_read(name)	(name##__sim_pcpu[sim_cpu_id()])
#define this_cpu_write(name, v)	do { name##__sim_pcpu[sim_cpu_id()] = (v); } while (0)
#define this_cpu_add(name, v)	do { name##__sim_pcpu[sim_cpu_id()] += (v); } while (0)
#define this_cpu_inc(name)	this_cpu_add(name, 1)
#define this_cpu_dec(name)	this_cpu_add(name, -1)

#define alloc_percpu(type) \
	((__typeof__(type) *)sim_kmalloc(sizeof(type) * SIM_NR_POSSIBLE_CPUS, 1, -1, SIM_SITE()))
#define alloc_percpu_gfp(type, gfp)	alloc_percpu(type)
#define free_percpu(ptr)	sim_kfree(ptr, SIM_SITE_EXPR(#ptr))
#define per_cpu_ptr(ptr, cpu)	((ptr) + (cpu))
#define this_cpu_ptr(ptr)	((ptr) + sim_cpu_id())
#define raw_cpu_ptr(ptr)	this_cpu_ptr(ptr)
#define get_cpu_ptr(ptr)	this_cpu_ptr(ptr)
#define put_cpu_ptr(ptr)	do { (void)(ptr); } while (0)

#endif /* __LINUX_PERCPU_H */
