/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: atomic_t, atomic_long_t and atomic64_t
 * (Documentation/atomic_t.txt). Reads and plain sets are silent;
 * read-modify-write operations are preemption points that record an
 * ATOMIC event at the caller's line, naming the object the counter lives
 * in (for atomic64_t, old and new are the values' low 32 bits). Under sc
 * every ordering is the fully ordered operation; under tso and relaxed the
 * memory model orders each as atomic_t.txt says: the value-returning ones
 * fully, the others not at all, _acquire, _release and _relaxed as named
 * (wasm/runtime/memmodel/memmodel.h). The conditional
 * operations (add_unless, inc_not_zero, dec_if_positive...) are the
 * kernel's generic fallbacks (include/linux/atomic/atomic-arch-fallback.h):
 * a read, then a cmpxchg() loop.
 */
#ifndef _LINUX_ATOMIC_H
#define _LINUX_ATOMIC_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <linux/bitops.h>
#include <sim.h>

#ifndef CONFIG_64BIT		/* linux/types.h has it on a 64-bit kernel */
typedef struct {
	s64 counter;
} atomic64_t;
#endif
/* atomic_long_t: atomic_t on a 32-bit kernel, atomic64_t on a 64-bit one */
#if __SIZEOF_LONG__ == 8
typedef atomic64_t atomic_long_t;
#else
typedef atomic_t atomic_long_t;
#endif

#define ATOMIC_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)	ATOMIC_INIT(i)
#define ATOMIC64_INIT(i)	{ (i) }

/* The ATOMIC event's op: what the operation does to the counter. */
enum { SIM_ATOMIC_XCHG = 1, SIM_ATOMIC_ADD_RETURN, SIM_ATOMIC_ADD, SIM_ATOMIC_CMPXCHG,
       SIM_ATOMIC_INC, SIM_ATOMIC_DEC, SIM_ATOMIC_OR, SIM_ATOMIC_AND, SIM_ATOMIC_XOR,
       SIM_ATOMIC_ANDNOT };

/* new from old, for op; cmpxchg stores arg only when old is expected */
#define SIM_ATOMIC_NEW(type, utype, op, old, arg, expected) ({			\
	type __new = (old);							\
	switch (op) {								\
	case SIM_ATOMIC_XCHG: __new = (arg); break;				\
	case SIM_ATOMIC_ADD_RETURN:						\
	case SIM_ATOMIC_ADD: __new = (type)((utype)(old) + (utype)(arg)); break;	\
	case SIM_ATOMIC_CMPXCHG: __new = (old) == (expected) ? (arg) : (old); break; \
	case SIM_ATOMIC_INC: __new = (type)((utype)(old) + 1u); break;		\
	case SIM_ATOMIC_DEC: __new = (type)((utype)(old) - 1u); break;		\
	case SIM_ATOMIC_OR: __new = (old) | (arg); break;			\
	case SIM_ATOMIC_AND: __new = (old) & (arg); break;			\
	case SIM_ATOMIC_XOR: __new = (old) ^ (arg); break;			\
	case SIM_ATOMIC_ANDNOT: __new = (old) & ~(arg); break;			\
	}									\
	__new; })

/*
 * Returns the new value for SIM_ATOMIC_ADD_RETURN, the old one otherwise.
 * order: how the memory model orders it (SIM_MM_FULL for the value-returning
 * operations, SIM_MM_NORET for the others, or as its suffix says).
 */
