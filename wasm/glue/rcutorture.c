// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel/rcu/rcutorture.c of 6.12 on the simulated machine: the test and
 * the flavours rcu, busted, srcu, srcud and busted_srcud, extracted with
 * their lines (wasm/extract/selftest-rcutorture.txt), compiled as they
 * are, over kernel/torture.c (wasm/glue/torture.c), the runtime's RCU
 * (wasm/runtime/rcu.c) and the kernel's Tiny SRCU (kernel/rcu/srcutiny.c).
 *
 * Before the extract: the kernel's RCU interface that rcu_ops names,
 * as a project port over the runtime's RCU (its grace-period counts),
 * and what the kernel's headers bring into rcutorture.c, as the kernel
 * has it for this configuration (CONFIG_PREEMPT_RCU with
 * CONFIG_PREEMPTION, no CONFIG_HOTPLUG_CPU, no CONFIG_NO_HZ_FULL, no
 * CONFIG_DEBUG_LOCK_ALLOC, no CONFIG_RCU_TRACE, no CONFIG_RCU_BOOST).
 * After it: the project's ports of the parts left out, each refusing
 * when a parameter asks for it (docs/kernel-tests.md says why).
 */
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/cpumask.h>
#include <linux/string.h>
#include <linux/preempt.h>
#include <linux/percpu.h>
#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/torture.h>
#include <linux/init.h>
#include <linux/kthread.h>

/* rcutorture is a module here (insmod, rmmod): IS_MODULE() holds. */
#define CONFIG_RCU_TORTURE_TEST_MODULE 1
#define KBUILD_MODNAME "rcutorture"
/* pr_cont() continues the line, as the kernel's: labrun's console joins it */
#undef pr_cont
#define pr_cont(fmt, ...)	printk(KERN_CONT fmt, ##__VA_ARGS__)

/*
 * xchg() and cmpxchg_relaxed() on plain variables: one step each, as no
 * simulated CPU runs between a task's steps but at the runtime's points.
 */
#define xchg(p, v)	__atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)
#define cmpxchg_relaxed(p, o, n) ({							\
	__typeof__(*(p)) __sim_old = (o);						\
	__atomic_compare_exchange_n((p), &__sim_old, (n), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	__sim_old;									\
})

/* Every simulated CPU is online and stays so (linux/cpumask.h). */
static struct cpumask sim_rcutorture_online;
static const struct cpumask *sim_cpu_online_mask(void)
{
	cpumask_setall(&sim_rcutorture_online);
	return &sim_rcutorture_online;
}
#define cpu_online_mask	sim_cpu_online_mask()

/* include/linux/rcupdate.h */
#define ULONG_CMP_GE(a, b)	(ULONG_MAX / 2 >= (a) - (b))
#define ULONG_CMP_LT(a, b)	(ULONG_MAX / 2 < (a) - (b))
typedef void (*call_rcu_func_t)(struct rcu_head *head, rcu_callback_t func);
#define NUM_ACTIVE_RCU_POLL_OLDSTATE 2
/* include/linux/rcutree.h */
struct rcu_gp_oldstate {
	unsigned long rgos_norm;
	unsigned long rgos_exp;
};
#define NUM_ACTIVE_RCU_POLL_FULL_OLDSTATE 4
/* without CONFIG_DEBUG_LOCK_ALLOC (include/linux/rcupdate.h) */
#define rcu_read_lock_bh_held()		1
#define rcu_read_lock_sched_held()	1
/* without CONFIG_DEBUG_OBJECTS_RCU_HEAD */
#define init_rcu_head_on_stack(head)	do { } while (0)
#define destroy_rcu_head_on_stack(head)	do { } while (0)
/* kernel/rcu/rcu.h: the grace-period sequence numbers, the flavours */
#define RCU_SEQ_CTR_SHIFT	2
#define RCU_SEQ_STATE_MASK	((1 << RCU_SEQ_CTR_SHIFT) - 1)
#define RCU_GET_STATE_COMPLETED	0x1

