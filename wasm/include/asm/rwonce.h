/* SPDX-License-Identifier: GPL-2.0-only */
/* Duplicated from the kernel: the architecture uses the generic READ_ONCE. */
#include <asm-generic/rwonce.h>
