// SPDX-License-Identifier: GPL-2.0-only
/*
 * KASAN for the simulated kernel (Documentation/dev-tools/kasan.rst).
 *
 * Kernel files and project code built as kernel code are compiled with
 * the compiler's address-sanitizer instrumentation in outline mode, its
 * callbacks renamed (-asan-memory-access-callback-prefix=__sim_kasan_), as
 * the kernel's outline KASAN calls __asan_load4() and friends: every load
 * and store calls in here with its address and size. An access that
 * touches an object in the slab quarantine (slab.c) is a
 * slab-use-after-free, reported once per object with the task and line of
 * the access, of the allocation and of the free. Then the run goes on, as
 * with KASAN's default (kasan.fault=report), or, for a scenario booted
 * with kasan.fault=panic, the machine stops (status "panic"). Scenarios
 * whose kernel code would go on to chase pointers read from freed memory
 * take panic: here, the poison in freed memory would be host addresses.
 *
 * The report's name for the bug is the kernel's: 6.12's generic KASAN says
 * "slab-use-after-free" (mm/kasan/report_generic.c), 6.1's said
 * "use-after-free"; the variant's glue says which (sim_kasan_uaf_bug_type).
 *
 * The access's line: natively, the sanitizer runtime symbolizes the
 * caller's address from debug information. The wasm build has no
 * symbolizer, so its report names the last kernel line the task reported
 * before the access, and says so.
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include "runtime.h"
#include "footprint.h"
#include "strbuf.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIM_HAVE_SYMBOLIZER 1
#include <sanitizer/common_interface_defs.h>
#endif
#endif

/*
 * The instrumented access's address, for the symbolizer; the wasm build
 * has none (and emscripten's __builtin_return_address() aborts without
 * its offset converter), so there it is NULL.
 */
#ifdef __EMSCRIPTEN__
#define CALLER_PC() ((void *)0)
#else
#define CALLER_PC() __builtin_return_address(0)
#endif

#define MAX_REPORTED 64

/* Defined by the variant's glue (wasm/glue/<kernel>/api.c); absent in the runtime's own tests. */
extern const char sim_kasan_uaf_bug_type[] __attribute__((weak));

static int reported[MAX_REPORTED];
static int nreported;
static int fault_panic;

void sim_kasan_init(int panic)
{
	nreported = 0;
	fault_panic = panic;
	sim_fiber_catch_leaves(panic);	/* sim_panic() leaves the task from inside a callback */
}

static int already_reported(int obj)
{
	int i;

	for (i = 0; i < nreported; i++)
		if (reported[i] == obj)
			return 1;
	if (nreported == MAX_REPORTED)
		return 1;	/* enough: the first reports are the useful ones */
	reported[nreported++] = obj;
	return 0;
}

static void put_site(struct strbuf *b, int site)
{
	const struct sim_site *s = sim_site_at(site);

	if (s && s->file && *s->file)
		sb_put(b, " %s()\n  %s:%d\n", s->func, s->file, s->line);
	else
		sb_put(b, " (no kernel line)\n");
}

static const char *task_name(int id)
{
	const struct sim_task *t = sim_task_by_id(id);

	return t ? sim_name_at(t->name) : "?";
}

static void report(uintptr_t addr, size_t size, int write, void *pc, const struct sim_obj *o)
{
	struct sim_task *t = sim_current;
	struct strbuf b = { 0 };
	const struct sim_site *last = t ? sim_site_at(t->last_site) : NULL;
	const char *bug_type = sim_kasan_uaf_bug_type ? sim_kasan_uaf_bug_type : "slab-use-after-free";
	char title[64];

	snprintf(title, sizeof(title), "KASAN: %s", bug_type);
	sb_put(&b, "==================================================================\n");
	sb_put(&b, "BUG: KASAN: %s", bug_type);
#ifdef SIM_HAVE_SYMBOLIZER
	{
		char where[256], *dot;

		__sanitizer_symbolize_pc(pc, "%f %s:%l", where, sizeof(where));
		/* debug info names files relative to the build directory, as "./path" */
		if ((dot = strstr(where, " ./")))
			memmove(dot + 1, dot + 3, strlen(dot + 3) + 1);
		sb_put(&b, " in %s\n", where);
	}
#else
	(void)pc;
	if (last && last->file && *last->file)
		sb_put(&b, " after %s:%d %s()\n(the last kernel line this task reported before the access)\n",
		       last->file, last->line, last->func);
	else
		sb_put(&b, "\n");
#endif
	sb_put(&b, "%s of size %zu at object #%d + %zu by task %s/%d on CPU%d\n\n",
	       write ? "Write" : "Read", size, o->id, (size_t)(addr - o->start),
	       t ? sim_name_at(t->name) : "?", t ? t->id : -1, sim_cpu_id());
	sb_put(&b, "Allocated by task %s/%d:\n", task_name(o->alloc_task), o->alloc_task);
	put_site(&b, o->alloc_site);
	sb_put(&b, "\nFreed by task %s/%d:\n", task_name(o->free_task), o->free_task);
	put_site(&b, o->free_site);
	sb_put(&b, "\nThe buggy address belongs to the object #%d of size %zu\n", o->id, o->size);
	sb_put(&b, "The buggy address is located %zu bytes inside of freed %zu-byte region\n",
	       (size_t)(addr - o->start), o->size);
	sb_put(&b, "==================================================================\n");
	sim_report_text(SIM_REPORT_KASAN, last, title, b.s, o->id);
	if (fault_panic)
		sim_panic();
}

