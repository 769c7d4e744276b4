/* SPDX-License-Identifier: GPL-2.0-only */
/* Stubbed: no user memory in the simulation (lib/test_bitmap.c includes it, uses none). */
#ifndef __LINUX_UACCESS_H__
#define __LINUX_UACCESS_H__
#endif