/*
 * Preemption (CONFIG_PREEMPTION, CONFIG_PREEMPT_RCU): rcu_read_lock()
 * leaves preemption on, so torture_preempt_schedule() in a reader is a
 * preemption point of the runtime (linux/preempt.h); preempt_disable(),
 * local_bh_disable(), local_irq_disable() and a held raw spinlock turn it
 * off. Their counts are kept per task here, as preempt_count() and
 * irqs_disabled() read them; preempt_schedule() returns at once when
 * they are not zero (kernel/sched/core.c), and the simulated CPU switches
 * tasks nowhere else inside a reader (udelay() and mdelay() are busy time).
 */
#define SIM_HARDIRQ_MASK	0x000f0000
#define SIM_SOFTIRQ_OFFSET	0x00000100
#define SIM_SOFTIRQ_MASK	0x0000ff00
#ifndef SOFTIRQ_MASK
#define SOFTIRQ_MASK	SIM_SOFTIRQ_MASK
#define HARDIRQ_MASK	SIM_HARDIRQ_MASK
#endif
static int sim_preempt_count[256];
static int sim_irqs_off[256];
#define sim_pc			sim_preempt_count[sim_task_id() & 255]
#undef preempt_count
#define preempt_count()		(sim_pc)
#undef preempt_disable
#undef preempt_enable
#define preempt_disable()	do { sim_pc++; barrier(); } while (0)
#define preempt_enable()	do { barrier(); sim_pc--; } while (0)
#undef local_bh_disable
#undef local_bh_enable
#define local_bh_disable()	do { sim_pc += SIM_SOFTIRQ_OFFSET; barrier(); } while (0)
#define local_bh_enable()	do { barrier(); sim_pc -= SIM_SOFTIRQ_OFFSET; } while (0)
#undef local_irq_disable
#undef local_irq_enable
#define local_irq_disable()	do { sim_irqs_off[sim_task_id() & 255]++; } while (0)
#define local_irq_enable()	do { sim_irqs_off[sim_task_id() & 255]--; } while (0)
#define preemptible()		(!preempt_count() && !sim_irqs_off[sim_task_id() & 255])
#undef __preempt_schedule
#define __preempt_schedule()	do { if (preemptible()) sim_preempt_schedule(SIM_SITE()); } while (0)
/* rcu_read_lock_bh() and _sched() disable bottom halves and preemption, as the kernel's (a reader of the runtime's RCU too) */
#undef rcu_read_lock_bh
#undef rcu_read_unlock_bh
#undef rcu_read_lock_sched
#undef rcu_read_unlock_sched
#define rcu_read_lock_bh()	do { local_bh_disable(); rcu_read_lock(); } while (0)
#define rcu_read_unlock_bh()	do { rcu_read_unlock(); local_bh_enable(); } while (0)
#define rcu_read_lock_sched()	do { preempt_disable(); rcu_read_lock(); } while (0)
#define rcu_read_unlock_sched()	do { rcu_read_unlock(); preempt_enable(); } while (0)
/* raw_spin_lock_irqsave(&current->pi_lock): only its owner takes it here; preemption and irqs off */
#define raw_spin_lock_irqsave(lock, flags)	\
	do { (flags) = 0; local_irq_disable(); preempt_disable(); } while (0)
#define raw_spin_unlock_irqrestore(lock, flags)	\
	do { (void)(flags); preempt_enable(); local_irq_enable(); } while (0)

/*
 * Project port, the kernel's RCU interface rcu_ops names (kernel/rcu/tree.c,
 * include/linux/rcupdate.h), over the runtime's RCU: its grace-period
 * sequence number (rcu_seq format: the count of ended grace periods, and
 * state 1 while one is in progress), its polled grace periods, call_rcu(),
 * synchronize_rcu() and rcu_barrier(). The runtime has one kind of grace
 * period: an expedited one is a normal one.
 */
