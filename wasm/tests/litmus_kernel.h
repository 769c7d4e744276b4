/* SPDX-License-Identifier: GPL-2.0-only */
/* The kernel-API litmus tests (litmus_kernel.c): set-up calls and results. */
#ifndef SIM_LITMUS_KERNEL_H
#define SIM_LITMUS_KERNEL_H

struct litmus_results {
	int dec_and_test_hit_zero, after_inc_on_zero, after_overflow, after_underflow;
	int inc_not_zero_on_zero;
	int reader_inside, reader_inside_after_sync, read_value;
	int percpu_ok;
	int counter, mutex_counter;
	int woken, wake_returned;
};
extern struct litmus_results litmus;

void litmus_refcount(void);
void litmus_rcu_nesting(void);
void litmus_kvfree_rcu(void);
void litmus_percpu(int cpus);
void litmus_percpu_collect(int cpus);
void litmus_many_cpus(int cpus);
void litmus_wakeup(void);

#endif /* SIM_LITMUS_KERNEL_H */
