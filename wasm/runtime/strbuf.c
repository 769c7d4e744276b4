// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strbuf.h"

void sb_put(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int len;

	for (;;) {
		size_t room = b->cap - b->n;

		va_start(ap, fmt);
		len = vsnprintf(b->s ? b->s + b->n : NULL, room, fmt, ap);
		va_end(ap);
		if (len < 0)
			abort();
		if ((size_t)len < room) {
			b->n += (size_t)len;
			return;
		}
		b->cap = (b->cap + (size_t)len + 64) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
}

void sb_raw(struct strbuf *b, const char *s, size_t len)
{
	if (b->cap - b->n <= len) {
		b->cap = (b->cap + len + 64) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
	memcpy(b->s + b->n, s, len);
	b->n += len;
	b->s[b->n] = '\0';
}

void sb_uint(struct strbuf *b, unsigned long long v)
{
	char d[24];
	size_t k = sizeof(d);

	do
		d[--k] = (char)('0' + v % 10);
	while (v /= 10);
	sb_raw(b, d + k, sizeof(d) - k);
}

/* Runs of characters that need no escape are copied whole: a schedule of millions of decisions is one string. */
void sb_json(struct strbuf *b, const char *s)
{
	sb_raw(b, "\"", 1);
	while (s && *s) {
		size_t k = 0;
		unsigned char c;

		while (s[k] && s[k] != '"' && s[k] != '\\' && (unsigned char)s[k] >= 0x20)
			k++;
		if (k) {
			sb_raw(b, s, k);
			s += k;
			continue;
		}
		c = (unsigned char)*s++;
		if (c == '"' || c == '\\')
			sb_put(b, "\\%c", c);
		else if (c == '\n')
			sb_put(b, "\\n");
		else
			sb_put(b, "\\u%04x", c);
	}
	sb_raw(b, "\"", 1);
}
