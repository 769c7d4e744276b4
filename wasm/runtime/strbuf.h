/* SPDX-License-Identifier: GPL-2.0-only */
/* A growing string, for JSON and report texts. */
#ifndef SIM_STRBUF_H
#define SIM_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *s;	/* NUL-terminated once anything is written */
	size_t n, cap;
};

void sb_put(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* len bytes of s as they are, and a number in decimal: without a printf call each (a schedule has millions). */
void sb_raw(struct strbuf *b, const char *s, size_t len);
void sb_uint(struct strbuf *b, unsigned long long v);
/* A JSON string literal, quotes included. */
void sb_json(struct strbuf *b, const char *s);

#endif /* SIM_STRBUF_H */