static unsigned long rcu_get_gp_seq(void)
{
	return sim_rcu_gp_seq();
}

static unsigned long get_state_synchronize_rcu(void)
{
	return sim_rcu_gp_snap(0);
}

static unsigned long start_poll_synchronize_rcu(void)
{
	return sim_rcu_gp_snap(1);
}

static unsigned long get_completed_synchronize_rcu(void)
{
	return RCU_GET_STATE_COMPLETED;
}

static bool poll_state_synchronize_rcu(unsigned long oldstate)
{
	return oldstate == RCU_GET_STATE_COMPLETED || ULONG_CMP_GE(sim_rcu_gp_seq(), oldstate);
}

static bool same_state_synchronize_rcu(unsigned long oldstate1, unsigned long oldstate2)
{
	return oldstate1 == oldstate2;
}

static void (synchronize_rcu)(void)
{
	synchronize_rcu();
}

static void synchronize_rcu_expedited(void)
{
	synchronize_rcu();
}

static void cond_synchronize_rcu(unsigned long oldstate)
{
	if (!poll_state_synchronize_rcu(oldstate))
		synchronize_rcu();
}

static unsigned long start_poll_synchronize_rcu_expedited(void)
{
	return start_poll_synchronize_rcu();
}

static void cond_synchronize_rcu_expedited(unsigned long oldstate)
{
	cond_synchronize_rcu(oldstate);
}

/* Full state: the runtime's one sequence in both fields. */
static void get_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	rgosp->rgos_norm = rgosp->rgos_exp = get_state_synchronize_rcu();
}

static void start_poll_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	rgosp->rgos_norm = rgosp->rgos_exp = start_poll_synchronize_rcu();
}

static void start_poll_synchronize_rcu_expedited_full(struct rcu_gp_oldstate *rgosp)
{
	start_poll_synchronize_rcu_full(rgosp);
}

static void get_completed_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	rgosp->rgos_norm = rgosp->rgos_exp = RCU_GET_STATE_COMPLETED;
}

static bool poll_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	return poll_state_synchronize_rcu(rgosp->rgos_norm) ||
	       poll_state_synchronize_rcu(rgosp->rgos_exp);
}

static bool same_state_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp1,
					    struct rcu_gp_oldstate *rgosp2)
{
	return rgosp1->rgos_norm == rgosp2->rgos_norm && rgosp1->rgos_exp == rgosp2->rgos_exp;
}

static void cond_synchronize_rcu_full(struct rcu_gp_oldstate *rgosp)
{
	if (!poll_state_synchronize_rcu_full(rgosp))
		synchronize_rcu();
}

static void cond_synchronize_rcu_expedited_full(struct rcu_gp_oldstate *rgosp)
{
	cond_synchronize_rcu_full(rgosp);
}

#define call_rcu_hurry(head, func)	call_rcu(head, func)
static void (call_rcu_hurry)(struct rcu_head *head, rcu_callback_t func)
{
	call_rcu(head, func);
}

static void (rcu_barrier)(void)
{
	rcu_barrier();
}

/* The runtime's grace periods need no forcing: each ends when its last CPU passes a quiescent state. */
static void rcu_force_quiescent_state(void)
{
}

static void show_rcu_gp_kthreads(void)
{
	unsigned long s = sim_rcu_gp_seq();

	pr_info("rcu: grace period g%lu (%s), %lu ended (the runtime's RCU)\n",
		s, s & RCU_SEQ_STATE_MASK ? "in progress" : "idle", s >> RCU_SEQ_CTR_SHIFT);
}

/* Boost: no CONFIG_RCU_BOOST (rcu_ops.can_boost is 0) and no real-time priorities. */
static bool rcu_check_boost_fail(unsigned long gp_state, int *cpup)
{
	return true;
}

static int rcu_get_gp_kthreads_prio(void)
{
	return 0;
}

