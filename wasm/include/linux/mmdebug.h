/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the mm debugging checks of include/linux/mmdebug.h, on as
 * with CONFIG_DEBUG_VM (VM_BUG_ON() is linux/bug.h's): a failed
 * VM_BUG_ON_FOLIO() is a BUG event at its line, a VM_WARN_ON_FOLIO() a
 * WARN event (the kernel would dump the folio first). The page-flags
 * policy checks (CONFIG_DEBUG_VM_PGFLAGS) are off, as in Debian's 6.12.
 */
#ifndef LINUX_MM_DEBUG_H
#define LINUX_MM_DEBUG_H 1

#include <linux/bug.h>
#include <linux/stringify.h>

#define VM_BUG_ON_PAGE(cond, page)		BUG_ON(cond)
#define VM_BUG_ON_FOLIO(cond, folio)		BUG_ON(cond)
#define VM_WARN_ON_FOLIO(cond, folio)		WARN_ON(cond)
#define VM_WARN_ON_ONCE_PAGE(cond, page)	WARN_ON(cond)
#define VM_WARN_ON_ONCE_FOLIO(cond, folio)	WARN_ON(cond)
#define VM_WARN_ONCE(cond, format...)		WARN(cond, format)
#define VM_WARN(cond, format...)		WARN(cond, format)
#define VM_BUG_ON_PGFLAGS(cond, page)		BUILD_BUG_ON_INVALID(cond)

#endif /* LINUX_MM_DEBUG_H */
