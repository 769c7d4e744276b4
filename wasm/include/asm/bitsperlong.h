/* SPDX-License-Identifier: GPL-2.0-only */
/* Duplicated from the kernel: BITS_PER_LONG from the compiler's data model. */
#ifndef __ASM_GENERIC_BITS_PER_LONG
#define __BITS_PER_LONG (__SIZEOF_LONG__ * 8)
#include <asm-generic/bitsperlong.h>
#endif
