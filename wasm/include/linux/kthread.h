/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: kthreads (kernel/kthread.c) as simulated tasks
 * (wasm/glue/kthread.c). kthread_create() starts a task, on the CPUs in
 * turn, that sleeps in TASK_UNINTERRUPTIBLE until wake_up_process();
 * kthread_run() wakes it at once. kthread_stop() sets the flag
 * kthread_should_stop() reads, wakes the kthread and waits for its
 * function to return, and returns what it returned.
 */
#ifndef _LINUX_KTHREAD_H
#define _LINUX_KTHREAD_H

#include <linux/err.h>
#include <linux/sched.h>

__attribute__((format(printf, 3, 4)))
struct task_struct *kthread_create(int (*threadfn)(void *data), void *data,
				   const char namefmt[], ...);
#define kthread_run(threadfn, data, namefmt, ...) ({				\
	struct task_struct *__k = kthread_create(threadfn, data, namefmt, ## __VA_ARGS__); \
	if (!IS_ERR(__k))							\
		wake_up_process(__k);						\
	__k;									\
})
int kthread_stop(struct task_struct *k);
bool kthread_should_stop(void);

#endif /* _LINUX_KTHREAD_H */
