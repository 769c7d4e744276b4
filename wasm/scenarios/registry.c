// SPDX-License-Identifier: GPL-2.0-only
/* Every scenario, one line each. */
#include <stddef.h>
#include <string.h>
#include "scenario.h"

extern const struct scenario scenario_shrinker_lifetime;
extern const struct scenario scenario_planted_bugs;
extern const struct scenario scenario_fuzz_ops;

const struct scenario *const sim_scenarios[] = {
	&scenario_shrinker_lifetime,
	&scenario_planted_bugs,
	&scenario_fuzz_ops,
	NULL,
};

const struct scenario *sim_scenario_find(const char *name)
{
	int i;

	for (i = 0; sim_scenarios[i]; i++)
		if (!strcmp(sim_scenarios[i]->name, name))
			return sim_scenarios[i];
	return NULL;
}
