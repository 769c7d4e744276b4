// SPDX-License-Identifier: GPL-2.0-only
/*
 * The footprint accumulator (footprint.h): an open-addressing set of the
 * 8-byte granules a step touched, with whether any access wrote them.
 */
#include <stdlib.h>
#include "footprint.h"

int sim_fp_on;

#define FP_HASH (2 * SIM_FP_MAX)
static struct {
	uint32_t key[FP_HASH];	/* granule + 1, 0 empty */
	uint8_t w[FP_HASH];
	uint32_t used[FP_HASH];
	uint32_t n;
	int all;		/* too many: conflicts with every step */
	uint32_t last_g, last_h;	/* the granule noted last (+ 1) and its slot: most notes repeat it */
} acc;

void sim_fp_note_range(uintptr_t addr, size_t size, int write)
{
	uint32_t g, last;

	if (!sim_fp_on || !size)
		return;
	g = (uint32_t)(addr >> 3);
	last = (uint32_t)((addr + size - 1) >> 3);
	if (g == last && acc.last_g == g + 1) {
		acc.w[acc.last_h] |= (uint8_t)(write != 0);
		return;
	}
	for (; g <= last && !acc.all; g++) {
		uint32_t h = (g * 2654435761u) & (FP_HASH - 1);

		while (acc.key[h] && acc.key[h] != g + 1)
			h = (h + 1) & (FP_HASH - 1);
		if (!acc.key[h]) {
			if (acc.n >= SIM_FP_MAX) {
				acc.all = 1;
				return;
			}
			acc.key[h] = g + 1;
			acc.w[h] = 0;
			acc.used[acc.n++] = h;
		}
		acc.w[h] |= (uint8_t)(write != 0);
		acc.last_g = g + 1;
		acc.last_h = h;
		if (g == last)
			break;
	}
}

void sim_fp_note_all(void)
{
	if (sim_fp_on)
		acc.all = 1;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* A step notes a few granules (three on average in shrinker-lifetime): insertion sort, qsort() past 32. */
static void sort_u32(uint32_t *v, uint32_t n)
{
	uint32_t i, j, k;

	if (n > 32) {
		qsort(v, n, sizeof(*v), cmp_u32);
		return;
	}
	for (i = 1; i < n; i++) {
		k = v[i];
		for (j = i; j > 0 && v[j - 1] > k; j--)
			v[j] = v[j - 1];
		v[j] = k;
	}
}

uint32_t sim_fp_close(uint32_t *out, uint32_t room)
{
	uint32_t i, n = acc.n;

	if (acc.all || n > room) {
		n = SIM_FP_ALL;
	} else {
		for (i = 0; i < n; i++)
			out[i] = (acc.key[acc.used[i]] - 1) << 1 | acc.w[acc.used[i]];
		sort_u32(out, n);
	}
	for (i = 0; i < acc.n; i++)
		acc.key[acc.used[i]] = 0;
	acc.n = 0;
	acc.all = 0;
	acc.last_g = 0;
	return n;
}

int sim_fp_conflict(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
	uint32_t i = 0, j = 0;

	if (na == SIM_FP_ALL || nb == SIM_FP_ALL)
		return 1;
	while (i < na && j < nb) {
		uint32_t ka = a[i] >> 1, kb = b[j] >> 1;

		if (ka < kb)
			i++;
		else if (kb < ka)
			j++;
		else if ((a[i] | b[j]) & 1)
			return 1;
		else
			i++, j++;
	}
	return 0;
}

void sim_fp_scratch(char **start, char **end)
{
	*start = (char *)&acc;
	*end = (char *)&acc + sizeof(acc);
}
