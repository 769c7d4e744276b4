// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-CPU areas (mm/percpu.c's setup_per_cpu_areas(), in small): the
 * linker gathers every DEFINE_PER_CPU() variable into one section, the
 * template; each boot (sim_init()) copies it once for every possible CPU,
 * and a per-CPU address is the template's plus the CPU's offset, as the
 * kernel's __per_cpu_offset[] makes it. The template itself is never
 * written after the copies are made.
 */
#include <stdlib.h>
#include <string.h>
#include "runtime.h"

#define PERCPU_ALIGN 64		/* SMP_CACHE_BYTES: a copy keeps its variables' alignment */
#define NR_POSSIBLE 64		/* SIM_NR_POSSIBLE_CPUS (linux/percpu.h) */

/*
 * The section exists in every program, with or without per-CPU variables:
 * wasm-ld drops a data segment nothing refers to, "used" or not, so the
 * anchor is referred to by a pointer that the init function reads.
 */
static char percpu_anchor __attribute__((section(SIM_PERCPU_SECTION), used));
static char *volatile percpu_anchor_ref = &percpu_anchor;
extern char __start_sim_percpu[], __stop_sim_percpu[];

static char *copies;
static size_t stride;

void sim_percpu_init(void)
{
	size_t size = (size_t)(__stop_sim_percpu - __start_sim_percpu);
	int cpu;

	(void)*percpu_anchor_ref;
	if (!copies) {
		stride = (size + PERCPU_ALIGN - 1) / PERCPU_ALIGN * PERCPU_ALIGN;
		copies = aligned_alloc(PERCPU_ALIGN, stride * NR_POSSIBLE);
		if (!copies)
			abort();
	}
	for (cpu = 0; cpu < NR_POSSIBLE; cpu++)
		memcpy(copies + cpu * stride, __start_sim_percpu, size);
}

void *sim_percpu_ptr(const void *p, int cpu, unsigned long size)
{
	const char *c = p;

	if (c >= __start_sim_percpu && c < __stop_sim_percpu)
		return copies + (size_t)cpu * stride + (size_t)(c - __start_sim_percpu);
	return (char *)c + (size_t)cpu * size;
}
