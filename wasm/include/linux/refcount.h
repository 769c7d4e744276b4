/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: refcount_t (include/linux/refcount.h). Every operation is a
 * preemption point with a REFCOUNT event (object, old, new value) at the
 * caller's line, and under tso and relaxed the memory model's
 * read-modify-write. As in the kernel, incrementing from zero and overflowing
 * saturate and WARN (lib/refcount.c refcount_warn_saturate()).
 */
#ifndef _LINUX_REFCOUNT_H
#define _LINUX_REFCOUNT_H
#define _LINUX_REFCOUNT_TYPES_H

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/limits.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <sim.h>

typedef struct refcount_struct {
	atomic_t refs;
} refcount_t;

#define REFCOUNT_INIT(n)	{ .refs = ATOMIC_INIT(n), }
#define REFCOUNT_SATURATED	(INT_MIN / 2)

enum { SIM_REF_SET = 1, SIM_REF_INC_NOT_ZERO, SIM_REF_DEC_AND_TEST, SIM_REF_INC, SIM_REF_DEC };

/* The new value of a refcount_t operation on old, and what it returns. */
static inline int sim_refcount_new(int op, int old, int arg, int *ret)
{
	int new = old;

	*ret = 0;
	switch (op) {
	case SIM_REF_SET:
		new = arg;
		break;
	case SIM_REF_INC_NOT_ZERO:
		if (old != 0) {
			new = old + 1;
			*ret = 1;
		}
		break;
	case SIM_REF_INC:
		new = old + 1;
		break;
	case SIM_REF_DEC_AND_TEST:
	case SIM_REF_DEC:
		new = old - 1;
		*ret = new == 0;
		break;
	}
	return new;
}

/*
 * Under tso and relaxed, the memory model's RMW, ordered as
 * include/linux/refcount.h says: set, inc and inc_not_zero relaxed; dec
 * a release; dec_and_test a release, and an acquire when it hits zero.
 */
static inline int sim_refcount(refcount_t *r, int op, int arg, const struct sim_site *site)
{
	int old, new, ret;

	if (sim_mm_on()) {
		int order = op == SIM_REF_DEC ? SIM_MM_RELEASE : SIM_MM_ONCE;

		if (op == SIM_REF_SET) {
			sim_mm_load(&r->refs.counter, &old, sizeof(old), SIM_MM_ONCE, site);
			new = arg;
			ret = 0;
			sim_mm_store(&r->refs.counter, &new, sizeof(new), SIM_MM_ONCE, site);
		} else {
			sim_mm_rmw_begin(&r->refs.counter, &old, sizeof(old), order, site);
			new = sim_refcount_new(op, old, arg, &ret);
			if (op == SIM_REF_DEC_AND_TEST)
				order = ret ? SIM_MM_ACQ_REL : SIM_MM_RELEASE;
			sim_mm_rmw_end(&r->refs.counter, &new, sizeof(new), order, new != old, site);
		}
	} else {
		old = r->refs.counter;
		new = sim_refcount_new(op, old, arg, &ret);
		r->refs.counter = new;
	}
	sim_event(SIM_EV_REFCOUNT, site, sim_obj_for(SIM_EV_REFCOUNT, r), old, new, op);
	if ((op == SIM_REF_INC && old == 0) ||
	    (new < 0 && old >= 0 && op != SIM_REF_SET)) {
		int sat = REFCOUNT_SATURATED;

		if (op == SIM_REF_INC && old == 0)
			sim_warn("refcount_t: addition on 0; use-after-free", site);
		else
			sim_warn(op >= SIM_REF_DEC_AND_TEST ? "refcount_t: underflow; use-after-free"
							    : "refcount_t: saturated; leaking memory", site);
		if (sim_mm_on())
			sim_mm_store(&r->refs.counter, &sat, sizeof(sat), SIM_MM_ONCE, site);
		else
			r->refs.counter = sat;
	}
	sim_step(site, SIM_COST_REFCOUNT);
	return ret;
}

#define refcount_read(r)		atomic_read(&(r)->refs)
#define refcount_set(r, n)		((void)sim_refcount(r, SIM_REF_SET, n, SIM_SITE_EXPR(#r)))
#define refcount_inc_not_zero(r)	((bool)sim_refcount(r, SIM_REF_INC_NOT_ZERO, 0, SIM_SITE_EXPR(#r)))
#define refcount_dec_and_test(r)	((bool)sim_refcount(r, SIM_REF_DEC_AND_TEST, 0, SIM_SITE_EXPR(#r)))
#define refcount_inc(r)			((void)sim_refcount(r, SIM_REF_INC, 0, SIM_SITE_EXPR(#r)))
#define refcount_dec(r)			((void)sim_refcount(r, SIM_REF_DEC, 0, SIM_SITE_EXPR(#r)))

/*
 * lib/refcount.c's: decrement unless the count is 1 (a cmpxchg() loop),
 * and the last put taken under a lock. Macros, expanded where used.
 */
#define refcount_dec_not_one(r) ({						\
	refcount_t *__r = (r);							\
	int __val = atomic_read(&__r->refs);					\
	bool __dec = true;							\
										\
	do {									\
		if (unlikely(__val == REFCOUNT_SATURATED))			\
			break;							\
		if (__val == 1) {						\
			__dec = false;						\
			break;							\
		}								\
	} while (!atomic_try_cmpxchg(&__r->refs, &__val, __val - 1));		\
	__dec; })
#define SIM_REFCOUNT_DEC_AND_LOCKED(r, lock, lockfn, unlockfn) ({		\
	bool __last = false;							\
										\
	if (!refcount_dec_not_one(r)) {						\
		lockfn(lock);							\
		if (refcount_dec_and_test(r))					\
			__last = true;						\
		else								\
			unlockfn(lock);						\
	}									\
	__last; })
#define refcount_dec_and_lock(r, lock) \
	SIM_REFCOUNT_DEC_AND_LOCKED(r, lock, spin_lock, spin_unlock)
#define refcount_dec_and_mutex_lock(r, lock) \
	SIM_REFCOUNT_DEC_AND_LOCKED(r, lock, mutex_lock, mutex_unlock)

#endif /* _LINUX_REFCOUNT_H */
