/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: bit operations (Documentation/atomic_bitops.txt). The atomic
 * set_bit()/clear_bit() family records a BIT event at the caller's line (a
 * shrinker bit set in a memcg's map is one) and, under tso and relaxed, is
 * the memory model's read-modify-write; the non-atomic __ forms and the
 * find/ffs helpers are silent, plain accesses.
 */
#ifndef _LINUX_BITOPS_H
#define _LINUX_BITOPS_H

#include <linux/bits.h>
#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/bitsperlong.h>
#include <sim.h>

#define BITS_PER_TYPE(type)	(sizeof(type) * BITS_PER_BYTE)
#define BITS_TO_LONGS(nr)	__KERNEL_DIV_ROUND_UP(nr, BITS_PER_TYPE(long))
#define BITS_TO_U64(nr)		__KERNEL_DIV_ROUND_UP(nr, BITS_PER_TYPE(u64))
#define BITS_TO_U32(nr)		__KERNEL_DIV_ROUND_UP(nr, BITS_PER_TYPE(u32))
#define BITS_TO_BYTES(nr)	__KERNEL_DIV_ROUND_UP(nr, BITS_PER_TYPE(char))
#ifndef BITS_PER_BYTE
#define BITS_PER_BYTE 8
#endif

enum { SIM_BIT_SET = 1, SIM_BIT_CLEAR, SIM_BIT_TEST_AND_SET, SIM_BIT_TEST_AND_CLEAR };

/*
 * order: the memory model's ordering of the read-modify-write, under tso
 * and relaxed (Documentation/atomic_bitops.txt): set_bit() and
 * clear_bit() are unordered, test_and_*() fully ordered when they change
 * the bit and, as the generic ones (asm-generic/bitops/atomic.h), only a
 * read when not; the lock forms below are acquire and release.
 */
static inline int sim_bitop_ordered(unsigned long nr, volatile unsigned long *addr, int op,
				    int order, const struct sim_site *site)
{
	volatile unsigned long *p = addr + BIT_WORD(nr);
	unsigned long mask = BIT_MASK(nr);
	int old;

	if (sim_mm_on()) {
		unsigned long w, nw;

		sim_mm_rmw_begin(p, &w, sizeof(w), order, site);
		nw = op == SIM_BIT_SET || op == SIM_BIT_TEST_AND_SET ? w | mask : w & ~mask;
		sim_mm_rmw_end(p, &nw, sizeof(nw), order,
			       nw != w || order == SIM_MM_NORET || order == SIM_MM_RELEASE, site);
		old = !!(w & mask);
	} else {
		old = !!(*p & mask);
		if (op == SIM_BIT_SET || op == SIM_BIT_TEST_AND_SET)
			*p |= mask;
		else
			*p &= ~mask;
	}
	sim_event(SIM_EV_BIT, site, sim_obj_for(SIM_EV_BIT, addr), (int)nr, old, op);
	sim_step(site, SIM_COST_BITOP);
	return old;
}

static inline int sim_bitop(unsigned long nr, volatile unsigned long *addr, int op,
			    const struct sim_site *site)
{
	return sim_bitop_ordered(nr, addr, op,
				 op >= SIM_BIT_TEST_AND_SET ? SIM_MM_FULL : SIM_MM_NORET, site);
}

#define set_bit(nr, addr)	((void)sim_bitop(nr, addr, SIM_BIT_SET, SIM_SITE_EXPR(#addr)))
#define clear_bit(nr, addr)	((void)sim_bitop(nr, addr, SIM_BIT_CLEAR, SIM_SITE_EXPR(#addr)))
#define test_and_set_bit(nr, addr)	sim_bitop(nr, addr, SIM_BIT_TEST_AND_SET, SIM_SITE_EXPR(#addr))
#define test_and_clear_bit(nr, addr)	sim_bitop(nr, addr, SIM_BIT_TEST_AND_CLEAR, SIM_SITE_EXPR(#addr))

/*
 * set_mask_bits() (include/linux/bitops.h): the bits under mask replaced
 * at once, the kernel's try_cmpxchg() loop in one step here, and so, as
 * a successful cmpxchg, fully ordered under tso and relaxed; an ATOMIC
 * event (op 4, cmpxchg; old and new: the word's low 32 bits).
 */
