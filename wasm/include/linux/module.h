/* SPDX-License-Identifier: GPL-2.0-only */
/* Stubbed: there are no modules in the simulation. */
#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H
#include <linux/export.h>
#endif
