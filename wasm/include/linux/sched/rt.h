/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the simulated scheduler has no priorities. A task's policy
 * is recorded (sched_set_fifo(), sched_set_normal() in linux/sched.h), so
 * rt_task() tells what the task asked for, as in the kernel; it changes
 * nothing about when the task runs.
 */
#ifndef _LINUX_SCHED_RT_H
#define _LINUX_SCHED_RT_H

#include <linux/sched.h>

static inline int rt_task(struct task_struct *p)
{
	return p->policy == SCHED_FIFO;
}

#endif /* _LINUX_SCHED_RT_H */
