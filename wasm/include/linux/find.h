/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Duplicated from the kernel (include/linux/find.h, lib/find_bit.c):
 * find_next_bit() and friends, written plainly.
 */
#ifndef __LINUX_FIND_H_
#define __LINUX_FIND_H_

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

#endif /* __LINUX_FIND_H_ */
