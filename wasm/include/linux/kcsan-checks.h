/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: KCSAN's annotations (include/linux/kcsan-checks.h, included
 * as it is for the rest, without CONFIG_KCSAN): the accesses made inside
 * data_race() are the simulated machine's race detector's to ignore
 * (wasm/runtime/kcsan/kcsan.h), as kcsan_disable_current() makes KCSAN's.
 */
#ifndef SIM_KCSAN_CHECKS_WRAPPER
#define SIM_KCSAN_CHECKS_WRAPPER

/* The real header's empty inline functions, renamed out of the way */
#define __kcsan_disable_current	sim_kcsan_disable_current_unused
#define __kcsan_enable_current	sim_kcsan_enable_current_unused
#include_next <linux/kcsan-checks.h>
#undef __kcsan_disable_current
#undef __kcsan_enable_current

void sim_kcsan_nest(int delta);
#define __kcsan_disable_current()	sim_kcsan_nest(1)
#define __kcsan_enable_current()	sim_kcsan_nest(-1)

#endif /* SIM_KCSAN_CHECKS_WRAPPER */
