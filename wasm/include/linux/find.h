/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Duplicated from the kernel (include/linux/find.h, lib/find_bit.c):
 * find_next_bit() and friends, written plainly.
 *
 * With SIM_KERNEL_BITMAP the kernel's own find.h follows, when the
 * kernel's linux/bitmap.h includes it: its #ifndef find_next_bit (and
 * find_next_zero_bit, find_first_bit, find_first_zero_bit) leaves these
 * four to the shim, as it leaves them to an architecture's own, and
 * lib/find_bit.c then builds the rest (find_nth_bit(), find_last_bit(),
 * the and/or/andnot and wrap forms, find_next_clump8()).
 */
#ifndef SIM_LINUX_FIND_H
#define SIM_LINUX_FIND_H

static inline unsigned long sim_find_bit(const unsigned long *addr, unsigned long size,
					 unsigned long offset, unsigned long invert)
{
	while (offset < size) {
		unsigned long word = addr[BIT_WORD(offset)] ^ invert;

		word &= ~0UL << (offset % BITS_PER_LONG);
		if (word) {
			unsigned long bit = BIT_WORD(offset) * BITS_PER_LONG + __ffs(word);

			return bit < size ? bit : size;
		}
		offset = (BIT_WORD(offset) + 1) * BITS_PER_LONG;
	}
	return size;
}

#define find_next_bit(addr, size, offset)	sim_find_bit(addr, size, offset, 0UL)
#define find_next_zero_bit(addr, size, offset)	sim_find_bit(addr, size, offset, ~0UL)
#define find_first_bit(addr, size)		sim_find_bit(addr, size, 0, 0UL)
#define find_first_zero_bit(addr, size)		sim_find_bit(addr, size, 0, ~0UL)

#endif /* SIM_LINUX_FIND_H */

#if defined(SIM_KERNEL_BITMAP) && defined(__LINUX_BITMAP_H)
#include <asm/byteorder.h>
#include_next <linux/find.h>
#endif
