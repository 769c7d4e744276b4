/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: with CONFIG_PREEMPTION, __preempt_schedule()
 * (asm/preempt.h) is the runtime's preemption point,
 * sim_preempt_schedule(): the task yields its CPU unless it holds a
 * spinlock.
 */
#ifndef __LINUX_PREEMPT_H
#define __LINUX_PREEMPT_H

#include <sim.h>

#ifdef CONFIG_PREEMPTION
#define __preempt_schedule()	sim_preempt_schedule(SIM_SITE())
#endif

#endif /* __LINUX_PREEMPT_H */
