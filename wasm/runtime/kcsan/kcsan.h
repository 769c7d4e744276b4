/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The race detector: KCSAN's job (Documentation/dev-tools/kcsan.rst) done
 * exactly instead of by sampling. Two accesses to overlapping bytes race
 * when they are of different CPUs, at least one writes, at least one is
 * plain, and neither happens before the other (FastTrack's vector clocks,
 * Flanagan and Freund, PLDI 2009). Happens-before comes from the
 * synchronisation of the memory model (memmodel/): a CPU's program order
 * (its tasks in turn: the kernel is not preemptible), locks, acquire and
 * release, value-returning atomics, smp_wmb()/smp_rmb()/smp_mb() with the
 * marked accesses they order, completions, task start, RCU grace periods.
 * KCSAN's defaults decide what is reported: accesses inside data_race() are
 * not looked at; CONFIG_KCSAN_ASSUME_PLAIN_WRITES_ATOMIC, races whose only
 * plain accesses are aligned writes of at most a word are not;
 * CONFIG_KCSAN_REPORT_VALUE_CHANGE_ONLY, a race of a write with a plain
 * read is only if the write changed the value. Each pair of lines is
 * reported once, in KCSAN's words ("BUG: KCSAN: data-race in A / B").
 *
 * On only for runs that ask (labrun --kcsan, as CONFIG_KCSAN is a kernel of
 * its own): a run without it is the run it always was.
 */
#ifndef SIM_KCSAN_H
#define SIM_KCSAN_H

#include <stddef.h>
#include <stdint.h>

struct sim_site;

extern int sim_kcsan_on;

void kcsan_init(int on, int ncpus);
void kcsan_run_end(void);

/* Accesses: plain ones from the KASAN callbacks (pc: the access's caller), marked from the memory model. */
void kcsan_plain(uintptr_t addr, size_t size, int write, void *pc);
void kcsan_marked(uintptr_t addr, size_t size, int write, const struct sim_site *site);
void kcsan_forget(uintptr_t addr, size_t size);
/* Before the next access: whether the last writes changed what they wrote over. */
void kcsan_settle(void);

/* Happens-before. obj: a location or a sync word (the memory model's keys). */
void kcsan_acquire(uintptr_t obj, int cpu);		/* the CPU sees the object's last release */
void kcsan_acquire_later(uintptr_t obj, int cpu);	/* ... once a read barrier comes (a marked load) */
void kcsan_release(uintptr_t obj, int cpu, int join);	/* publishes; join: adds to what is there (RMWs) */
void kcsan_store(uintptr_t obj, int cpu, int join);	/* a marked store: what the CPU's last release fence published */
void kcsan_fence(int cpu, int kind);			/* enum sim_mm_fence */
void kcsan_rmw(uintptr_t obj, int cpu, int order, int wrote);	/* enum sim_mm_order */
#endif /* SIM_KCSAN_H */
