/* SPDX-License-Identifier: GPL-2.0-only */
/* Stubbed: allocation-context scopes and might_alloc() have no effect here. */
#ifndef _LINUX_SCHED_MM_H
#define _LINUX_SCHED_MM_H
#define might_alloc(gfp) do { (void)(gfp); } while (0)
#endif
