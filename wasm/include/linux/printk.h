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

#ifdef SIM_KERNEL_VSPRINTF
/* formatted by the kernel's vsnprintf() (wasm/glue/vsprintf.c): %*pb, %*pbl ... */
void sim_kernel_printk(const struct sim_site *site, const char *fmt, ...);
#define printk(fmt, ...)	sim_kernel_printk(SIM_SITE(), fmt, ##__VA_ARGS__)
#else
#define printk(fmt, ...)	sim_printk(SIM_SITE(), fmt, ##__VA_ARGS__)
#endif
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

/* lib/hexdump.c's (the selftest variant compiles it) */
enum {
	DUMP_PREFIX_NONE,
	DUMP_PREFIX_ADDRESS,
	DUMP_PREFIX_OFFSET
};
int hex_dump_to_buffer(const void *buf, __SIZE_TYPE__ len, int rowsize, int groupsize,
		       char *linebuf, __SIZE_TYPE__ linebuflen, _Bool ascii);
void print_hex_dump(const char *level, const char *prefix_str, int prefix_type, int rowsize,
		    int groupsize, const void *buf, __SIZE_TYPE__ len, _Bool ascii);

#endif /* __KERNEL_PRINTK__ */
