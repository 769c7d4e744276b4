/* SPDX-License-Identifier: GPL-2.0-only */
/* Duplicated from the kernel (arch/x86/include/uapi/asm/byteorder.h): both targets, i386 and wasm32, are little-endian. */
#ifndef _ASM_X86_BYTEORDER_H
#define _ASM_X86_BYTEORDER_H

#include <linux/byteorder/little_endian.h>

#endif /* _ASM_X86_BYTEORDER_H */
