/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: READ_ONCE() and WRITE_ONCE() (include/asm-generic/rwonce.h,
 * used as it is for the rest). Under sc they are the generic volatile
 * access; under tso and relaxed the memory model makes the access
 * (wasm/runtime/memmodel/memmodel.h). A READ_ONCE() of a pointer orders
 * what is read through it, as an address dependency does (SIM_MM_DEREF).
 */
#ifndef __ASM_RWONCE_H
#define __ASM_RWONCE_H

#include <asm-generic/rwonce.h>
#include <sim.h>

#undef READ_ONCE
#undef WRITE_ONCE

/* __builtin_classify_type()'s class of pointers */
#define SIM_ONCE_ORDER(x)	(__builtin_classify_type(x) == 5 ? SIM_MM_DEREF : SIM_MM_ONCE)

#define SIM_MM_READ(x, order) ({						\
	union { char __c[sizeof(x)]; __unqual_scalar_typeof(x) __v; } __u;	\
	sim_mm_load(&(x), __u.__c, sizeof(x), (order), SIM_SITE_EXPR(#x));	\
	__u.__v;								\
})
#define SIM_READ_ORDERED(x, order)	(sim_mm_on() ? SIM_MM_READ(x, order) : __READ_ONCE(x))

#define SIM_WRITE_ORDERED(x, val, order) do {					\
	if (sim_mm_on()) {							\
		union { __unqual_scalar_typeof(x) __v; char __c[sizeof(x)]; } __u = { .__v = (val) }; \
		sim_mm_store(&(x), __u.__c, sizeof(x), (order), SIM_SITE_EXPR(#x)); \
	} else {								\
		__WRITE_ONCE(x, val);						\
	}									\
} while (0)

#define READ_ONCE(x) ({								\
	compiletime_assert_rwonce_type(x);					\
	SIM_READ_ORDERED(x, SIM_ONCE_ORDER(x));					\
})

#define WRITE_ONCE(x, val) do {							\
	compiletime_assert_rwonce_type(x);					\
	SIM_WRITE_ORDERED(x, val, SIM_MM_ONCE);					\
} while (0)

#endif /* __ASM_RWONCE_H */
