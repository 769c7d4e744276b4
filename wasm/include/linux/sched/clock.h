/* SPDX-License-Identifier: GPL-2.0-only */
/* Customised: local_clock() is the caller's CPU's virtual clock. */
#ifndef _LINUX_SCHED_CLOCK_H
#define _LINUX_SCHED_CLOCK_H

#include <linux/types.h>
#include <sim.h>

static inline u64 local_clock(void)
{
	return sim_clock_ns();
}

#endif /* _LINUX_SCHED_CLOCK_H */
