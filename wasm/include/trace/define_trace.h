/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stubbed: the kernel's define_trace.h makes the tracepoints' code where
 * CREATE_TRACE_POINTS is defined; the shim's linux/tracepoint.h already
 * made what the simulation uses of them.
 */
