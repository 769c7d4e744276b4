/* SPDX-License-Identifier: GPL-2.0-only */
/* Customised: printk and pr_*() become PRINTK events at the caller's line. */
#ifndef __KERNEL_PRINTK__
#define __KERNEL_PRINTK__

#include <linux/kern_levels.h>
#include <sim.h>

#define printk(fmt, ...)	sim_printk(SIM_SITE(), fmt, ##__VA_ARGS__)
#define pr_emerg(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_alert(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	do { } while (0)
#define pr_warn_once(fmt, ...)	printk(fmt, ##__VA_ARGS__)

#endif /* __KERNEL_PRINTK__ */
