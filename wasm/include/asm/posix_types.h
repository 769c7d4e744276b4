/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: size types follow the compiler's, as an architecture's
 * posix_types.h does, so size_t is the C library's size_t on every target
 * (unsigned int on i386, unsigned long on wasm32). The rest is generic.
 */
#ifndef SIM_ASM_POSIX_TYPES_H
#define SIM_ASM_POSIX_TYPES_H

typedef __SIZE_TYPE__ __kernel_size_t;
typedef __PTRDIFF_TYPE__ __kernel_ssize_t;
typedef __PTRDIFF_TYPE__ __kernel_ptrdiff_t;
#define __kernel_size_t __kernel_size_t

#include <asm-generic/posix_types.h>

#endif /* SIM_ASM_POSIX_TYPES_H */
