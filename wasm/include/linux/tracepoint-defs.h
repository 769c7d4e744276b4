/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stubbed: include/linux/tracepoint-defs.h's declarations of tracepoints
 * that other headers test (page_ref.h's, without CONFIG_DEBUG_PAGE_REF:
 * never enabled). The tracepoints the lab records come from the shim's
 * linux/tracepoint.h.
 */
#ifndef TRACEPOINT_DEFS_H
#define TRACEPOINT_DEFS_H 1

#define DECLARE_TRACEPOINT(tp)		extern int __tracepoint_##tp##_unused
#define tracepoint_enabled(tp)		false

#endif /* TRACEPOINT_DEFS_H */
