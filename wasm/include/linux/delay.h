/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: busy-wait delays spend virtual time on the caller's CPU
 * (sim_busy_ns()), where the kernel's spin on the clock; msleep() sleeps
 * in schedule_timeout_uninterruptible() as kernel/time/sleep_timeout.c's.
 */
#ifndef _LINUX_DELAY_H
#define _LINUX_DELAY_H

#include <linux/jiffies.h>
#include <linux/sched.h>
#include <sim.h>

static inline void sim_delay_ns(unsigned long long ns, const struct sim_site *site)
{
	while (ns) {
		unsigned int step = ns > 1000000000ULL ? 1000000000U : (unsigned int)ns;

		sim_busy_ns(step, site);
		ns -= step;
	}
}
#define ndelay(n)	sim_delay_ns((n), SIM_SITE())
#define udelay(n)	sim_delay_ns((unsigned long long)(n) * 1000, SIM_SITE())
#define mdelay(n)	sim_delay_ns((unsigned long long)(n) * 1000000, SIM_SITE())
#define msleep(m)	schedule_timeout_uninterruptible(msecs_to_jiffies(m) + 1)

#endif /* _LINUX_DELAY_H */
