// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's vsnprintf() for the selftest variant: lib/vsprintf.c's
 * number, string and bitmap conversions, extracted with their lines
 * (wasm/extract/selftest-vsprintf.txt), and lib/kasprintf.c's kasprintf()
 * over it (selftest-kasprintf.txt). With SIM_KERNEL_VSPRINTF the
 * shim's linux/kernel.h names them for snprintf(), scnprintf() ... and
 * linux/printk.h formats printk() with them, so %*pb and %*pbl print as
 * in the kernel (lib/bitmap-str.c and lib/test_bitmap.c use them).
 *
 * pointer(), which picks the formatter of a %p extension, is the
 * project's: the bitmap formats go to the kernel's bitmap_string() and
 * bitmap_list_string(); %px prints the address; plain %p prints what
 * lib/vsprintf.c's ptr_to_id() prints until the kernel has its key to hash
 * pointers with, "(ptrval)" on a 32-bit machine, and NULL and error
 * pointers as they are (the simulated machine's addresses differ natively
 * and in wasm; its console must not: rcutorture prints its current
 * element with %p); any other extension, whose formatter is not compiled,
 * prints "(%p?)".
 */
#include <linux/kernel.h>
#include <linux/bitmap.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/hex.h>
#include <linux/limits.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/byteorder.h>

struct printf_spec;
static char *pointer(const char *fmt, char *buf, char *end, void *ptr,
		     struct printf_spec spec);

/* The extracted text defines the kernel's names; SIM_KERNEL_VSPRINTF maps them. */
#include "lib/vsprintf-extract.c"
#include "lib/kasprintf-extract.c"

static char *pointer(const char *fmt, char *buf, char *end, void *ptr,
		     struct printf_spec spec)
{
	switch (*fmt) {
	case 'b':
		if (fmt[1] == 'l')
			return bitmap_list_string(buf, end, ptr, spec, fmt);
		return bitmap_string(buf, end, ptr, spec, fmt);
	case 'x':
		return pointer_string(buf, end, ptr, spec);
	default:
		if (isalnum(*fmt))
			return error_string(buf, end, "(%p?)", spec);
		if (IS_ERR_OR_NULL(ptr))
			return pointer_string(buf, end, ptr, spec);
		spec.field_width = 2 * sizeof(ptr);
		return error_string(buf, end, sizeof(ptr) == 8 ? "(____ptrval____)" : "(ptrval)", spec);
	}
}

/* printk(): the line the kernel would log, as a PRINTK event at the caller's line. */
void sim_kernel_printk(const struct sim_site *site, const char *fmt, ...)
{
	char line[1024];	/* kernel/printk: PRINTKRB_RECORD_MAX */
	va_list args;

	va_start(args, fmt);
	vsnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	sim_printk(site, "%s", line);
}
