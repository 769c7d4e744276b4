/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: per-CPU data, laid out as the kernel lays it out
 * (Documentation/core-api/this_cpu_ops.rst). DEFINE_PER_CPU() puts the
 * variable in a section of its own, the template; the runtime gives each
 * possible CPU a copy of that section (runtime/percpu.c), and a per-CPU
 * pointer is the template's address plus the CPU's offset, as
 * per_cpu_ptr() and __per_cpu_offset[] make it. So &var.member,
 * this_cpu_ptr(&var.member) and per_cpu(var.member, cpu) all work.
 * Dynamic per-CPU pointers (alloc_percpu()) point at copy 0 of an array of
 * copies, and per_cpu_ptr(p, cpu) is p + cpu. The simulation has no
 * interrupts and a task keeps its CPU, so the __this_cpu_ and this_cpu_
 * forms are the same plain access.
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

#define DEFINE_PER_CPU(type, name) \
	__attribute__((section(SIM_PERCPU_SECTION))) __typeof__(type) name
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name

/* The per-CPU pointer: the static template's copy for cpu, or p + cpu for a dynamic one. */
#define per_cpu_ptr(ptr, cpu) \
	((__typeof__(ptr))sim_percpu_ptr((const void *)(ptr), (cpu), sizeof(*(ptr))))
#define this_cpu_ptr(ptr)	per_cpu_ptr(ptr, sim_cpu_id())
#define raw_cpu_ptr(ptr)	this_cpu_ptr(ptr)
#define get_cpu_ptr(ptr)	this_cpu_ptr(ptr)
#define put_cpu_ptr(ptr)	do { (void)(ptr); } while (0)

#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), cpu))
#define this_cpu_read(pcp)	(*this_cpu_ptr(&(pcp)))
#define this_cpu_write(pcp, v)	do { *this_cpu_ptr(&(pcp)) = (v); } while (0)
#define this_cpu_add(pcp, v)	do { *this_cpu_ptr(&(pcp)) += (v); } while (0)
#define this_cpu_sub(pcp, v)	this_cpu_add(pcp, -(v))
#define this_cpu_inc(pcp)	this_cpu_add(pcp, 1)
#define this_cpu_dec(pcp)	this_cpu_add(pcp, -1)
#define __this_cpu_read(pcp)	this_cpu_read(pcp)
#define __this_cpu_write(pcp, v) this_cpu_write(pcp, v)
#define __this_cpu_add(pcp, v)	this_cpu_add(pcp, v)
#define __this_cpu_sub(pcp, v)	this_cpu_sub(pcp, v)
#define __this_cpu_inc(pcp)	this_cpu_inc(pcp)
#define __this_cpu_dec(pcp)	this_cpu_dec(pcp)

#define alloc_percpu(type) \
	((__typeof__(type) *)sim_kmalloc(sizeof(type) * SIM_NR_POSSIBLE_CPUS, 1, -1, SIM_SITE()))
#define alloc_percpu_gfp(type, gfp)	alloc_percpu(type)
#define free_percpu(ptr)	sim_kfree(ptr, SIM_SITE_EXPR(#ptr))

#endif /* __LINUX_PERCPU_H */