/* CONFIG_RCU_CPU_STALL_TIMEOUT's default, 21 s (kernel/rcu/tree_stall.h) */
static int rcu_jiffies_till_stall_check(void)
{
	return 21 * HZ;
}

static void rcutorture_get_gp_data(int *flags, unsigned long *gp_seq)
{
	*flags = 0;
	*gp_seq = sim_rcu_gp_seq();
}

/* rcu_gp_slow_register(): grace-period slowing (CONFIG_RCU_GP_SLOW-style delays) is not simulated. */
static atomic_t *rcu_gp_slow_suppress;

static void rcu_gp_slow_register(atomic_t *rgssp)
{
	WARN_ON_ONCE(rcu_gp_slow_suppress);
	rcu_gp_slow_suppress = rgssp;
}

static void rcu_gp_slow_unregister(atomic_t *rgssp)
{
	WARN_ON_ONCE(rgssp && rgssp != rcu_gp_slow_suppress);
	rcu_gp_slow_suppress = NULL;
}

/* Expediting (kernel/rcu/update.c): counted; the runtime's grace periods are all alike. */
static atomic_t rcu_expedited_nesting;

static bool rcu_gp_is_normal(void)
{
	return false;
}

static bool rcu_gp_is_expedited(void)
{
	return atomic_read(&rcu_expedited_nesting);
}

static void rcu_expedite_gp(void)
{
	atomic_inc(&rcu_expedited_nesting);
}

static void rcu_unexpedite_gp(void)
{
	atomic_dec(&rcu_expedited_nesting);
}

/* A module loads after boot; the simulated CPUs never stall-warn. */
#define rcu_inkernel_boot_has_ended()		true
#define rcu_stall_is_suppressed_at_boot()	false
#define rcu_stall_is_suppressed()		false
#define rcu_is_watching()			true
#define in_task()				1
/* no ftrace buffer */
#define tracing_off()				do { } while (0)
#define rcu_ftrace_dump(oops_dump_mode)		do { } while (0)
/* without CONFIG_HOTPLUG_CPU (include/linux/cpu.h), CONFIG_NO_HZ_FULL (linux/tick.h) */
#define cpus_read_lock()			do { } while (0)
#define cpus_read_unlock()			do { } while (0)
#define tick_dep_set_task(t, bit)		do { } while (0)
#define tick_dep_clear_task(t, bit)		do { } while (0)
#define task_nice(p)				0
#define task_cpu(p)				sim_task_cpu((p)->pid)
#define sched_show_task(p)	pr_alert("task:%-15.15s pid:%d cpu:%d\n", (p)->comm, (p)->pid, task_cpu(p))

/*
 * The reader's timer handler (irqreader): the simulated machine runs no
 * code in interrupt context, so a timer_list cannot be armed; the
 * scenarios set irqreader=0 and these refuse.
 */
struct timer_list {
	void (*function)(struct timer_list *);
};
#define timer_setup_on_stack(t, fn, flags) \
	do { (t)->function = (fn); WARN(1, "rcutorture: no timer interrupts on the simulated machine (irqreader)\n"); } while (0)
#define timer_pending(t)		true
#define mod_timer(t, expires)		0
#define del_timer_sync(t)		0
#define destroy_timer_on_stack(t)	do { } while (0)

/* CPU hotplug states: the simulated CPUs never go offline (and nothing boosts). */
enum cpuhp_state { CPUHP_AP_ONLINE_DYN = 1 };
#define cpuhp_setup_state(state, name, startup, teardown)	\
	({ (void)(startup); (void)(teardown); -ENOSYS; })
#define cpuhp_remove_state(state)	do { } while (0)

/*
 * Flavours not built: rcutorture_init() names them all in its table.
 * RCU Tasks (TASKS_OPS and the like) is behind CONFIG_TASKS_*RCU, off.
 */
