/* SPDX-License-Identifier: GPL-2.0-only */
/* Stubbed: v6.12's mm/shrinker.c includes it but takes no rw_semaphore. */
#ifndef _LINUX_RWSEM_H
#define _LINUX_RWSEM_H
#endif
