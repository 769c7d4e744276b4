/* SPDX-License-Identifier: GPL-2.0-only */
/* Duplicated from the kernel (arch/x86/include/uapi/asm/types.h). */
#include <asm-generic/int-ll64.h>
