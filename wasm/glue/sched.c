// SPDX-License-Identifier: GPL-2.0-only
/*
 * Project code: the struct task_struct of each simulated task, made on
 * first use from the runtime's task id and name (see linux/sched.h).
 */
#include <linux/sched.h>
#include <linux/kernel.h>

static struct task_struct task_structs[256];	/* SIM_MAX_TASKS */

struct task_struct *sim_task_struct(int task)
{
	struct task_struct *p;

	if (task < 0 || task >= (int)(sizeof(task_structs) / sizeof(task_structs[0])))
		return NULL;
	p = &task_structs[task];
	if (!p->comm[0]) {
		p->pid = task;
		snprintf(p->comm, sizeof(p->comm), "%s", sim_task_comm(task));
	}
	return p;
}