#define SIM_ATOMIC_RMW_FN(name, ctype, type, utype)				\
static inline type name(ctype *v, int op, type arg, type old_expected,	\
			int order, const struct sim_site *site)		\
{										\
	type old, new;								\
										\
	if (sim_mm_on()) {							\
		sim_mm_rmw_begin(&v->counter, &old, sizeof(old), order, site);	\
		new = SIM_ATOMIC_NEW(type, utype, op, old, arg, old_expected);	\
		sim_mm_rmw_end(&v->counter, &new, sizeof(new), order,		\
			       op != SIM_ATOMIC_CMPXCHG || old == old_expected, site); \
	} else {								\
		old = v->counter;						\
		new = SIM_ATOMIC_NEW(type, utype, op, old, arg, old_expected);	\
		v->counter = new;						\
	}									\
	sim_event(SIM_EV_ATOMIC, site, sim_obj_for(SIM_EV_ATOMIC, v), (int)old, (int)new, op); \
	sim_step(site, SIM_COST_ATOMIC);					\
	return op == SIM_ATOMIC_ADD_RETURN ? new : old;				\
}
SIM_ATOMIC_RMW_FN(sim_atomic_rmw, atomic_t, int, unsigned int)
SIM_ATOMIC_RMW_FN(sim_atomic64_rmw, atomic64_t, s64, u64)

#define SIM_RMW(v, op, i, o, ord)	sim_atomic_rmw(v, op, i, o, ord, SIM_SITE_EXPR(#v))
#define SIM_RMW64(v, op, i, o, ord)	sim_atomic64_rmw(v, op, i, o, ord, SIM_SITE_EXPR(#v))

/*
 * The API for one counter type: each value-returning operation in four
 * names (fully ordered, _acquire, _release, _relaxed), each with its
 * ordering for the memory model.
 */
