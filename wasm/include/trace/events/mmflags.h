/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Duplicated from the kernel (include/trace/events/mmflags.h of v6.12;
 * keep in sync): the GFP flag names show_gfp_flags() prints, in the
 * kernel's order, for the flags the shim's gfp_types.h defines (v6.1's
 * list also has __GFP_ATOMIC, gone in 6.4, which the shim's GFP_ATOMIC
 * does not have). Left out, as the shim has none of their bits:
 * GFP_TRANSHUGE, GFP_TRANSHUGE_LIGHT, GFP_HIGHUSER_MOVABLE, GFP_HIGHUSER,
 * GFP_USER (__GFP_HARDWALL, __GFP_HIGHMEM, __GFP_MOVABLE, __GFP_COMP),
 * GFP_DMA, __GFP_HIGHMEM, GFP_DMA32, __GFP_COMP, __GFP_RECLAIMABLE,
 * __GFP_MOVABLE, __GFP_WRITE, __GFP_ZEROTAGS and the KASAN flags; a bit of theirs would be
 * printed as the kernel prints an unnamed rest, in hex.
 */
#ifndef _SIM_TRACE_MMFLAGS_H
#define _SIM_TRACE_MMFLAGS_H

#include <linux/gfp_types.h>

#define gfpflag_string(flag) {(__force unsigned long)flag, #flag}

#define __def_gfpflag_names			\
	gfpflag_string(GFP_KERNEL_ACCOUNT),	\
	gfpflag_string(GFP_KERNEL),		\
	gfpflag_string(GFP_NOFS),		\
	gfpflag_string(GFP_ATOMIC),		\
	gfpflag_string(GFP_NOIO),		\
	gfpflag_string(GFP_NOWAIT),		\
	gfpflag_string(__GFP_HIGH),		\
	gfpflag_string(__GFP_IO),		\
	gfpflag_string(__GFP_FS),		\
	gfpflag_string(__GFP_NOWARN),		\
	gfpflag_string(__GFP_RETRY_MAYFAIL),	\
	gfpflag_string(__GFP_NOFAIL),		\
	gfpflag_string(__GFP_NORETRY),		\
	gfpflag_string(__GFP_ZERO),		\
	gfpflag_string(__GFP_NOMEMALLOC),	\
	gfpflag_string(__GFP_MEMALLOC),		\
	gfpflag_string(__GFP_HARDWALL),		\
	gfpflag_string(__GFP_THISNODE),		\
	gfpflag_string(__GFP_ACCOUNT),		\
	gfpflag_string(__GFP_RECLAIM),		\
	gfpflag_string(__GFP_DIRECT_RECLAIM),	\
	gfpflag_string(__GFP_KSWAPD_RECLAIM)

#define show_gfp_flags(flags)						\
	(flags) ? __print_flags(flags, "|",				\
	__def_gfpflag_names						\
	) : "none"

#endif /* _SIM_TRACE_MMFLAGS_H */
