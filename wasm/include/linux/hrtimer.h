/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: high-resolution sleeps in virtual time.
 * schedule_hrtimeout() (kernel/time/sleep_timeout.c) sleeps in the
 * runtime's schedule_timeout until the expiry, absolute on the caller's
 * CPU's clock or relative to now; it returns 0 when the timer expired and
 * -EINTR when a wakeup came first, as the kernel's.
 */
#ifndef _LINUX_HRTIMER_H
#define _LINUX_HRTIMER_H

#include <linux/ktime.h>
#include <linux/errno.h>
#include <sim.h>

enum hrtimer_mode {
	HRTIMER_MODE_ABS	= 0x00,
	HRTIMER_MODE_REL	= 0x01,
};

static inline int sim_schedule_hrtimeout(ktime_t *expires, const enum hrtimer_mode mode,
					 const struct sim_site *site)
{
	ktime_t now = ktime_get();
	ktime_t left = mode == HRTIMER_MODE_ABS ? *expires - now : *expires;

	if (left <= 0) {
		sim_set_current_state(0, site);	/* TASK_RUNNING */
		return 0;
	}
	return sim_schedule_timeout((sim_u64)left, site) ? -EINTR : 0;
}
#define schedule_hrtimeout(expires, mode) sim_schedule_hrtimeout(expires, mode, SIM_SITE())

#endif /* _LINUX_HRTIMER_H */