#define TASKS_OPS
#define TASKS_RUDE_OPS
#define TASKS_TRACING_OPS
struct rcu_torture_ops;
#define SIM_RCUTORTURE_NOT_BUILT(ops, type) extern struct rcu_torture_ops ops;
#define SIM_RCUTORTURE_NOT_BUILT_LIST(x)	x(trivial_ops, "trivial")
SIM_RCUTORTURE_NOT_BUILT_LIST(SIM_RCUTORTURE_NOT_BUILT)

/*
 * SRCU: the kernel's Tiny SRCU (kernel/rcu/srcutiny.c and
 * include/linux/srcutiny.h, extracted with their lines), which the
 * flavours srcu, srcud and busted_srcud run on. Upstream builds it only
 * without SMP (CONFIG_TINY_SRCU follows CONFIG_TINY_RCU); here it runs on
 * several simulated CPUs, which it can because the simulated CPUs
 * interleave only at the runtime's points: its read-side counter updates
 * (a plain load and store under preempt_disable()) and its grace-period
 * steps hold none, so each happens whole, as on one CPU. Tree SRCU
 * (kernel/rcu/srcutree.c: per-CPU srcu_data, the srcu_node tree, delayed
 * work and timers, rcu_segcblist) is not built. What Tiny SRCU takes from
 * the kernel that the simulated machine has not had, as project ports:
 */
#define CONFIG_TINY_SRCU 1
/* without CONFIG_PROVE_RCU (include/linux/rcupdate.h): lockdep's checks are not compiled */
#define RCU_LOCKDEP_WARN(c, s)		do { } while (0)
/* without CONFIG_DEBUG_LOCK_ALLOC (include/linux/rcupdate.h) */
#define rcu_lock_acquire(a)		do { } while (0)
#define rcu_try_lock_acquire(a)		do { } while (0)
#define rcu_lock_release(a)		do { } while (0)
#define in_nmi()			0
#undef local_irq_save
#undef local_irq_restore
#define local_irq_save(flags)		do { (flags) = 0; local_irq_disable(); } while (0)
#define local_irq_restore(flags)	do { (void)(flags); local_irq_enable(); } while (0)
/* mm/slab_common.c's kmem_dump_obj(): a callback without a function (never in these runs) */
#define kmem_dump_obj(object)		pr_alert("kmem_dump_obj(%px): a callback without a function\n", object)

/*
 * Project port of the system workqueue (kernel/workqueue.c) as Tiny SRCU
 * uses it: schedule_work() queues a work item unless it is pending, one
 * worker kthread ("kworker", started at boot by sim_rcutorture_boot())
 * runs the queued items in order (and stops, at power-off, once none is
 * left: sim_rcutorture_halt()), and flush_work() waits until an item is
 * neither pending nor running (the worker's flush barrier, here a sleep
 * of a jiffy between looks).
 */
struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct {
	unsigned long data;		/* WORK_STRUCT_PENDING */
	struct list_head entry;
	work_func_t func;
};
#define WORK_STRUCT_PENDING	1UL
#define __WORK_INITIALIZER(n, f)	{ .data = 0, .entry = LIST_HEAD_INIT((n).entry), .func = (f) }
#define INIT_WORK(w, f)	\
	do { (w)->data = 0; INIT_LIST_HEAD(&(w)->entry); (w)->func = (f); } while (0)
static LIST_HEAD(sim_workqueue);
static struct task_struct *sim_kworker;
static struct work_struct *sim_kworker_running;

static bool schedule_work(struct work_struct *work)
{
	if (work->data & WORK_STRUCT_PENDING)
		return false;
	work->data |= WORK_STRUCT_PENDING;
	list_add_tail(&work->entry, &sim_workqueue);
	wake_up_process(sim_kworker);
	return true;
}

static bool flush_work(struct work_struct *work)
{
	bool waited = false;

	while ((READ_ONCE(work->data) & WORK_STRUCT_PENDING) || READ_ONCE(sim_kworker_running) == work) {
		schedule_timeout_uninterruptible(1);
		waited = true;
	}
	return waited;
}