#define set_mask_bits(ptr, mask, bits) \
	sim_set_mask_bits(ptr, mask, bits, SIM_SITE_EXPR(#ptr))
static inline unsigned long sim_set_mask_bits(volatile unsigned long *p, unsigned long mask,
					      unsigned long bits, const struct sim_site *site)
{
	unsigned long old, new;

	if (sim_mm_on()) {
		sim_mm_rmw_begin(p, &old, sizeof(old), SIM_MM_FULL, site);
		new = (old & ~mask) | bits;
		sim_mm_rmw_end(p, &new, sizeof(new), SIM_MM_FULL, 1, site);
	} else {
		old = *p;
		new = (old & ~mask) | bits;
		*p = new;
	}
	sim_event(SIM_EV_ATOMIC, site, sim_obj_for(SIM_EV_ATOMIC, p), (int)old, (int)new, 4);
	sim_step(site, SIM_COST_ATOMIC);
	return old;
}

/*
 * The lock forms (include/asm-generic/bitops/lock.h): test_and_set_bit_lock()
 * is an acquire when it takes the bit (only a read when it finds it set),
 * clear_bit_unlock() a release. The folio lock's release tells whether
 * anyone waits (PG_waiters, bit 7 of the same byte): a release
 * read-modify-write of the word, a BIT event clearing the lock bit.
 */
#define test_and_set_bit_lock(nr, addr)	\
	sim_bitop_ordered(nr, addr, SIM_BIT_TEST_AND_SET, SIM_MM_ACQUIRE, SIM_SITE_EXPR(#addr))
#define clear_bit_unlock(nr, addr)	\
	((void)sim_bitop_ordered(nr, addr, SIM_BIT_CLEAR, SIM_MM_RELEASE, SIM_SITE_EXPR(#addr)))
#define xor_unlock_is_negative_byte(mask, addr) \
	sim_xor_unlock_is_negative_byte(mask, addr, SIM_SITE_EXPR(#addr))
static inline bool sim_xor_unlock_is_negative_byte(unsigned long mask, volatile unsigned long *addr,
						   const struct sim_site *site)
{
	unsigned long old, new;

	if (sim_mm_on()) {
		sim_mm_rmw_begin(addr, &old, sizeof(old), SIM_MM_RELEASE, site);
		new = old ^ mask;
		sim_mm_rmw_end(addr, &new, sizeof(new), SIM_MM_RELEASE, 1, site);
	} else {
		old = *addr;
		*addr = old ^ mask;
	}
	sim_event(SIM_EV_BIT, site, sim_obj_for(SIM_EV_BIT, addr), (int)__builtin_ctzl(mask),
		  !!(old & mask), SIM_BIT_CLEAR);
	sim_step(site, SIM_COST_BITOP);
	return old & 0x80;
}

/*
 * The non-atomic forms, as asm-generic/bitops/generic-non-atomic.h has
 * them (through a plain, not a volatile, pointer), and test_bit() as
 * include/linux/bitops.h picks it: the const_ form when the operands are
 * known at compile time, so that such expressions fold to constants
 * (lib/test_bitmap.c's test_bitmap_const_eval() checks that they do).
 */
static inline void __set_bit(unsigned long nr, volatile unsigned long *addr)
{
	((unsigned long *)addr)[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	((unsigned long *)addr)[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline void __change_bit(unsigned long nr, volatile unsigned long *addr)
{
	((unsigned long *)addr)[BIT_WORD(nr)] ^= BIT_MASK(nr);
}

static inline bool __test_and_set_bit(unsigned long nr, volatile unsigned long *addr)
{
	unsigned long *p = (unsigned long *)addr + BIT_WORD(nr);
	bool old = *p & BIT_MASK(nr);

	*p |= BIT_MASK(nr);
	return old;
}

static inline bool __test_and_clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	unsigned long *p = (unsigned long *)addr + BIT_WORD(nr);
	bool old = *p & BIT_MASK(nr);

	*p &= ~BIT_MASK(nr);
	return old;
}

/*
 * test_bit() reads through a volatile pointer, and the instrumented one
 * tells KCSAN it is an atomic read (asm-generic/bitops/instrumented-
 * non-atomic.h): a marked load, which under tso and relaxed the memory
 * model makes, choosing among the values the CPU may still see, as it
 * does for READ_ONCE().
 */
static __attribute__((__noinline__, __unused__)) unsigned long
sim_test_bit_word(const volatile unsigned long *p, const struct sim_site *site)
{
	unsigned long w;

	sim_mm_load(p, &w, sizeof(w), SIM_MM_ONCE, site);
	return w;
}

/* The model's load out of line, so that under sc test_bit() stays the one load it was. */
static inline bool sim_test_bit(unsigned long nr, const volatile unsigned long *addr,
				const struct sim_site *site)
{
	const volatile unsigned long *p = addr + BIT_WORD(nr);
	unsigned long w = sim_mm_on() ? sim_test_bit_word(p, site) : *p;

	return 1UL & (w >> (nr & (BITS_PER_LONG - 1)));
}

static inline bool generic_test_bit(unsigned long nr, const volatile unsigned long *addr)
{
	return sim_test_bit(nr, addr, SIM_SITE());
}

static inline bool const_test_bit(unsigned long nr, const volatile unsigned long *addr)
{
	const unsigned long *p = (const unsigned long *)addr + BIT_WORD(nr);
	unsigned long mask = BIT_MASK(nr);
	unsigned long val = *p;

	return !!(val & mask);
}

#define test_bit(nr, addr)						\
	((__builtin_constant_p(nr) &&					\
	  __builtin_constant_p((uintptr_t)(addr) != (uintptr_t)NULL) &&	\
	  (uintptr_t)(addr) != (uintptr_t)NULL &&			\
	  __builtin_constant_p(*(const unsigned long *)(addr))) ?	\
	 const_test_bit(nr, addr) : sim_test_bit(nr, addr, SIM_SITE_EXPR(#addr)))

/* include/linux/bitops.h */
#define __assign_bit(nr, addr, value)					\
	((value) ? __set_bit(nr, addr) : __clear_bit(nr, addr))

static inline unsigned long __ffs(unsigned long word)
{
	return (unsigned long)__builtin_ctzl(word);
}

static inline unsigned long __fls(unsigned long word)
{
	return BITS_PER_LONG - 1 - (unsigned long)__builtin_clzl(word);
}

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(__u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline unsigned int fls_long(unsigned long l)
{
	return l ? BITS_PER_LONG - (unsigned int)__builtin_clzl(l) : 0;
}

static inline unsigned long ffz(unsigned long word)
{
	return __ffs(~word);
}

static inline unsigned int hweight_long(unsigned long w)
{
	return (unsigned int)__builtin_popcountl(w);
}

/* include/linux/bitops.h: the index of the n-th set bit of a word */
static inline unsigned int fns(unsigned long word, unsigned int n)
{
	while (word && n--)
		word &= word - 1;
	return word ? __ffs(word) : BITS_PER_LONG;
}

#include <linux/find.h>

#define for_each_set_bit(bit, addr, size) \
	for ((bit) = 0; (bit) = find_next_bit((addr), (size), (bit)), (bit) < (size); (bit)++)

#endif /* _LINUX_BITOPS_H */