#define atomic_read(v)		READ_ONCE((v)->counter)
#define atomic_set(v, i)		WRITE_ONCE((v)->counter, (i))
#define atomic_read_acquire(v)	SIM_READ_ORDERED((v)->counter, SIM_MM_ACQUIRE)
#define atomic_set_release(v, i)	SIM_WRITE_ORDERED((v)->counter, (i), SIM_MM_RELEASE)
#define atomic_add(i, v)	((void)SIM_RMW(v, SIM_ATOMIC_ADD, i, 0, SIM_MM_NORET))
#define atomic_sub(i, v)	((void)SIM_RMW(v, SIM_ATOMIC_ADD, -(i), 0, SIM_MM_NORET))
#define atomic_inc(v)	((void)SIM_RMW(v, SIM_ATOMIC_INC, 0, 0, SIM_MM_NORET))
#define atomic_dec(v)	((void)SIM_RMW(v, SIM_ATOMIC_DEC, 0, 0, SIM_MM_NORET))
#define atomic_or(i, v)	((void)SIM_RMW(v, SIM_ATOMIC_OR, i, 0, SIM_MM_NORET))
#define atomic_and(i, v)	((void)SIM_RMW(v, SIM_ATOMIC_AND, i, 0, SIM_MM_NORET))
#define atomic_xor(i, v)	((void)SIM_RMW(v, SIM_ATOMIC_XOR, i, 0, SIM_MM_NORET))
#define atomic_andnot(i, v)	((void)SIM_RMW(v, SIM_ATOMIC_ANDNOT, i, 0, SIM_MM_NORET))
#define atomic_add_return(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, i, 0, SIM_MM_FULL)
#define atomic_add_return_acquire(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, i, 0, SIM_MM_ACQUIRE)
#define atomic_add_return_release(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, i, 0, SIM_MM_RELEASE)
#define atomic_add_return_relaxed(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, i, 0, SIM_MM_ONCE)
#define atomic_sub_return(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, -(i), 0, SIM_MM_FULL)
#define atomic_sub_return_acquire(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, -(i), 0, SIM_MM_ACQUIRE)
#define atomic_sub_return_release(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, -(i), 0, SIM_MM_RELEASE)
#define atomic_sub_return_relaxed(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, -(i), 0, SIM_MM_ONCE)
#define atomic_inc_return(v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, 1, 0, SIM_MM_FULL)
#define atomic_inc_return_acquire(v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, 1, 0, SIM_MM_ACQUIRE)
#define atomic_inc_return_release(v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, 1, 0, SIM_MM_RELEASE)
#define atomic_inc_return_relaxed(v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, 1, 0, SIM_MM_ONCE)
#define atomic_dec_return(v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, -1, 0, SIM_MM_FULL)
#define atomic_dec_return_acquire(v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, -1, 0, SIM_MM_ACQUIRE)
#define atomic_dec_return_release(v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, -1, 0, SIM_MM_RELEASE)
#define atomic_dec_return_relaxed(v)	SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, -1, 0, SIM_MM_ONCE)
#define atomic_fetch_add(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD, i, 0, SIM_MM_FULL)
#define atomic_fetch_add_acquire(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD, i, 0, SIM_MM_ACQUIRE)
#define atomic_fetch_add_release(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD, i, 0, SIM_MM_RELEASE)
#define atomic_fetch_add_relaxed(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD, i, 0, SIM_MM_ONCE)
#define atomic_fetch_sub(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD, -(i), 0, SIM_MM_FULL)
#define atomic_fetch_sub_acquire(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD, -(i), 0, SIM_MM_ACQUIRE)
#define atomic_fetch_sub_release(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD, -(i), 0, SIM_MM_RELEASE)
#define atomic_fetch_sub_relaxed(i, v)	SIM_RMW(v, SIM_ATOMIC_ADD, -(i), 0, SIM_MM_ONCE)
#define atomic_fetch_inc(v)	SIM_RMW(v, SIM_ATOMIC_INC, 0, 0, SIM_MM_FULL)
#define atomic_fetch_inc_acquire(v)	SIM_RMW(v, SIM_ATOMIC_INC, 0, 0, SIM_MM_ACQUIRE)
#define atomic_fetch_inc_release(v)	SIM_RMW(v, SIM_ATOMIC_INC, 0, 0, SIM_MM_RELEASE)
#define atomic_fetch_inc_relaxed(v)	SIM_RMW(v, SIM_ATOMIC_INC, 0, 0, SIM_MM_ONCE)
#define atomic_fetch_dec(v)	SIM_RMW(v, SIM_ATOMIC_DEC, 0, 0, SIM_MM_FULL)
#define atomic_fetch_dec_acquire(v)	SIM_RMW(v, SIM_ATOMIC_DEC, 0, 0, SIM_MM_ACQUIRE)
#define atomic_fetch_dec_release(v)	SIM_RMW(v, SIM_ATOMIC_DEC, 0, 0, SIM_MM_RELEASE)
#define atomic_fetch_dec_relaxed(v)	SIM_RMW(v, SIM_ATOMIC_DEC, 0, 0, SIM_MM_ONCE)
#define atomic_fetch_or(i, v)	SIM_RMW(v, SIM_ATOMIC_OR, i, 0, SIM_MM_FULL)
#define atomic_fetch_or_acquire(i, v)	SIM_RMW(v, SIM_ATOMIC_OR, i, 0, SIM_MM_ACQUIRE)
#define atomic_fetch_or_release(i, v)	SIM_RMW(v, SIM_ATOMIC_OR, i, 0, SIM_MM_RELEASE)
#define atomic_fetch_or_relaxed(i, v)	SIM_RMW(v, SIM_ATOMIC_OR, i, 0, SIM_MM_ONCE)
#define atomic_fetch_and(i, v)	SIM_RMW(v, SIM_ATOMIC_AND, i, 0, SIM_MM_FULL)
#define atomic_fetch_and_acquire(i, v)	SIM_RMW(v, SIM_ATOMIC_AND, i, 0, SIM_MM_ACQUIRE)
#define atomic_fetch_and_release(i, v)	SIM_RMW(v, SIM_ATOMIC_AND, i, 0, SIM_MM_RELEASE)
#define atomic_fetch_and_relaxed(i, v)	SIM_RMW(v, SIM_ATOMIC_AND, i, 0, SIM_MM_ONCE)
#define atomic_fetch_xor(i, v)	SIM_RMW(v, SIM_ATOMIC_XOR, i, 0, SIM_MM_FULL)
#define atomic_fetch_xor_acquire(i, v)	SIM_RMW(v, SIM_ATOMIC_XOR, i, 0, SIM_MM_ACQUIRE)
#define atomic_fetch_xor_release(i, v)	SIM_RMW(v, SIM_ATOMIC_XOR, i, 0, SIM_MM_RELEASE)
#define atomic_fetch_xor_relaxed(i, v)	SIM_RMW(v, SIM_ATOMIC_XOR, i, 0, SIM_MM_ONCE)
#define atomic_fetch_andnot(i, v)	SIM_RMW(v, SIM_ATOMIC_ANDNOT, i, 0, SIM_MM_FULL)
#define atomic_fetch_andnot_acquire(i, v)	SIM_RMW(v, SIM_ATOMIC_ANDNOT, i, 0, SIM_MM_ACQUIRE)
#define atomic_fetch_andnot_release(i, v)	SIM_RMW(v, SIM_ATOMIC_ANDNOT, i, 0, SIM_MM_RELEASE)
#define atomic_fetch_andnot_relaxed(i, v)	SIM_RMW(v, SIM_ATOMIC_ANDNOT, i, 0, SIM_MM_ONCE)
#define atomic_xchg(v, i)	SIM_RMW(v, SIM_ATOMIC_XCHG, i, 0, SIM_MM_FULL)
#define atomic_xchg_acquire(v, i)	SIM_RMW(v, SIM_ATOMIC_XCHG, i, 0, SIM_MM_ACQUIRE)
#define atomic_xchg_release(v, i)	SIM_RMW(v, SIM_ATOMIC_XCHG, i, 0, SIM_MM_RELEASE)
#define atomic_xchg_relaxed(v, i)	SIM_RMW(v, SIM_ATOMIC_XCHG, i, 0, SIM_MM_ONCE)
#define atomic_cmpxchg(v, o, n)	SIM_RMW(v, SIM_ATOMIC_CMPXCHG, n, o, SIM_MM_FULL)
#define atomic_cmpxchg_acquire(v, o, n)	SIM_RMW(v, SIM_ATOMIC_CMPXCHG, n, o, SIM_MM_ACQUIRE)
#define atomic_cmpxchg_release(v, o, n)	SIM_RMW(v, SIM_ATOMIC_CMPXCHG, n, o, SIM_MM_RELEASE)
#define atomic_cmpxchg_relaxed(v, o, n)	SIM_RMW(v, SIM_ATOMIC_CMPXCHG, n, o, SIM_MM_ONCE)

