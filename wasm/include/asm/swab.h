/* SPDX-License-Identifier: GPL-2.0-only */
/* Stubbed: no architecture byte-swap instructions; include/uapi/linux/swab.h's generic C serves. */
#ifndef _ASM_X86_SWAB_H
#define _ASM_X86_SWAB_H
#endif /* _ASM_X86_SWAB_H */
