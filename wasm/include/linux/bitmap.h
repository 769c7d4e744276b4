/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Duplicated from the kernel (include/linux/bitmap.h): what the files use;
 * bitmap_zalloc() and bitmap_free() are macros here, so that users need
 * <linux/slab.h> themselves.
 *
 * With SIM_KERNEL_BITMAP (the selftest variant, which compiles lib/bitmap.c
 * and lib/test_bitmap.c) the kernel's own header is used instead, over the
 * shim's bit operations (linux/bitops.h) and find_next_bit() family
 * (linux/find.h).
 */
#ifdef SIM_KERNEL_BITMAP
#include <linux/kernel.h>	/* the shim's brings it; users count on it */
#include_next <linux/bitmap.h>
#elif !defined(__LINUX_BITMAP_H)
#define __LINUX_BITMAP_H

#include <linux/bitops.h>
#include <linux/string.h>
#include <linux/kernel.h>

#define BITMAP_FIRST_WORD_MASK(start) (~0UL << ((start) & (BITS_PER_LONG - 1)))
#define BITMAP_LAST_WORD_MASK(nbits) (~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))

/* lib/bitmap.c's, over the shim's kcalloc() (a simulated allocation). */
#define bitmap_zalloc(nbits, flags) \
	((unsigned long *)kcalloc(BITS_TO_LONGS(nbits), sizeof(unsigned long), (flags)))
#define bitmap_free(bitmap)	kfree(bitmap)

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_fill(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0xff, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline bool bitmap_empty(const unsigned long *src, unsigned int nbits)
{
	return find_first_bit(src, nbits) == nbits;
}

static inline bool bitmap_full(const unsigned long *src, unsigned int nbits)
{
	return find_first_zero_bit(src, nbits) == nbits;
}

static inline void bitmap_clear(unsigned long *map, unsigned int start, unsigned int len)
{
	while (len--)
		__clear_bit(start++, map);
}

#endif /* __LINUX_BITMAP_H */
