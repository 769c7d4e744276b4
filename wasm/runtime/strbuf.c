// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

void sb_json(struct strbuf *b, const char *s)
{
	sb_put(b, "\"");
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			sb_put(b, "\\%c", c);
		else if (c == '\n')
			sb_put(b, "\\n");
		else if (c < 0x20)
			sb_put(b, "\\u%04x", c);
		else
			sb_put(b, "%c", c);
	}
	sb_put(b, "\"");
}
