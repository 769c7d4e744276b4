/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the two vmscan tracepoints mm/shrinker.c fires become
 * SHRINK_START / SHRINK_END events at the line that fires them.
 */
#ifndef _TRACE_VMSCAN_H
#define _TRACE_VMSCAN_H

#include <sim.h>

#define trace_mm_shrink_slab_start(shr, sc, nr_objects_to_shrink, cache_items, delta, total_scan, priority) \
	sim_event(SIM_EV_SHRINK_START, SIM_SITE(), sim_obj_of(shr), (int)(cache_items), \
		  (int)(total_scan), (int)(priority))
#define trace_mm_shrink_slab_end(shr, nid, shrinker_retval, unused_scan_cnt, new_scan_cnt, total_scan) \
	sim_event(SIM_EV_SHRINK_END, SIM_SITE(), sim_obj_of(shr), (int)(shrinker_retval), \
		  (int)(new_scan_cnt), (int)(total_scan))

#endif /* _TRACE_VMSCAN_H */
