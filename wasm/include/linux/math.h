/* SPDX-License-Identifier: GPL-2.0-only */
/* Duplicated from the kernel (include/linux/math.h): rounding helpers, abs(). */
#ifndef _LINUX_MATH_H
#define _LINUX_MATH_H

#include <asm/div64.h>

#define __round_mask(x, y) ((__typeof__(x))((y)-1))
#define round_up(x, y) ((((x)-1) | __round_mask(x, y))+1)
#define round_down(x, y) ((x) & ~__round_mask(x, y))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define DIV_ROUND_UP_ULL(ll, d) ({ unsigned long long _tmp = (ll) + (d) - 1; do_div(_tmp, d); _tmp; })
#define roundup(x, y) ({ typeof(y) __y = y; (((x) + (__y - 1)) / __y) * __y; })
#define rounddown(x, y) ({ typeof(x) __x = (x); __x - (__x % (y)); })

/* abs() of any integer type, without a C library */
#define abs(x)	__abs_choose_expr(x, long long,				\
		__abs_choose_expr(x, long,				\
		__abs_choose_expr(x, int,				\
		__abs_choose_expr(x, short,				\
		__abs_choose_expr(x, char,				\
		__builtin_choose_expr(					\
			__builtin_types_compatible_p(typeof(x), char),	\
			(char)({ signed char __x = (x); __x<0?-__x:__x; }), \
			((void)0)))))))

#define __abs_choose_expr(x, type, other) __builtin_choose_expr(	\
	__builtin_types_compatible_p(typeof(x),   signed type) ||	\
	__builtin_types_compatible_p(typeof(x), unsigned type),		\
	({ signed type __x = (x); __x < 0 ? -__x : __x; }), other)

#endif /* _LINUX_MATH_H */
