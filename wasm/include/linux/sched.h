/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: tasks as kernel code sees them. A simulated task is a
 * struct task_struct (wasm/glue/sched.c holds one per task id; pid is
 * the id, comm its name); set_current_state(), schedule() and
 * wake_up_process() are the runtime's (sim.h: schedule() sleeps only if
 * the state is not TASK_RUNNING when it is called, as in
 * kernel/sched/core.c), each at the caller's line.
 */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <sim.h>

#define TASK_RUNNING		0x00000000
#define TASK_INTERRUPTIBLE	0x00000001
#define TASK_UNINTERRUPTIBLE	0x00000002
#define TASK_IDLE		(TASK_UNINTERRUPTIBLE | 0x00000400)
#define TASK_COMM_LEN		16

#define SCHED_NORMAL		0
#define SCHED_FIFO		1
#define MAX_NICE		19

struct kthread;
struct mem_cgroup;

struct task_struct {
	int pid;
	char comm[TASK_COMM_LEN];
	int policy;		/* recorded only: the simulated scheduler has no priorities */
	struct kthread *kthread;	/* a kthread's (wasm/glue/kthread.c) */
	unsigned int __state;	/* not kept (the runtime has the task's state): reads TASK_RUNNING */
	unsigned int flags;	/* PF_*: those below, set by whoever runs as such */
	struct mem_cgroup *active_memcg;	/* set_active_memcg()'s */
};

/* include/linux/sched.h's per-task flags that the code the lab runs reads */
#define PF_MEMALLOC		0x00000800	/* allocating memory to free memory */
#define PF_LOCAL_THROTTLE	0x00100000	/* throttle writes only against the bdi it writes to */
#define PF_KSWAPD		0x00020000	/* I am kswapd */

struct task_struct *sim_task_struct(int task);
#define current			sim_task_struct(sim_task_id())
#define set_current_state(s)	sim_set_current_state(s, SIM_SITE_EXPR(#s))
#define __set_current_state(s)	sim_set_current_state(s, SIM_SITE_EXPR(#s))
#define schedule()		sim_schedule(SIM_SITE())
#define wake_up_process(p)	sim_wake_up_process((p)->pid, SIM_SITE_EXPR(#p))

/*
 * schedule_timeout() and its forms (kernel/time/sleep_timeout.c), in
 * jiffies of virtual time (linux/jiffies.h); MAX_SCHEDULE_TIMEOUT sleeps
 * until a wakeup, as schedule() does.
 */
#define MAX_SCHEDULE_TIMEOUT	LONG_MAX
long sim_kernel_schedule_timeout(long timeout, const struct sim_site *site);
#define schedule_timeout(t)	sim_kernel_schedule_timeout(t, SIM_SITE())
#define schedule_timeout_interruptible(t) \
	({ set_current_state(TASK_INTERRUPTIBLE); schedule_timeout(t); })
#define schedule_timeout_uninterruptible(t) \
	({ set_current_state(TASK_UNINTERRUPTIBLE); schedule_timeout(t); })
#define schedule_timeout_idle(t) \
	({ set_current_state(TASK_IDLE); schedule_timeout(t); })

/* Scheduling policy and nice level: recorded, no effect on the simulated scheduler. */
void sched_set_fifo(struct task_struct *p);
void sched_set_normal(struct task_struct *p, int nice);
#define set_user_nice(p, nice)	((void)(p), (void)(nice))

#endif /* _LINUX_SCHED_H */
