// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated machine's trace buffer: what the tracepoints the shim
 * reads from a branch's include/trace/events/ headers print
 * (linux/tracepoint.h), one line per event as the kernel's
 * /sys/kernel/tracing/trace shows it with its irq-info option off:
 *
 *   "%16s-%-7d [%03d] %5lu.%06lu: %s: " comm, pid, CPU, seconds, event,
 *   then the event's TP_printk text
 *
 * (kernel/trace/trace_output.c, trace_print_context()), the task's name
 * and id, the CPU and its virtual clock standing for the kernel's. Kept
 * beside the event log, only while sim_ftrace_on (labrun --ftrace), as
 * the kernel keeps nothing for a tracepoint that is not enabled.
 *
 * The TP_printk formats go through vsnprintf() but for the kernel's own
 * pointer formats (lib/vsprintf.c): %pS prints the function's name, as
 * sim_kallsyms_add() gave it, and its offset, "rl_scan+0x0" (not its
 * size, which the simulation does not know), or the address in hex when
 * it has no name; %p prints the object's id in the slab's table, in hex,
 * where the kernel prints the address hashed: both say which object,
 * neither where it is.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "strbuf.h"

int sim_ftrace_on;
static struct strbuf buf;
static int nr_lines;

static struct {
	const void *addr;
	const char *name;
} syms[64];
static int nr_syms;

void sim_kallsyms_add(const void *addr, const char *name)
{
	int i;

	for (i = 0; i < nr_syms; i++)
		if (syms[i].addr == addr)
			return;
	if (nr_syms < (int)(sizeof(syms) / sizeof(syms[0]))) {
		syms[nr_syms].addr = addr;
		syms[nr_syms++].name = name;
	}
}

static const char *kallsyms_name(const void *addr)
{
	int i;

	for (i = 0; i < nr_syms; i++)
		if (syms[i].addr == addr)
			return syms[i].name;
	return NULL;
}

/* kernel/trace/trace_output.c: trace_print_flags_seq(), into one of a few buffers */
const char *sim_trace_print_flags_seq(const char *delim, unsigned long flags, const void *flag_array)
{
	const struct { unsigned long mask; const char *name; } *f = flag_array;
	static char out[4][256];
	static int next;
	char *s = out[next++ % 4];
	size_t n = 0;
	int i, first = 1;

	s[0] = '\0';
	for (i = 0; f[i].name && flags; i++) {
		if ((flags & f[i].mask) != f[i].mask)
			continue;
		flags &= ~f[i].mask;
		n += snprintf(s + n, n < 256 ? 256 - n : 0, "%s%s", first ? "" : delim, f[i].name);
		first = 0;
	}
	if (flags)
		snprintf(s + n, n < 256 ? 256 - n : 0, "%s0x%lx", first ? "" : delim, flags);
	return s;
}

/* One conversion of fmt (its text in spec), its argument taken from ap. */
static void put_conversion(struct strbuf *b, const char *spec, char conv, const char *len, va_list *ap)
{
	switch (conv) {
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
		if (!strcmp(len, "ll"))
			sb_put(b, spec, va_arg(*ap, long long));
		else if (!strcmp(len, "l") || !strcmp(len, "z"))
			sb_put(b, spec, va_arg(*ap, long));
		else
			sb_put(b, spec, va_arg(*ap, int));
		break;
	case 'c':
		sb_put(b, spec, va_arg(*ap, int));
		break;
	case 's':
		sb_put(b, spec, va_arg(*ap, const char *));
		break;
	default:
		sb_put(b, "%%%c", conv);
	}
}

/*
 * fmt with its arguments into b, the kernel's pointer formats as the
 * simulated machine prints them (the head of this file): TP_printk's
 * formats, and printk's and WARN's (core.c, reports.c), whose %p must
 * print the same natively and in wasm, where the addresses differ.
 */
static void sim_kformat(struct strbuf *b, const char *fmt, va_list *ap)
{
	const char *p;

	for (p = fmt; *p; p++) {
		char spec[32], len[3] = "";
		size_t n = 0;

		if (*p != '%') {
			sb_put(b, "%c", *p);
			continue;
		}
		if (p[1] == '%') {
			sb_put(b, "%%");
			p++;
			continue;
		}
		spec[n++] = *p++;
		while (*p && strchr("-+ #0123456789.*", *p) && n < 20) {
			if (*p == '*') {	/* a width or precision given as an argument */
				n += (size_t)snprintf(spec + n, sizeof(spec) - n, "%d", va_arg(*ap, int));
				p++;
				continue;
			}
			spec[n++] = *p++;
		}
		while (*p && strchr("hlzjt", *p) && strlen(len) < 2) {
			size_t l = strlen(len);

			len[l] = *p == 't' ? 'l' : *p;
			len[l + 1] = '\0';
			spec[n++] = len[l];
			p++;
		}
		if (*p == 'p') {
			const void *ptr = va_arg(*ap, const void *);

			if (p[1] == 'S' || p[1] == 's') {
				const char *name = kallsyms_name(ptr);

				if (name)
					sb_put(b, p[1] == 'S' ? "%s+0x0" : "%s", name);
				else
					sb_put(b, "0x%lx", (unsigned long)ptr);
				p++;
			} else {
				sb_put(b, "%08x", (unsigned int)sim_obj_of(ptr));
				/* another extension (%px, %pK ...): its letters say nothing more here */
				while (p[1] && ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z') ||
						(p[1] >= '0' && p[1] <= '9')))
					p++;
			}
			continue;
		}
		if (!*p)
			break;
		spec[n++] = *p;
		spec[n] = '\0';
		put_conversion(b, spec, *p, len, ap);
	}
}

/* sim_kformat() into out (n bytes, cut short as vsnprintf() cuts). */
void sim_kvsnprintf(char *out, size_t n, const char *fmt, va_list ap)
{
	struct strbuf b = { 0 };
	va_list copy;

	va_copy(copy, ap);
	sim_kformat(&b, fmt, &copy);
	va_end(copy);
	if (n)
		snprintf(out, n, "%s", b.s ? b.s : "");
	free(b.s);
}

void sim_ftrace(const char *event, const char *fmt, ...)
{
	struct sim_task *t = sim_current;
	int cpu = t ? t->cpu : sim_event_cpu;
	sim_u64 ns = t || sim_running ? sim_cpus[cpu].clock : 0;
	char comm[16];
	va_list ap;

	snprintf(comm, sizeof(comm), "%s", t ? sim_name_at(t->name) : "<idle>");
	sb_put(&buf, "%16s-%-7d [%03d] %5llu.%06llu: %s: ", comm, t ? t->id : 0, cpu,
	       ns / 1000000000ULL, ns % 1000000000ULL / 1000, event);
	va_start(ap, fmt);
	sim_kformat(&buf, fmt, &ap);
	va_end(ap);
	sb_put(&buf, "\n");
	nr_lines++;
}

void sim_ftrace_reset(void)
{
	free(buf.s);
	memset(&buf, 0, sizeof(buf));
	nr_lines = 0;
	nr_syms = 0;
}

const char *sim_ftrace_text(int *lines)
{
	if (lines)
		*lines = nr_lines;
	return buf.s ? buf.s : "";
}
