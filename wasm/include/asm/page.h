/* SPDX-License-Identifier: GPL-2.0-only */
/* Duplicated from the kernel (include/asm-generic/page.h, include/linux/mm.h): 4 KiB pages. */
#ifndef __ASM_GENERIC_PAGE_H
#define __ASM_GENERIC_PAGE_H

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#define offset_in_page(p)	((unsigned long)(p) & ~PAGE_MASK)

#endif /* __ASM_GENERIC_PAGE_H */
