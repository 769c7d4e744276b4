/* SPDX-License-Identifier: GPL-2.0-only */
/* Duplicated from the kernel: the generic POSIX types. */
#include <asm-generic/posix_types.h>
