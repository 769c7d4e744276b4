// SPDX-License-Identifier: GPL-2.0-only
/*
 * The library functions lib/bitmap-str.c needs beyond lib/bitmap.c, for
 * the selftest variant: the kernel's, extracted with their lines from
 * files too large (or too tied to the rest of the kernel) to compile
 * whole, and included here with the headers they would find there:
 * _parse_integer() and its helpers (lib/kstrtox.c,
 * wasm/extract/selftest-kstrtox.txt), strncasecmp() and strnchrnul()
 * (lib/string.c, selftest-string.txt), memory_read_from_buffer()
 * (fs/libfs.c, selftest-libfs.txt).
 *
 * memdup_user_nul() is the project's, after mm/util.c: the simulated
 * machine has one address space, so a __user pointer is a plain pointer
 * and copying from it cannot fault; the copy is NUL-terminated, in a
 * kmalloc()ed buffer (bitmap_parse_user(), bitmap_parselist_user()).
 */
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/mm.h>
#include <linux/math64.h>

#include "lib/kstrtox-extract.c"
#include "lib/string-extract.c"
#include "fs/libfs-extract.c"

char *memdup_user_nul(const void __user *src, size_t len)
{
	char *p;

	p = kmalloc(len + 1, GFP_KERNEL);
	if (!p)
		return ERR_PTR(-ENOMEM);
	memcpy(p, (const void __force *)src, len);
	p[len] = '\0';
	return p;
}
