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

/* The arithmetic of include/linux/ktime.h, on 64-bit nanoseconds. */
#define NSEC_PER_USEC		1000L
#define NSEC_PER_MSEC		1000000L
#define NSEC_PER_SEC		1000000000L
#define ktime_set(secs, nsecs)	((ktime_t)(secs) * NSEC_PER_SEC + (nsecs))
#define ktime_add(lhs, rhs)	((lhs) + (rhs))
#define ktime_add_ns(kt, nsval)	((kt) + (nsval))
#define ktime_sub(lhs, rhs)	((lhs) - (rhs))
#define ktime_to_ns(kt)		(kt)

static inline bool ktime_before(const ktime_t cmp1, const ktime_t cmp2)
{
	return cmp1 < cmp2;
}

static inline s64 ktime_ms_delta(const ktime_t later, const ktime_t earlier)
{
	return (later - earlier) / NSEC_PER_MSEC;
}

#endif /* _LINUX_KTIME_H */
