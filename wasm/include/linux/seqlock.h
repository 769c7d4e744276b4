/* SPDX-License-Identifier: GPL-2.0-only */
/* Stubbed: no code compiled here takes a seqlock (linux/torture.h includes it). */
#ifndef __LINUX_SEQLOCK_H
#define __LINUX_SEQLOCK_H
#endif /* __LINUX_SEQLOCK_H */
