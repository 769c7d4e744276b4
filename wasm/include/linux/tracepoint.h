/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the TRACE_EVENT() of a branch's own include/trace/events/
 * header, read by a shim header that lists the events it wants with
 * "#define SIM_TRACE_<event> 1" before including it, makes for each of
 * those a function sim_tp_<event>(TP_PROTO) that fills the event's
 * TP_STRUCT__entry with its TP_fast_assign and, when tracing is on
 * (labrun --ftrace), prints its TP_printk text with sim_ftrace() as
 * kernel/trace/trace_output.c would (trace_raw_output_<event>). Every
 * other event, class and enum of the header expands to nothing.
 */
#ifndef _LINUX_TRACEPOINT_H
#define _LINUX_TRACEPOINT_H

#include <sim.h>

#define PARAMS(args...)			args
#define TP_PROTO(args...)		args
#define TP_ARGS(args...)		args
#define TP_STRUCT__entry(args...)	args
#define TP_fast_assign(args...)		args
#define TP_printk(fmt, args...)		fmt, ##args
#define TP_CONDITION(args...)		args
#define __field(type, item)		type item;
#define __field_struct(type, item)	type item;
#define __array(type, item, len)	type item[len];

/* include/linux/tracepoint-defs.h; __print_flags() as include/trace/stages/ has it */
struct trace_print_flags {
	unsigned long mask;
	const char *name;
};
#define __print_flags(flag, delim, flag_array...)				\
	({									\
		static const struct trace_print_flags __flags[] =		\
			{ flag_array, { -1, (const char *)0 } };		\
		sim_trace_print_flags_seq(delim, flag, __flags);		\
	})

#define TRACE_DEFINE_ENUM(a)
#define TRACE_DEFINE_SIZEOF(a)
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)
#define DEFINE_EVENT(template, name, proto, args)
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)
#define DEFINE_EVENT_CONDITION(template, name, proto, args, cond)

/* __is_defined() (linux/kconfig.h): 1 when SIM_TRACE_<name> is defined as 1 */
#define __sim_tp_if(cond, ...)		___sim_tp_if(cond, __VA_ARGS__)
#define ___sim_tp_if(cond, ...)		__sim_tp_if_##cond(__VA_ARGS__)
#define __sim_tp_if_0(...)
#define __sim_tp_if_1(...)		__VA_ARGS__

#define __sim_tp_define(name, proto, tstruct, assign, print)			\
	struct sim_tp_entry_##name { tstruct };					\
	static inline void sim_tp_##name(proto)					\
	{									\
		struct sim_tp_entry_##name __sim_entry, *__entry = &__sim_entry; \
										\
		if (!sim_ftrace_on)						\
			return;							\
		{ assign }							\
		sim_ftrace(#name, print);					\
	}

#define TRACE_EVENT(name, proto, args, tstruct, assign, print)			\
	__sim_tp_if(__is_defined(SIM_TRACE_##name),				\
		    __sim_tp_define(name, PARAMS(proto), PARAMS(tstruct),	\
				    PARAMS(assign), PARAMS(print)))
#define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, print) \
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))

#endif /* _LINUX_TRACEPOINT_H */
