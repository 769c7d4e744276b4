/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the two vmscan tracepoints mm/shrinker.c (6.1: mm/vmscan.c)
 * fires become SHRINK_START / SHRINK_END events at the line that fires
 * them; and, when tracing is on (labrun --ftrace), the events of the
 * branch's own include/trace/events/vmscan.h, read through the shim's
 * linux/tracepoint.h, print their TP_printk text, as the kernel's trace
 * buffer has it (kernel-tree/kunit/compare.sh compares it with User-Mode
 * Linux's).
 */
#ifndef _SIM_TRACE_VMSCAN_H
#define _SIM_TRACE_VMSCAN_H

#include <sim.h>
#include <linux/tracepoint.h>

#define SIM_TRACE_mm_shrink_slab_start 1
#define SIM_TRACE_mm_shrink_slab_end 1
#include_next <trace/events/vmscan.h>

#define trace_mm_shrink_slab_start(shr, sc, nr_objects_to_shrink, cache_items, delta, total_scan, priority) \
	do {									\
		sim_event(SIM_EV_SHRINK_START, SIM_SITE(), sim_obj_for(SIM_EV_SHRINK_START, shr), (int)(cache_items), \
			  (int)(total_scan), (int)(priority));			\
		sim_tp_mm_shrink_slab_start(shr, sc, nr_objects_to_shrink, cache_items, \
					    delta, total_scan, priority);	\
	} while (0)
#define trace_mm_shrink_slab_end(shr, nid, shrinker_retval, unused_scan_cnt, new_scan_cnt, total_scan) \
	do {									\
		sim_event(SIM_EV_SHRINK_END, SIM_SITE(), sim_obj_for(SIM_EV_SHRINK_END, shr), (int)(shrinker_retval), \
			  (int)(new_scan_cnt), (int)(total_scan));		\
		sim_tp_mm_shrink_slab_end(shr, nid, shrinker_retval,		\
			unused_scan_cnt, new_scan_cnt, total_scan);		\
	} while (0)

#endif /* _SIM_TRACE_VMSCAN_H */
