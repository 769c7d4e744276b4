/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: atomic_t, atomic_long_t and atomic64_t
 * (Documentation/atomic_t.txt). Reads and plain sets are silent;
 * read-modify-write operations are preemption points that record an
 * ATOMIC event at the caller's line, naming the object the counter lives
 * in (for atomic64_t, old and new are the values' low 32 bits). The
 * simulation is sequentially consistent, so the _acquire, _release and
 * _relaxed orderings are the fully ordered operation. The conditional
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

/* Returns the new value for SIM_ATOMIC_ADD_RETURN, the old one otherwise. */
static inline int sim_atomic_rmw(atomic_t *v, int op, int arg, int old_expected,
				 const struct sim_site *site)
{
	int old = v->counter, new = SIM_ATOMIC_NEW(int, unsigned int, op, old, arg, old_expected);

	v->counter = new;
	sim_event(SIM_EV_ATOMIC, site, sim_obj_for(SIM_EV_ATOMIC, v), old, new, op);
	sim_step(site, SIM_COST_ATOMIC);
	return op == SIM_ATOMIC_ADD_RETURN ? new : old;
}

static inline s64 sim_atomic64_rmw(atomic64_t *v, int op, s64 arg, s64 old_expected,
				   const struct sim_site *site)
{
	s64 old = v->counter, new = SIM_ATOMIC_NEW(s64, u64, op, old, arg, old_expected);

	v->counter = new;
	sim_event(SIM_EV_ATOMIC, site, sim_obj_for(SIM_EV_ATOMIC, v), (int)old, (int)new, op);
	sim_step(site, SIM_COST_ATOMIC);
	return op == SIM_ATOMIC_ADD_RETURN ? new : old;
}

#define SIM_RMW(v, op, i, o)	sim_atomic_rmw(v, op, i, o, SIM_SITE_EXPR(#v))
#define SIM_RMW64(v, op, i, o)	sim_atomic64_rmw(v, op, i, o, SIM_SITE_EXPR(#v))

/*
 * The API for one counter type: prefix atomic or atomic64, rmw the
 * operation above, type the value's type. Each operation with an
 * ordering comes in four names (fully ordered, _acquire, _release,
 * _relaxed): SIM_ATOMIC_ORDERINGS defines the last three as the first.
 */
#define atomic_read(v)			READ_ONCE((v)->counter)
#define atomic_set(v, i)		WRITE_ONCE((v)->counter, (i))
#define atomic_read_acquire(v)		atomic_read(v)
#define atomic_set_release(v, i)	atomic_set(v, i)
#define atomic_add(i, v)		((void)SIM_RMW(v, SIM_ATOMIC_ADD, i, 0))
#define atomic_sub(i, v)		((void)SIM_RMW(v, SIM_ATOMIC_ADD, -(i), 0))
#define atomic_inc(v)			((void)SIM_RMW(v, SIM_ATOMIC_INC, 0, 0))
#define atomic_dec(v)			((void)SIM_RMW(v, SIM_ATOMIC_DEC, 0, 0))
#define atomic_or(i, v)			((void)SIM_RMW(v, SIM_ATOMIC_OR, i, 0))
#define atomic_and(i, v)		((void)SIM_RMW(v, SIM_ATOMIC_AND, i, 0))
#define atomic_xor(i, v)		((void)SIM_RMW(v, SIM_ATOMIC_XOR, i, 0))
#define atomic_andnot(i, v)		((void)SIM_RMW(v, SIM_ATOMIC_ANDNOT, i, 0))
#define atomic_add_return(i, v)		SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, i, 0)
#define atomic_sub_return(i, v)		SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, -(i), 0)
#define atomic_inc_return(v)		SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, 1, 0)
#define atomic_dec_return(v)		SIM_RMW(v, SIM_ATOMIC_ADD_RETURN, -1, 0)
#define atomic_fetch_add(i, v)		SIM_RMW(v, SIM_ATOMIC_ADD, i, 0)
#define atomic_fetch_sub(i, v)		SIM_RMW(v, SIM_ATOMIC_ADD, -(i), 0)
#define atomic_fetch_inc(v)		SIM_RMW(v, SIM_ATOMIC_INC, 0, 0)
#define atomic_fetch_dec(v)		SIM_RMW(v, SIM_ATOMIC_DEC, 0, 0)
#define atomic_fetch_or(i, v)		SIM_RMW(v, SIM_ATOMIC_OR, i, 0)
#define atomic_fetch_and(i, v)		SIM_RMW(v, SIM_ATOMIC_AND, i, 0)
#define atomic_fetch_xor(i, v)		SIM_RMW(v, SIM_ATOMIC_XOR, i, 0)
#define atomic_fetch_andnot(i, v)	SIM_RMW(v, SIM_ATOMIC_ANDNOT, i, 0)
#define atomic_xchg(v, i)		SIM_RMW(v, SIM_ATOMIC_XCHG, i, 0)
#define atomic_cmpxchg(v, o, n)		SIM_RMW(v, SIM_ATOMIC_CMPXCHG, n, o)

#define atomic64_read(v)		READ_ONCE((v)->counter)
#define atomic64_set(v, i)		WRITE_ONCE((v)->counter, (i))
#define atomic64_read_acquire(v)	atomic64_read(v)
#define atomic64_set_release(v, i)	atomic64_set(v, i)
#define atomic64_add(i, v)		((void)SIM_RMW64(v, SIM_ATOMIC_ADD, i, 0))
#define atomic64_sub(i, v)		((void)SIM_RMW64(v, SIM_ATOMIC_ADD, -(s64)(i), 0))
#define atomic64_inc(v)			((void)SIM_RMW64(v, SIM_ATOMIC_INC, 0, 0))
#define atomic64_dec(v)			((void)SIM_RMW64(v, SIM_ATOMIC_DEC, 0, 0))
#define atomic64_or(i, v)		((void)SIM_RMW64(v, SIM_ATOMIC_OR, i, 0))
#define atomic64_and(i, v)		((void)SIM_RMW64(v, SIM_ATOMIC_AND, i, 0))
#define atomic64_xor(i, v)		((void)SIM_RMW64(v, SIM_ATOMIC_XOR, i, 0))
#define atomic64_andnot(i, v)		((void)SIM_RMW64(v, SIM_ATOMIC_ANDNOT, i, 0))
#define atomic64_add_return(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, i, 0)
#define atomic64_sub_return(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, -(s64)(i), 0)
#define atomic64_inc_return(v)		SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, 1, 0)
#define atomic64_dec_return(v)		SIM_RMW64(v, SIM_ATOMIC_ADD_RETURN, -1, 0)
#define atomic64_fetch_add(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD, i, 0)
#define atomic64_fetch_sub(i, v)	SIM_RMW64(v, SIM_ATOMIC_ADD, -(s64)(i), 0)
#define atomic64_fetch_inc(v)		SIM_RMW64(v, SIM_ATOMIC_INC, 0, 0)
#define atomic64_fetch_dec(v)		SIM_RMW64(v, SIM_ATOMIC_DEC, 0, 0)
#define atomic64_fetch_or(i, v)		SIM_RMW64(v, SIM_ATOMIC_OR, i, 0)
#define atomic64_fetch_and(i, v)	SIM_RMW64(v, SIM_ATOMIC_AND, i, 0)
#define atomic64_fetch_xor(i, v)	SIM_RMW64(v, SIM_ATOMIC_XOR, i, 0)
#define atomic64_fetch_andnot(i, v)	SIM_RMW64(v, SIM_ATOMIC_ANDNOT, i, 0)
#define atomic64_xchg(v, i)		SIM_RMW64(v, SIM_ATOMIC_XCHG, i, 0)
#define atomic64_cmpxchg(v, o, n)	SIM_RMW64(v, SIM_ATOMIC_CMPXCHG, n, o)

/* The ordered variants: one operation in a sequentially consistent machine. */
#define atomic_add_return_acquire	atomic_add_return
#define atomic_add_return_release	atomic_add_return
#define atomic_add_return_relaxed	atomic_add_return
#define atomic_sub_return_acquire	atomic_sub_return
#define atomic_sub_return_release	atomic_sub_return
#define atomic_sub_return_relaxed	atomic_sub_return
#define atomic_inc_return_acquire	atomic_inc_return
#define atomic_inc_return_release	atomic_inc_return
#define atomic_inc_return_relaxed	atomic_inc_return
#define atomic_dec_return_acquire	atomic_dec_return
#define atomic_dec_return_release	atomic_dec_return
#define atomic_dec_return_relaxed	atomic_dec_return
#define atomic_fetch_add_acquire	atomic_fetch_add
#define atomic_fetch_add_release	atomic_fetch_add
#define atomic_fetch_add_relaxed	atomic_fetch_add
#define atomic_fetch_sub_acquire	atomic_fetch_sub
#define atomic_fetch_sub_release	atomic_fetch_sub
#define atomic_fetch_sub_relaxed	atomic_fetch_sub
#define atomic_fetch_inc_acquire	atomic_fetch_inc
#define atomic_fetch_inc_release	atomic_fetch_inc
#define atomic_fetch_inc_relaxed	atomic_fetch_inc
#define atomic_fetch_dec_acquire	atomic_fetch_dec
#define atomic_fetch_dec_release	atomic_fetch_dec
#define atomic_fetch_dec_relaxed	atomic_fetch_dec
#define atomic_fetch_or_acquire		atomic_fetch_or
#define atomic_fetch_or_release		atomic_fetch_or
#define atomic_fetch_or_relaxed		atomic_fetch_or
#define atomic_fetch_and_acquire	atomic_fetch_and
#define atomic_fetch_and_release	atomic_fetch_and
#define atomic_fetch_and_relaxed	atomic_fetch_and
#define atomic_fetch_xor_acquire	atomic_fetch_xor
#define atomic_fetch_xor_release	atomic_fetch_xor
#define atomic_fetch_xor_relaxed	atomic_fetch_xor
#define atomic_fetch_andnot_acquire	atomic_fetch_andnot
#define atomic_fetch_andnot_release	atomic_fetch_andnot
#define atomic_fetch_andnot_relaxed	atomic_fetch_andnot
#define atomic_xchg_acquire		atomic_xchg
#define atomic_xchg_release		atomic_xchg
#define atomic_xchg_relaxed		atomic_xchg
#define atomic_cmpxchg_acquire		atomic_cmpxchg
#define atomic_cmpxchg_release		atomic_cmpxchg
#define atomic_cmpxchg_relaxed		atomic_cmpxchg
#define atomic64_add_return_acquire	atomic64_add_return
#define atomic64_add_return_release	atomic64_add_return
#define atomic64_add_return_relaxed	atomic64_add_return
#define atomic64_sub_return_acquire	atomic64_sub_return
#define atomic64_sub_return_release	atomic64_sub_return
#define atomic64_sub_return_relaxed	atomic64_sub_return
#define atomic64_inc_return_acquire	atomic64_inc_return
#define atomic64_inc_return_release	atomic64_inc_return
#define atomic64_inc_return_relaxed	atomic64_inc_return
#define atomic64_dec_return_acquire	atomic64_dec_return
#define atomic64_dec_return_release	atomic64_dec_return
#define atomic64_dec_return_relaxed	atomic64_dec_return
#define atomic64_fetch_add_acquire	atomic64_fetch_add
#define atomic64_fetch_add_release	atomic64_fetch_add
#define atomic64_fetch_add_relaxed	atomic64_fetch_add
#define atomic64_fetch_sub_acquire	atomic64_fetch_sub
#define atomic64_fetch_sub_release	atomic64_fetch_sub
#define atomic64_fetch_sub_relaxed	atomic64_fetch_sub
#define atomic64_fetch_inc_acquire	atomic64_fetch_inc
#define atomic64_fetch_inc_release	atomic64_fetch_inc
#define atomic64_fetch_inc_relaxed	atomic64_fetch_inc
#define atomic64_fetch_dec_acquire	atomic64_fetch_dec
#define atomic64_fetch_dec_release	atomic64_fetch_dec
#define atomic64_fetch_dec_relaxed	atomic64_fetch_dec
#define atomic64_fetch_or_acquire	atomic64_fetch_or
#define atomic64_fetch_or_release	atomic64_fetch_or
#define atomic64_fetch_or_relaxed	atomic64_fetch_or
#define atomic64_fetch_and_acquire	atomic64_fetch_and
#define atomic64_fetch_and_release	atomic64_fetch_and
#define atomic64_fetch_and_relaxed	atomic64_fetch_and
#define atomic64_fetch_xor_acquire	atomic64_fetch_xor
#define atomic64_fetch_xor_release	atomic64_fetch_xor
#define atomic64_fetch_xor_relaxed	atomic64_fetch_xor
#define atomic64_fetch_andnot_acquire	atomic64_fetch_andnot
#define atomic64_fetch_andnot_release	atomic64_fetch_andnot
#define atomic64_fetch_andnot_relaxed	atomic64_fetch_andnot
#define atomic64_xchg_acquire		atomic64_xchg
#define atomic64_xchg_release		atomic64_xchg
#define atomic64_xchg_relaxed		atomic64_xchg
#define atomic64_cmpxchg_acquire	atomic64_cmpxchg
#define atomic64_cmpxchg_release	atomic64_cmpxchg
#define atomic64_cmpxchg_relaxed	atomic64_cmpxchg

/* The conditional operations, as the kernel's generic fallbacks build them. */
#define SIM_ATOMIC_CONDITIONAL(p, type, rmw, ctype)				\
static inline bool p##_try_cmpxchg_site(p##_t *v, type *old, type new,		\
					const struct sim_site *site)		\
{										\
	type r = rmw((ctype *)v, SIM_ATOMIC_CMPXCHG, new, *old, site);		\
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