static int sim_kworker_fn(void *unused)
{
	struct work_struct *work;

	for (;;) {
		set_current_state(TASK_IDLE);
		if (list_empty(&sim_workqueue)) {
			if (kthread_should_stop())
				break;
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		work = list_first_entry(&sim_workqueue, struct work_struct, entry);
		list_del_init(&work->entry);
		work->data &= ~WORK_STRUCT_PENDING;
		WRITE_ONCE(sim_kworker_running, work);
		work->func(work);
		WRITE_ONCE(sim_kworker_running, NULL);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/*
 * Project port of simple wait queues (kernel/sched/swait.c,
 * include/linux/swait.h): a waiter queues itself once, sets its state and
 * sleeps until its condition holds; swake_up_one() wakes the first. The
 * kernel's q->lock is not needed: nothing here is a point where another
 * simulated CPU runs but set_current_state(), schedule() and the wakeup.
 */
struct swait_queue_head {
	struct list_head task_list;
};
struct swait_queue {
	struct task_struct *task;
	struct list_head task_list;
};
#define __SWAIT_QUEUE_HEAD_INITIALIZER(name)	{ .task_list = LIST_HEAD_INIT((name).task_list) }
#define init_swait_queue_head(q)	INIT_LIST_HEAD(&(q)->task_list)

static void swake_up_one(struct swait_queue_head *q)
{
	struct swait_queue *curr;

	if (list_empty(&q->task_list))
		return;
	curr = list_first_entry(&q->task_list, struct swait_queue, task_list);
	/*
	 * Off the queue before the wakeup, a point where the waiter may run:
	 * the kernel holds q->lock across both, and a waiter gone on to wait
	 * again (its entry at the same place on its stack) would be taken off
	 * by a list_del_init() after the wakeup, and never woken.
	 */
	list_del_init(&curr->task_list);
	wake_up_process(curr->task);
}

#define swait_event_exclusive(wq, condition)					\
do {										\
	struct swait_queue __wait = { .task = current };			\
										\
	INIT_LIST_HEAD(&__wait.task_list);					\
	for (;;) {								\
		if (list_empty(&__wait.task_list))				\
			list_add_tail(&__wait.task_list, &(wq).task_list);	\
		set_current_state(TASK_UNINTERRUPTIBLE);			\
		if (condition)							\
			break;							\
		schedule();							\
	}									\
	__set_current_state(TASK_RUNNING);					\
	if (!list_empty(&__wait.task_list))					\
		list_del_init(&__wait.task_list);				\
} while (0)

#include "include/linux/srcutiny-extract.h"
#include "include/linux/srcu-extract.h"
#include "include/linux/rcupdate_wait-extract.h"
#include "kernel/rcu/rcu-extract.h"
#include "kernel/rcu/update-extract.c"
#include "kernel/rcu/srcutiny-extract.c"

/*
 * Boot (init/main.c's start_kernel() and kernel_init()): the scheduler
 * starts (rcu_scheduler_starting()), the system workqueue's worker, then
 * srcu_init() queues the grace periods asked for before it. The
 * rcutorture scenarios call it before insmod.
 */
void sim_rcutorture_boot(void);
void sim_rcutorture_boot(void)
{
	rcu_scheduler_starting();
	sim_kworker = kthread_run(sim_kworker_fn, NULL, "kworker/u%d:0", sim_nr_cpus());
	srcu_init();
}

/* Power-off: the worker stops once the queue is empty. */
void sim_rcutorture_halt(void);
void sim_rcutorture_halt(void)
{
	kthread_stop(sim_kworker);
	sim_kworker = NULL;
}

/* The parts left out: the project's ports below the extract. */
static int rcutorture_booster_cleanup(unsigned int cpu);
static int rcutorture_booster_init(unsigned int cpu);
static int rcu_nocb_toggle(void *arg);
static int rcu_torture_stall_init(void);
static int rcu_torture_fwd_prog_init(void);
static void rcu_torture_fwd_prog_cleanup(void);
static int rcu_torture_barrier_init(void);
static void rcu_torture_barrier_cleanup(void);
static int rcu_torture_read_exit_init(void);
static void rcu_torture_read_exit_cleanup(void);
static void rcu_torture_mem_dump_obj(void);
static void rcu_torture_init_srcu_lockdep(void);

#include "kernel/rcu/rcutorture-extract.c"

#undef SIM_RCUTORTURE_NOT_BUILT
#define SIM_RCUTORTURE_NOT_BUILT(ops, type) struct rcu_torture_ops ops = { .name = type " (not built)" };
SIM_RCUTORTURE_NOT_BUILT_LIST(SIM_RCUTORTURE_NOT_BUILT)

static int sim_rcutorture_refuse(const char *what, const char *why, int param)
{
	if (!param)
		return 0;
	pr_alert("%s: %s, not on the simulated machine (%d asked)\n", what, why, param);
	return -ENOSYS;
}

/* Priority boosting: real-time priorities (never reached: rcu_torture_can_boost() is false). */
static int rcutorture_booster_init(unsigned int cpu)
{
	return sim_rcutorture_refuse(__func__, "no real-time priorities", 1);
}

static int rcutorture_booster_cleanup(unsigned int cpu)
{
	return 0;
}

/* NOCB toggling: rcu_torture_init() turns it off without CONFIG_RCU_NOCB_CPU. */
static int rcu_nocb_toggle(void *arg)
{
	sim_rcutorture_refuse(__func__, "no callback offloading", 1);
	torture_kthread_stopping("rcu_nocb_toggle");
	return 0;
}

/* CPU stalls (stall_cpu, stall_gp_kthread): the stall detector is not simulated. */
static int rcu_torture_stall_init(void)
{
	return sim_rcutorture_refuse(__func__, "no RCU CPU stall detector",
				     stall_cpu > 0 || stall_gp_kthread > 0);
}

/* Forward progress (fwd_progress): callback floods until the OOM notifier. */
static int rcu_torture_fwd_prog_init(void)
{
	return sim_rcutorture_refuse(__func__, "no callback-flood forward-progress test", fwd_progress);
}

static void rcu_torture_fwd_prog_cleanup(void)
{
}

/* rcu_barrier() test (n_barrier_cbs): per-CPU callback kthreads bound to CPUs. */
static int rcu_torture_barrier_init(void)
{
	return sim_rcutorture_refuse(__func__, "no rcu_barrier() kthreads", n_barrier_cbs > 0);
}

static void rcu_torture_barrier_cleanup(void)
{
}

/* Read-then-exit kthreads (read_exit_burst): kthreads that exit on their own. */
static int rcu_torture_read_exit_init(void)
{
	return sim_rcutorture_refuse(__func__, "no read-then-exit kthreads", read_exit_burst > 0);
}

static void rcu_torture_read_exit_cleanup(void)
{
}

/* mem_dump_obj() of slab, kmalloc and vmalloc objects: not in the runtime's allocator. */
static void rcu_torture_mem_dump_obj(void)
{
	pr_alert("rcu_torture_mem_dump_obj: mem_dump_obj() not on the simulated machine\n");
}

/* SRCU lockdep deadlock scenarios (test_srcu_lockdep): no lockdep for SRCU here. */
static void rcu_torture_init_srcu_lockdep(void)
{
	sim_rcutorture_refuse(__func__, "no SRCU lockdep scenarios", test_srcu_lockdep);
}

/*
 * The test's verdict as rcu_torture_cleanup() decides it: the errors its
 * statistics counted (a "!!!" each: a reader past its grace period, a
 * memory-barrier check failed) and rcu_barrier()'s; the scenario reports
 * a FAILURE (wasm/scenarios/selftest_rcutorture.c).
 */
int sim_rcutorture_errors(void)
{
	return atomic_read(&n_rcu_torture_error) + (int)n_rcu_torture_barrier_error;
}
