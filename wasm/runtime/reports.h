/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Between the runtime's reporters: the table of reports (reports.c) and
 * the checkers that write into it (lockdep.c; kasan.c uses sim_report_text()).
 */
#ifndef SIM_REPORTS_H
#define SIM_REPORTS_H

#include "runtime.h"
#include "strbuf.h"

/* Adds a report whose text is in b (taken); returns its id. */
int sim_report_add(int type, const struct sim_site *site, const char *title, struct strbuf *b);
/* "mm/shrinker.c:795 shrinker_free()" */
void sim_put_site(struct strbuf *b, const struct sim_site *s);
const char *sim_task_name(const struct sim_task *t);
/*
 * add_taint(flag, LOCKDEP_NOW_UNRELIABLE): lockdep stops, with its line at
 * the end of the report that tainted (b), if it was still on.
 */
void sim_lockdep_taint(struct strbuf *b);

#endif /* SIM_REPORTS_H */
