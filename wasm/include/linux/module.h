/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: there are no loadable modules in the simulation. A test
 * module's module_init() names its init function in a pointer the
 * selftest scenarios call (wasm/scenarios/selftest.c), as loading the
 * module would; module_exit() and the MODULE_*() tags are dropped.
 */
#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H
#include <linux/export.h>
#include <linux/init.h>
#include <linux/list.h>
#include <linux/ktime.h>	/* the kernel's brings it through linux/stat.h */

#define module_init(fn)		int (*const sim_module_init_##fn)(void) = fn
#define module_exit(fn)		void (*const sim_module_exit_##fn)(void) = fn
#define MODULE_AUTHOR(s)
#define MODULE_DESCRIPTION(s)
#define MODULE_LICENSE(s)
#define MODULE_INFO(tag, info)
#endif
