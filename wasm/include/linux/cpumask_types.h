/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Duplicated from the kernel (include/linux/cpumask_types.h, 6.12), with
 * CONFIG_CPUMASK_OFFSTACK off: a cpumask is a bitmap of NR_CPUS bits.
 */
#ifndef __LINUX_CPUMASK_TYPES_H
#define __LINUX_CPUMASK_TYPES_H

#include <linux/bitops.h>
#include <linux/threads.h>

typedef struct cpumask { DECLARE_BITMAP(bits, NR_CPUS); } cpumask_t;
#define cpumask_bits(maskp) ((maskp)->bits)
typedef struct cpumask cpumask_var_t[1];

#endif /* __LINUX_CPUMASK_TYPES_H */