static __attribute__((noinline)) void check_slow(uintptr_t addr, size_t size, int write, void *pc)
{
	const struct sim_obj *o;

	if (sim_fp_on)
		sim_fp_note_range(addr, size, write);
	o = sim_slab_freed_at(addr, size);
	if (o && !already_reported(o->id))
		report(addr, size, write, pc, o);
}

/*
 * Inlined in each callback: an access that the explorer does not note and
 * that touches no freed granule (one load of the freed maps, runtime.h)
 * returns without a call and without the report's stack frame. Under tso
 * and relaxed, a plain access first goes to the memory model (memmodel/).
 */
static inline __attribute__((always_inline)) void check_access(uintptr_t addr, size_t size, int write, void *pc)
{
	if (!sim_current)
		return;
	if (!sim_fp_on && !sim_slab_may_touch_freed(addr, size))
		return;
	check_slow(addr, size, write, pc);
}

static inline __attribute__((always_inline)) void check(uintptr_t addr, size_t size, int write, void *pc)
{
	if (__builtin_expect(sim_kcsan_on, 0))
		kcsan_settle();		/* before the memory model puts memory back */
	if (__builtin_expect(sim_memory != SIM_MEMORY_SC, 0))
		mm_plain(addr, size, write);
	if (__builtin_expect(sim_kcsan_on, 0))
		kcsan_plain(addr, size, write, pc);
	check_access(addr, size, write, pc);
}

/* The check of a marked access, which the memory model makes for the compiler's instead. */
void sim_kasan_check(uintptr_t addr, size_t size, int write)
{
	check_access(addr, size, write, CALLER_PC());
}

#define KASAN_CALLBACKS(n)								\
void __sim_kasan_load##n(uintptr_t addr)						\
{											\
	check(addr, n, 0, CALLER_PC());					\
}											\
void __sim_kasan_store##n(uintptr_t addr)						\
{											\
	check(addr, n, 1, CALLER_PC());					\
}
KASAN_CALLBACKS(1)
KASAN_CALLBACKS(2)
KASAN_CALLBACKS(4)
KASAN_CALLBACKS(8)
KASAN_CALLBACKS(16)

void __sim_kasan_loadN(uintptr_t addr, uintptr_t size)
{
	check(addr, size, 0, CALLER_PC());
}

void __sim_kasan_storeN(uintptr_t addr, uintptr_t size)
{
	check(addr, size, 1, CALLER_PC());
}

/* memcpy() and friends in instrumented code come here, checked, then done. */
/*
 * The memory model sees the copy as the reads and writes of its bytes; it
 * is made from the newest values (mm_copy() says what the copy read).
 */
/* A copy's checks: KASAN's of both ranges, then KCSAN's plain accesses (pc: the instrumented caller). */
static inline __attribute__((always_inline)) void check_copy(void *dst, const void *src, size_t n, void *pc)
{
	check_access((uintptr_t)src, n, 0, pc);
	check_access((uintptr_t)dst, n, 1, pc);
	if (__builtin_expect(sim_kcsan_on, 0)) {
		kcsan_plain((uintptr_t)src, n, 0, pc);
		kcsan_plain((uintptr_t)dst, n, 1, pc);
	}
}

void *__sim_kasan_memcpy(void *dst, const void *src, size_t n)
{
	check_copy(dst, src, n, CALLER_PC());
	if (__builtin_expect(sim_memory != SIM_MEMORY_SC, 0))
		return mm_copy(dst, src, n);
	return memcpy(dst, src, n);
}

void *__sim_kasan_memmove(void *dst, const void *src, size_t n)
{
	check_copy(dst, src, n, CALLER_PC());
	if (__builtin_expect(sim_memory != SIM_MEMORY_SC, 0))
		return mm_copy(dst, src, n);
	return memmove(dst, src, n);
}

void *__sim_kasan_memset(void *dst, int c, size_t n)
{
	check((uintptr_t)dst, n, 1, CALLER_PC());
	return memset(dst, c, n);
}

/*
 * The instrumentation's module constructor asks for these. The native
 * sanitizer runtime provides the real ones; elsewhere there is nothing to
 * set up, as the callbacks above are the whole of it.
 */
__attribute__((weak)) void __asan_init(void)
{
}

__attribute__((weak)) void __asan_version_mismatch_check_v8(void)
{
}

__attribute__((weak)) void __asan_handle_no_return(void)
{
}
