/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: ktime_get() reads the virtual clock of the CPU the caller
 * runs on (the cost model's nanoseconds), so a test's timings are the
 * simulated machine's and the same natively and in wasm.
 */
#ifndef _LINUX_KTIME_H
#define _LINUX_KTIME_H

#include <linux/types.h>
#include <sim.h>

typedef s64 ktime_t;

static inline ktime_t ktime_get(void)
{
	return (ktime_t)sim_clock_ns();
}

#endif /* _LINUX_KTIME_H */
