/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised wrapper: the real include/linux/rculist.h, plus a LIST event
 * at the caller's line when an entry is linked into or unlinked from an
 * RCU-protected list. The macros call the real inline functions (a macro
 * does not expand its own name again).
 */
#ifndef SIM_RCULIST_WRAPPER_H
#define SIM_RCULIST_WRAPPER_H

#include_next <linux/rculist.h>
#include <sim.h>

#define SIM_LIST_EVENT(entry, head, op, e) do {					\
	sim_event(SIM_EV_LIST, SIM_SITE_EXPR(e),				\
		  sim_obj_for(SIM_EV_LIST, entry),				\
		  sim_obj_for(SIM_EV_LIST, head), op, 0);			\
	sim_step(SIM_SITE_EXPR(e), SIM_COST_LIST);				\
} while (0)

#define list_add_rcu(new, head) do {						\
	list_add_rcu(new, head);						\
	SIM_LIST_EVENT(new, head, 1, #new);					\
} while (0)
#define list_add_tail_rcu(new, head) do {					\
	list_add_tail_rcu(new, head);						\
	SIM_LIST_EVENT(new, head, 2, #new);					\
} while (0)
#define list_del_rcu(entry) do {						\
	list_del_rcu(entry);							\
	SIM_LIST_EVENT(entry, (void *)0, 3, #entry);				\
} while (0)

#endif /* SIM_RCULIST_WRAPPER_H */
