// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which functions a run entered, for the inventory of the folio LRU
 * (wasm/tools/lru-inventory.py, docs/lru.md). The cov flavour compiles
 * the kernel-side code with -finstrument-functions, which calls
 * __cyg_profile_func_enter() on entry to every function, inlined or not
 * (the flavour drops __always_inline's attribute, which clang would leave
 * unhooked); each distinct function is kept here, and at exit written to
 * the file $LAB_FUNCS_OUT names, one hex address a line, after the
 * address of main(), so that the reader can place them against the
 * program's symbols (nm) whatever address the program was loaded at.
 * Only the cov flavour's labrun links this file; it changes nothing a run
 * does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SLOTS (1 << 16)		/* open addressing; the lab's kernels have a few thousand functions */

static uintptr_t entered[SLOTS];

#define NO_HOOK __attribute__((no_instrument_function))
void __cyg_profile_func_enter(void *fn, void *site) NO_HOOK;
void __cyg_profile_func_exit(void *fn, void *site) NO_HOOK;

void __cyg_profile_func_enter(void *fn, void *site)
{
	uintptr_t a = (uintptr_t)fn;
	size_t i = (size_t)((a >> 2) * 2654435761u) & (SLOTS - 1), n;

	(void)site;
	for (n = 0; n < SLOTS && entered[i] && entered[i] != a; n++)
		i = (i + 1) & (SLOTS - 1);
	if (n < SLOTS)
		entered[i] = a;
}

void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
}

int main(int argc, char **argv);

static void NO_HOOK write_entered(void) __attribute__((destructor));
static void write_entered(void)
{
	const char *path = getenv("LAB_FUNCS_OUT");
	FILE *f;
	size_t i;

	if (!path || !(f = fopen(path, "w")))
		return;
	fprintf(f, "main %lx\n", (unsigned long)(uintptr_t)&main);
	for (i = 0; i < SLOTS; i++)
		if (entered[i])
			fprintf(f, "%lx\n", (unsigned long)entered[i]);
	fclose(f);
}
