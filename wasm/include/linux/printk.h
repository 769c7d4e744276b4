/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: printk and pr_*() become PRINTK events at the caller's line;
 * pr_*() put the file's pr_fmt() around the format, as the kernel does.
 */
#ifndef __KERNEL_PRINTK__
#define __KERNEL_PRINTK__

#include <linux/kern_levels.h>
#include <sim.h>

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define printk(fmt, ...)	sim_printk(SIM_SITE(), fmt, ##__VA_ARGS__)
#define pr_emerg(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	do { } while (0)
#define dump_stack()		sim_dump_stack(SIM_SITE())
#define pr_warn_once(fmt, ...)	printk(pr_fmt(fmt), ##__VA_ARGS__)

#endif /* __KERNEL_PRINTK__ */
