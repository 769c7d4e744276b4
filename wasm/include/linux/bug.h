/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: WARN_ON() records a WARN event at the caller's line and the
 * scenario goes on; BUG_ON() records a BUG event and stops the CPU's task,
 * as in the kernel.
 */
#ifndef _LINUX_BUG_H
#define _LINUX_BUG_H

#include <linux/compiler.h>
#include <linux/build_bug.h>
#include <sim.h>

#define WARN_ON(condition) ({						\
	int __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on))					\
		sim_warn(#condition, SIM_SITE_EXPR(#condition));	\
	unlikely(__ret_warn_on);					\
})
#define WARN_ON_ONCE(condition)	WARN_ON(condition)
#define WARN(condition, format...) ({					\
	int __ret_warn = !!(condition);					\
	if (unlikely(__ret_warn))					\
		sim_warnf(SIM_SITE_EXPR(#condition), format);		\
	unlikely(__ret_warn);						\
})
#define WARN_ONCE(condition, format...) WARN(condition, format)

/* Duplicated from include/linux/bug.h, with CONFIG_BUG_ON_DATA_CORRUPTION=n. */
#define CHECK_DATA_CORRUPTION(condition, fmt, ...)			\
	({								\
		bool corruption = unlikely(condition);			\
		if (corruption)						\
			WARN(1, fmt, ##__VA_ARGS__);			\
		corruption;						\
	})
#define BUG() sim_bug("BUG()", SIM_SITE())
#define BUG_ON(condition) do {						\
	if (unlikely(condition))					\
		sim_bug(#condition, SIM_SITE_EXPR(#condition));		\
} while (0)
#define VM_BUG_ON(cond) BUG_ON(cond)
#define VM_WARN_ON(cond) (void)WARN_ON(cond)
#define VM_WARN_ON_ONCE(cond) WARN_ON(cond)

#endif /* _LINUX_BUG_H */
