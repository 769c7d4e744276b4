/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event kinds of events.def as a table of names, argument names and
 * descriptions, for code that writes them out (lab.c, gen_events_ts.c).
 */
#ifndef SIM_KINDS_H
#define SIM_KINDS_H

#include "sim.h"

struct sim_kind_info {
	const char *name;
	const char *args[4];
	const char *doc;
};

static const struct sim_kind_info sim_kinds[SIM_EV_NR_KINDS] = {
#define SIM_EVENT(k, a0, a1, a2, a3, d) { #k, { a0, a1, a2, a3 }, d },
#include "events.def"
#undef SIM_EVENT
};

#endif /* SIM_KINDS_H */
