/* SPDX-License-Identifier: GPL-2.0-only */
/* Stubbed: a simulated task's struct task_struct lives as long as the run. */
#ifndef _LINUX_SCHED_TASK_H
#define _LINUX_SCHED_TASK_H
#include <linux/sched.h>
static inline struct task_struct *get_task_struct(struct task_struct *t)
{
	return t;
}

static inline void put_task_struct(struct task_struct *t)
{
}
#endif
