/* SPDX-License-Identifier: GPL-2.0-only */
/* Stubbed: there are no modules in the simulation. */
#ifndef _LINUX_EXPORT_H
#define _LINUX_EXPORT_H
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)
#endif
