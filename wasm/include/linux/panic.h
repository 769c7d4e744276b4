/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stubbed: the taint a test module sets when it loads
 * (tools/testing/selftests/kselftest_module.h) is not kept.
 */
#ifndef _LINUX_PANIC_H
#define _LINUX_PANIC_H

#define TAINT_TEST		18	/* include/linux/panic.h */
enum lockdep_ok { LOCKDEP_STILL_OK, LOCKDEP_NOW_UNRELIABLE };

static inline void add_taint(unsigned flag, enum lockdep_ok lockdep_ok) { }

#endif /* _LINUX_PANIC_H */