#define atomic64_read(v)		READ_ONCE((v)->counter)
#define atomic64_set(v, i)		WRITE_ONCE((v)->counter, (i))
#define atomic64_read_acquire(v)	SIM_READ_ORDERED((v)->counter, SIM_MM_ACQUIRE)
#define atomic64_set_release(v, i)	SIM_WRITE_ORDERED((v)->counter, (i), SIM_MM_RELEASE)
#define atomic64_add(i, v)	((void)SIM_RMW64(v, SIM_ATOMIC_ADD, i, 0, SIM_MM_NORET))
#define atomic64_sub(i, v)	((void)SIM_RMW64(v, SIM_ATOMIC_ADD, -(s64)(i), 0, SIM_MM_NORET))
#define atomic64_inc(v)	((void)SIM_RMW64(v, SIM_ATOMIC_INC, 0, 0, SIM_MM_NORET))
#define atomic64_dec(v)	((void)SIM_RMW64(v, SIM_ATOMIC_DEC, 0, 0, SIM_MM_NORET))
#define atomic64_or(i, v)	((void)SIM_RMW64(v, SIM_ATOMIC_OR, i, 0, SIM_MM_NORET))
#define atomic64_and(i, v)	((void)SIM_RMW64(v, SIM_ATOMIC_AND, i, 0, SIM_MM_NORET))
#define atomic64_xor(i, v)	((void)SIM_RMW64(v, SIM_ATOMIC_XOR, i, 0, SIM_MM_NORET))
#define atomic64_andnot(i, v)	((void)SIM_RMW64(v, SIM_ATOMIC_ANDNOT, i, 0, SIM_MM_NORET))
#define atomic64_add_return(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, i, 0, SIM_MM_FULL)
#define atomic64_add_return_acquire(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, i, 0, SIM_MM_ACQUIRE)
#define atomic64_add_return_release(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, i, 0, SIM_MM_RELEASE)
#define atomic64_add_return_relaxed(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, i, 0, SIM_MM_ONCE)
#define atomic64_sub_return(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, -(s64)(i), 0, SIM_MM_FULL)
#define atomic64_sub_return_acquire(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, -(s64)(i), 0, SIM_MM_ACQUIRE)
#define atomic64_sub_return_release(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, -(s64)(i), 0, SIM_MM_RELEASE)
#define atomic64_sub_return_relaxed(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, -(s64)(i), 0, SIM_MM_ONCE)
#define atomic64_inc_return(v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, 1, 0, SIM_MM_FULL)
#define atomic64_inc_return_acquire(v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, 1, 0, SIM_MM_ACQUIRE)
#define atomic64_inc_return_release(v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, 1, 0, SIM_MM_RELEASE)
#define atomic64_inc_return_relaxed(v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, 1, 0, SIM_MM_ONCE)
#define atomic64_dec_return(v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, -1, 0, SIM_MM_FULL)
#define atomic64_dec_return_acquire(v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, -1, 0, SIM_MM_ACQUIRE)
#define atomic64_dec_return_release(v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, -1, 0, SIM_MM_RELEASE)
#define atomic64_dec_return_relaxed(v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, -1, 0, SIM_MM_ONCE)
#define atomic64_fetch_add(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD, i, 0, SIM_MM_FULL)
#define atomic64_fetch_add_acquire(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD, i, 0, SIM_MM_ACQUIRE)
#define atomic64_fetch_add_release(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD, i, 0, SIM_MM_RELEASE)
#define atomic64_fetch_add_relaxed(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD, i, 0, SIM_MM_ONCE)
#define atomic64_fetch_sub(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD, -(s64)(i), 0, SIM_MM_FULL)
#define atomic64_fetch_sub_acquire(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD, -(s64)(i), 0, SIM_MM_ACQUIRE)
#define atomic64_fetch_sub_release(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD, -(s64)(i), 0, SIM_MM_RELEASE)
#define atomic64_fetch_sub_relaxed(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD, -(s64)(i), 0, SIM_MM_ONCE)
#define atomic64_fetch_inc(v)	SIM_RMW64(v, SIM_ATOMIC_INC, 0, 0, SIM_MM_FULL)
#define atomic64_fetch_inc_acquire(v)	SIM_RMW64(v, SIM_ATOMIC_INC, 0, 0, SIM_MM_ACQUIRE)
#define atomic64_fetch_inc_release(v)	SIM_RMW64(v, SIM_ATOMIC_INC, 0, 0, SIM_MM_RELEASE)
#define atomic64_fetch_inc_relaxed(v)	SIM_RMW64(v, SIM_ATOMIC_INC, 0, 0, SIM_MM_ONCE)
#define atomic64_fetch_dec(v)	SIM_RMW64(v, SIM_ATOMIC_DEC, 0, 0, SIM_MM_FULL)
#define atomic64_fetch_dec_acquire(v)	SIM_RMW64(v, SIM_ATOMIC_DEC, 0, 0, SIM_MM_ACQUIRE)
#define atomic64_fetch_dec_release(v)	SIM_RMW64(v, SIM_ATOMIC_DEC, 0, 0, SIM_MM_RELEASE)
#define atomic64_fetch_dec_relaxed(v)	SIM_RMW64(v, SIM_ATOMIC_DEC, 0, 0, SIM_MM_ONCE)
#define atomic64_fetch_or(i, v)	SIM_RMW64(v, SIM_ATOMIC_OR, i, 0, SIM_MM_FULL)
#define atomic64_fetch_or_acquire(i, v)	SIM_RMW64(v, SIM_ATOMIC_OR, i, 0, SIM_MM_ACQUIRE)
#define atomic64_fetch_or_release(i, v)	SIM_RMW64(v, SIM_ATOMIC_OR, i, 0, SIM_MM_RELEASE)
#define atomic64_fetch_or_relaxed(i, v)	SIM_RMW64(v, SIM_ATOMIC_OR, i, 0, SIM_MM_ONCE)
#define atomic64_fetch_and(i, v)	SIM_RMW64(v, SIM_ATOMIC_AND, i, 0, SIM_MM_FULL)
#define atomic64_fetch_and_acquire(i, v)	SIM_RMW64(v, SIM_ATOMIC_AND, i, 0, SIM_MM_ACQUIRE)
#define atomic64_fetch_and_release(i, v)	SIM_RMW64(v, SIM_ATOMIC_AND, i, 0, SIM_MM_RELEASE)
#define atomic64_fetch_and_relaxed(i, v)	SIM_RMW64(v, SIM_ATOMIC_AND, i, 0, SIM_MM_ONCE)
#define atomic64_fetch_xor(i, v)	SIM_RMW64(v, SIM_ATOMIC_XOR, i, 0, SIM_MM_FULL)
#define atomic64_fetch_xor_acquire(i, v)	SIM_RMW64(v, SIM_ATOMIC_XOR, i, 0, SIM_MM_ACQUIRE)
#define atomic64_fetch_xor_release(i, v)	SIM_RMW64(v, SIM_ATOMIC_XOR, i, 0, SIM_MM_RELEASE)
#define atomic64_fetch_xor_relaxed(i, v)	SIM_RMW64(v, SIM_ATOMIC_XOR, i, 0, SIM_MM_ONCE)
#define atomic64_fetch_andnot(i, v)	SIM_RMW64(v, SIM_ATOMIC_ANDNOT, i, 0, SIM_MM_FULL)
#define atomic64_fetch_andnot_acquire(i, v)	SIM_RMW64(v, SIM_ATOMIC_ANDNOT, i, 0, SIM_MM_ACQUIRE)
#define atomic64_fetch_andnot_release(i, v)	SIM_RMW64(v, SIM_ATOMIC_ANDNOT, i, 0, SIM_MM_RELEASE)
#define atomic64_fetch_andnot_relaxed(i, v)	SIM_RMW64(v, SIM_ATOMIC_ANDNOT, i, 0, SIM_MM_ONCE)
#define atomic64_xchg(v, i)	SIM_RMW64(v, SIM_ATOMIC_XCHG, i, 0, SIM_MM_FULL)
#define atomic64_xchg_acquire(v, i)	SIM_RMW64(v, SIM_ATOMIC_XCHG, i, 0, SIM_MM_ACQUIRE)
#define atomic64_xchg_release(v, i)	SIM_RMW64(v, SIM_ATOMIC_XCHG, i, 0, SIM_MM_RELEASE)
#define atomic64_xchg_relaxed(v, i)	SIM_RMW64(v, SIM_ATOMIC_XCHG, i, 0, SIM_MM_ONCE)
#define atomic64_cmpxchg(v, o, n)	SIM_RMW64(v, SIM_ATOMIC_CMPXCHG, n, o, SIM_MM_FULL)
#define atomic64_cmpxchg_acquire(v, o, n)	SIM_RMW64(v, SIM_ATOMIC_CMPXCHG, n, o, SIM_MM_ACQUIRE)
#define atomic64_cmpxchg_release(v, o, n)	SIM_RMW64(v, SIM_ATOMIC_CMPXCHG, n, o, SIM_MM_RELEASE)
#define atomic64_cmpxchg_relaxed(v, o, n)	SIM_RMW64(v, SIM_ATOMIC_CMPXCHG, n, o, SIM_MM_ONCE)

