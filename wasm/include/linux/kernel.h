/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Duplicated from the kernel (include/linux/kernel.h): the helpers the
 * compiled files use, built from real headers where they stand alone.
 */
#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H

#include <linux/stdarg.h>
#include <linux/align.h>
#include <linux/limits.h>
#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/bitops.h>
#include <linux/log2.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/typecheck.h>
#include <linux/printk.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/export.h>
#include <linux/cache.h>
#include <linux/sched/mm.h>
#include <sim.h>

#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]) + __must_be_array(arr))
#define might_sleep() do { } while (0)
#define cond_resched() sim_cond_resched(SIM_SITE())
#define smp_processor_id() sim_cpu_id()
#define raw_smp_processor_id() sim_cpu_id()

#ifdef SIM_KERNEL_VSPRINTF
#include <linux/hex.h>	/* hex_asc[] ... (lib/hexdump.c) */
/*
 * lib/vsprintf.c's, extracted (wasm/glue/vsprintf.c), named apart from the
 * C library's, which the runtime's own printing uses.
 */
#define vsnprintf	sim_kernel_vsnprintf
#define vscnprintf	sim_kernel_vscnprintf
#define snprintf	sim_kernel_snprintf
#define scnprintf	sim_kernel_scnprintf
#define vsprintf	sim_kernel_vsprintf
#define sprintf		sim_kernel_sprintf
int scnprintf(char *buf, size_t size, const char *fmt, ...);
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args);
int sprintf(char *buf, const char *fmt, ...);
int vsprintf(char *buf, const char *fmt, va_list args);
char *kasprintf(gfp_t gfp, const char *fmt, ...);
char *kvasprintf(gfp_t gfp, const char *fmt, va_list args);
#endif
int snprintf(char *buf, size_t size, const char *fmt, ...);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list args);

#endif /* _LINUX_KERNEL_H */
