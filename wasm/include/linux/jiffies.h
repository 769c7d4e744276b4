/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: jiffies count ticks of HZ per second of the caller's CPU's
 * virtual clock (sim_clock_ns(), what ktime_get() reads); the conversions
 * and comparisons are the kernel's (include/linux/jiffies.h).
 */
#ifndef _LINUX_JIFFIES_H
#define _LINUX_JIFFIES_H

#include <linux/types.h>
#include <linux/typecheck.h>
#include <sim.h>

#define HZ			250	/* CONFIG_HZ_250, Debian's */
#define TICK_NSEC		(1000000000UL / HZ)
#define MAX_JIFFY_OFFSET	((LONG_MAX >> 1) - 1)

static inline unsigned long sim_jiffies(void)
{
	return (unsigned long)(sim_clock_ns() / TICK_NSEC);
}
#define jiffies			sim_jiffies()

#define time_after(a, b)	\
	(typecheck(unsigned long, a) && typecheck(unsigned long, b) && ((long)((b) - (a)) < 0))
#define time_before(a, b)	time_after(b, a)

static inline u64 jiffies_to_nsecs(const unsigned long j)
{
	return (u64)j * TICK_NSEC;
}

static inline unsigned long msecs_to_jiffies(const unsigned int m)
{
	return (m + (1000 / HZ) - 1) / (1000 / HZ);
}

static inline unsigned int jiffies_to_msecs(const unsigned long j)
{
	return (1000 / HZ) * j;
}

#endif /* _LINUX_JIFFIES_H */
