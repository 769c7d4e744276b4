/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: completions (Documentation/scheduler/completion.rst). A task
 * in wait_for_completion() sleeps until complete() lets it through.
 */
#ifndef __LINUX_COMPLETION_H
#define __LINUX_COMPLETION_H

#include <sim.h>

struct completion {
	unsigned int done;
	struct sim_waitq wait;
};

#define COMPLETION_INITIALIZER(work)	{ 0, { 0, 0 } }
#define DECLARE_COMPLETION(work)	struct completion work = COMPLETION_INITIALIZER(work)
#define init_completion(x)	sim_completion_init(&(x)->done, &(x)->wait, SIM_SITE_EXPR(#x))
#define reinit_completion(x)	((x)->done = 0)
#define wait_for_completion(x)	sim_wait_for_completion(&(x)->done, &(x)->wait, SIM_SITE_EXPR(#x))
#define complete(x)		sim_complete(&(x)->done, &(x)->wait, 0, SIM_SITE_EXPR(#x))
#define complete_all(x)		sim_complete(&(x)->done, &(x)->wait, 1, SIM_SITE_EXPR(#x))
#define completion_done(x)	(READ_ONCE((x)->done) != 0)

#endif /* __LINUX_COMPLETION_H */
