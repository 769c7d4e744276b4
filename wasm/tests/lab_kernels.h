/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the registry (kernel-tree/manifest.json "kernels") expects of the
 * kernel a native test runs on: its traits and the explorer's expectations,
 * from the table kernel-tree/kernels.py generates (build/gen/). A test finds
 * its kernel by the branch its scenarios run (struct scenario.tree) and its
 * own name: the registry refuses two kernels of one branch running one test.
 */
#ifndef LAB_KERNELS_H
#define LAB_KERNELS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A race of wasm/explore.json: kind NULL when no execution within its bound may fail. */
struct lab_kernel_expect {
	const char *race;
	const char *kind;
	int preemptions;
};

struct lab_kernel {
	const char *name, *branch, *kind;
	const char *const *tests;	/* NULL-terminated */
	const char *const *traits;	/* NULL-terminated */
	const struct lab_kernel_expect *explore;	/* ends with race NULL */
};

static const struct lab_kernel lab_kernels[] = {
#include "../../build/gen/lab_kernels_table.h"
};

static inline int lab_kernel_in(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

/* The kernel of branch TREE that runs TEST; exits when the registry has none. */
static inline const struct lab_kernel *lab_kernel_of(const char *tree, const char *test)
{
	size_t i;

	for (i = 0; i < sizeof(lab_kernels) / sizeof(lab_kernels[0]); i++)
		if (!strcmp(lab_kernels[i].branch, tree) && lab_kernel_in(lab_kernels[i].tests, test))
			return &lab_kernels[i];
	fprintf(stderr, "%s: no kernel of the registry (kernel-tree/manifest.json) built from %s runs it\n",
		test, tree);
	exit(2);
}

static inline int lab_kernel_has_trait(const struct lab_kernel *k, const char *trait)
{
	return lab_kernel_in(k->traits, trait);
}

/* What the explorer must find on race RACE: NULL if it is not searched there. */
static inline const struct lab_kernel_expect *lab_kernel_explore(const struct lab_kernel *k, const char *race)
{
	const struct lab_kernel_expect *e;

	for (e = k->explore; e->race; e++)
		if (!strcmp(e->race, race))
			return e;
	return NULL;
}

#endif