/* The conditional operations, as the kernel's generic fallbacks build them. */
#define SIM_ATOMIC_CONDITIONAL(p, type, rmw, ctype)				\
static inline bool p##_try_cmpxchg_site(p##_t *v, type *old, type new,		\
					const struct sim_site *site)		\
{										\
	type r = rmw((ctype *)v, SIM_ATOMIC_CMPXCHG, new, *old, SIM_MM_FULL, site);		\
										\
	if (unlikely(r != *old)) {						\
		*old = r;							\
		return false;							\
	}									\
	return true;								\
}										\
static inline type p##_fetch_add_unless_site(p##_t *v, type a, type u,		\
					     const struct sim_site *site)	\
{										\
	type c = p##_read(v);							\
										\
	do {									\
		if (unlikely(c == u))						\
			break;							\
	} while (!p##_try_cmpxchg_site(v, &c, c + a, site));			\
	return c;								\
}										\
static inline type p##_dec_if_positive_site(p##_t *v, const struct sim_site *site) \
{										\
	type dec, c = p##_read(v);						\
										\
	do {									\
		dec = c - 1;							\
		if (unlikely(dec < 0))						\
			break;							\
	} while (!p##_try_cmpxchg_site(v, &c, dec, site));			\
	return dec;								\
}
SIM_ATOMIC_CONDITIONAL(atomic, int, sim_atomic_rmw, atomic_t)
SIM_ATOMIC_CONDITIONAL(atomic64, s64, sim_atomic64_rmw, atomic64_t)

#define atomic_try_cmpxchg(v, o, n)	atomic_try_cmpxchg_site(v, o, n, SIM_SITE_EXPR(#v))
#define atomic_fetch_add_unless(v, a, u) atomic_fetch_add_unless_site(v, a, u, SIM_SITE_EXPR(#v))
#define atomic_add_unless(v, a, u)	(atomic_fetch_add_unless(v, a, u) != (u))
#define atomic_inc_not_zero(v)		atomic_add_unless(v, 1, 0)
#define atomic_dec_if_positive(v)	atomic_dec_if_positive_site(v, SIM_SITE_EXPR(#v))
#define atomic_dec_and_test(v)		(atomic_dec_return(v) == 0)
#define atomic_inc_and_test(v)		(atomic_inc_return(v) == 0)
#define atomic_sub_and_test(i, v)	(atomic_sub_return(i, v) == 0)
#define atomic64_try_cmpxchg(v, o, n)	atomic64_try_cmpxchg_site(v, o, n, SIM_SITE_EXPR(#v))
#define atomic64_fetch_add_unless(v, a, u) atomic64_fetch_add_unless_site(v, a, u, SIM_SITE_EXPR(#v))
#define atomic64_add_unless(v, a, u)	(atomic64_fetch_add_unless(v, a, u) != (u))
#define atomic64_inc_not_zero(v)	atomic64_add_unless(v, 1, 0)
#define atomic64_dec_if_positive(v)	atomic64_dec_if_positive_site(v, SIM_SITE_EXPR(#v))
#define atomic64_dec_and_test(v)	(atomic64_dec_return(v) == 0)
#define atomic64_inc_and_test(v)	(atomic64_inc_return(v) == 0)
#define atomic64_sub_and_test(i, v)	(atomic64_sub_return(i, v) == 0)

/*
 * cmpxchg() and xchg() of a plain int, long or pointer (the kernel's
 * arch_cmpxchg()), fully ordered, or as the suffix says; an ATOMIC event
 * with the values of an integer (0 for a pointer: addresses differ
 * between builds).
 */
#define SIM_XCHG_OP(ptr, op, o, n, order) ({					\
	__typeof__(*(ptr)) __o = (o), __n = (n), __old;				\
	const struct sim_site *__site = SIM_SITE_EXPR(#ptr);			\
	if (sim_mm_on()) {							\
		sim_mm_rmw_begin((ptr), &__old, sizeof(__old), (order), __site);	\
		sim_mm_rmw_end((ptr), &__n, sizeof(__n), (order),		\
			       (op) == SIM_ATOMIC_XCHG || __old == __o, __site);	\
	} else {								\
		__old = *(ptr);							\
		if ((op) == SIM_ATOMIC_XCHG || __old == __o)			\
			*(ptr) = __n;						\
	}									\
	sim_event(SIM_EV_ATOMIC, __site, sim_obj_for(SIM_EV_ATOMIC, (ptr)),	\
		  __builtin_classify_type(__old) == 5 ? 0 : (int)(unsigned long)__old, \
		  __builtin_classify_type(__old) == 5 ? 0 :			\
			(int)(unsigned long)((op) == SIM_ATOMIC_XCHG || __old == __o ? __n : __old), \
		  (op));							\
	sim_step(__site, SIM_COST_ATOMIC);					\
	__old; })
#define cmpxchg(ptr, o, n)		SIM_XCHG_OP(ptr, SIM_ATOMIC_CMPXCHG, o, n, SIM_MM_FULL)
#define cmpxchg_acquire(ptr, o, n)	SIM_XCHG_OP(ptr, SIM_ATOMIC_CMPXCHG, o, n, SIM_MM_ACQUIRE)
#define cmpxchg_release(ptr, o, n)	SIM_XCHG_OP(ptr, SIM_ATOMIC_CMPXCHG, o, n, SIM_MM_RELEASE)
#define cmpxchg_relaxed(ptr, o, n)	SIM_XCHG_OP(ptr, SIM_ATOMIC_CMPXCHG, o, n, SIM_MM_ONCE)
#define xchg(ptr, n)			SIM_XCHG_OP(ptr, SIM_ATOMIC_XCHG, 0, n, SIM_MM_FULL)
#define xchg_acquire(ptr, n)		SIM_XCHG_OP(ptr, SIM_ATOMIC_XCHG, 0, n, SIM_MM_ACQUIRE)
#define xchg_release(ptr, n)		SIM_XCHG_OP(ptr, SIM_ATOMIC_XCHG, 0, n, SIM_MM_RELEASE)
#define xchg_relaxed(ptr, n)		SIM_XCHG_OP(ptr, SIM_ATOMIC_XCHG, 0, n, SIM_MM_ONCE)

/* atomic_long_t is atomic_t on a 32-bit kernel, atomic64_t on a 64-bit one. */
#if __SIZEOF_LONG__ == 8
#define SIM_ATOMIC_LONG(op)		atomic64_##op
#else
#define SIM_ATOMIC_LONG(op)		atomic_##op
#endif
#define atomic_long_read(v)		SIM_ATOMIC_LONG(read)(v)
#define atomic_long_set(v, i)		SIM_ATOMIC_LONG(set)(v, i)
#define atomic_long_xchg(v, i)		SIM_ATOMIC_LONG(xchg)(v, i)
#define atomic_long_add_return(i, v)	SIM_ATOMIC_LONG(add_return)(i, v)
#define atomic_long_add(i, v)		SIM_ATOMIC_LONG(add)(i, v)
#define atomic_long_sub(i, v)		SIM_ATOMIC_LONG(sub)(i, v)
#define atomic_long_inc(v)		SIM_ATOMIC_LONG(inc)(v)
#define atomic_long_dec(v)		SIM_ATOMIC_LONG(dec)(v)
#define atomic_long_cmpxchg(v, o, n)	SIM_ATOMIC_LONG(cmpxchg)(v, o, n)

#endif /* _LINUX_ATOMIC_H */
