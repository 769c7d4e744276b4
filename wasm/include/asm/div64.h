/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Duplicated from the kernel (include/asm-generic/div64.h): do_div() divides
 * a 64-bit dividend in place and returns the remainder. Written with plain
 * 64-bit arithmetic, which the compiler provides on 32-bit targets too.
 */
#ifndef _ASM_GENERIC_DIV64_H
#define _ASM_GENERIC_DIV64_H

#define do_div(n, base) ({					\
	unsigned int __base = (base);				\
	unsigned int __rem = (unsigned int)((n) % __base);	\
	(n) = (n) / __base;					\
	__rem;							\
})

#endif /* _ASM_GENERIC_DIV64_H */
