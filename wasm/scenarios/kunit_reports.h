/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reports, reduced to what the simulated kernel and the real one print
 * alike, for kunit_planted_body.h: given the console text a step caused
 * (KASAN's, lockdep's and might_sleep()'s reports as the kernel prints
 * them, or as wasm/runtime/reports.c and kasan.c do), one trace line per
 * report: its headline; for lockdep's circular dependency the lock being
 * acquired and the lock held, by the names lockdep gives them; for KASAN
 * the bug type, the access and its size, the offset into the object and
 * the object's size; for a sleep in atomic context in_atomic(), the
 * preempt count and the RCU nest depth; "Disabling lock debugging due to
 * kernel taint"; any other "BUG:", "WARNING:" or "INFO:" line as it
 * stands. Addresses, pids, stacks and lines inside the lock and RCU
 * primitives differ between the two and are left out.
 *
 * Plain C over the C library's (or the kernel's) string functions, so
 * that wasm/tests/test_planted_bugs.c can feed it a console User-Mode
 * Linux printed. The includer defines rl_trace(fmt, ...) and ARRAY_SIZE.
 */
#ifndef RECLAIM_LAB_KUNIT_REPORTS_H
#define RECLAIM_LAB_KUNIT_REPORTS_H

/* The decimal number at s, or -1. */
static long rl_rep_number(const char *s)
{
	long n = 0;

	if (!s || *s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++)
		n = n * 10 + (*s - '0');
	return n;
}

/* The number after the first "key" in text, or -1. */
static long rl_rep_field(const char *text, const char *key)
{
	const char *p = text ? strstr(text, key) : NULL;

	return p ? rl_rep_number(p + strlen(key)) : -1;
}

/* The name lockdep prints in parentheses on the line after "what". */
static void rl_rep_lock_name(const char *text, const char *what, char *name, size_t size)
{
	const char *p = strstr(text, what), *open, *close;

	snprintf(name, size, "?");
	if (!p || !(open = strchr(p + strlen(what), '(')) || !(close = strchr(open, ')')))
		return;
	snprintf(name, size, "%.*s", (int)(close - open - 1), open + 1);
}

/* The rest of the line from s, without its end. */
static int rl_rep_line_len(const char *s)
{
	const char *e = strchr(s, '\n');

	return e ? (int)(e - s) : (int)strlen(s);
}

/*
 * One trace line per report found in text, in the order printed; "none"
 * when there is none. A headline this does not know is printed as it
 * stands, so that a report only one kernel makes still shows.
 */
static void rl_reports_reduce(const char *step, const char *text)
{
	const char *p = text;
	int found = 0;

	while (p && *p) {
		const char *line = p, *next = strchr(p, '\n');
		const char *m;

		p = next ? next + 1 : NULL;
		if ((m = strstr(line, "BUG: KASAN: ")) && (!next || m < next)) {
			const char *access = strstr(m, " of size ");
			const char *rw = access && access - m >= 5 &&
					 !strncmp(access - 5, "Write", 5) ? "Write" : "Read";

			m += strlen("BUG: KASAN: ");
			rl_trace("%s: KASAN %.*s: %s of size %ld, %ld bytes inside a freed %ld-byte object",
				 step, (int)strcspn(m, " \n"), m, rw,
				 rl_rep_field(m, " of size "), rl_rep_field(m, "is located "),
				 rl_rep_field(m, "freed "));
		} else if ((m = strstr(line, "WARNING: possible circular locking dependency detected")) &&
			   (!next || m < next)) {
			char want[48], held[48];

			rl_rep_lock_name(m, "is trying to acquire lock:", want, sizeof(want));
			rl_rep_lock_name(m, "but task is already holding lock:", held, sizeof(held));
			rl_trace("%s: lockdep: possible circular locking dependency: acquiring %s while holding %s",
				 step, want, held);
		} else if ((m = strstr(line, "BUG: sleeping function called from invalid context")) &&
			   (!next || m < next)) {
			rl_trace("%s: sleeping function called from invalid context: in_atomic() %ld, preempt_count %ld, RCU nest depth %ld",
				 step, rl_rep_field(m, "in_atomic(): "), rl_rep_field(m, "preempt_count: "),
				 rl_rep_field(m, "RCU nest depth: "));
		} else if ((m = strstr(line, "Disabling lock debugging due to kernel taint")) &&
			   (!next || m < next)) {
			rl_trace("%s: lockdep: disabled by the taint", step);
		} else {
			const char *marks[] = { "BUG: ", "WARNING: ", "INFO: " };
			int i;

			for (i = 0; i < (int)ARRAY_SIZE(marks); i++) {
				m = strstr(line, marks[i]);
				if (m && (!next || m < next)) {
					rl_trace("%s: %.*s", step, rl_rep_line_len(m), m);
					break;
				}
			}
			if (i == (int)ARRAY_SIZE(marks))
				continue;
		}
		found++;
	}
	if (!found)
		rl_trace("%s: no report", step);
}

#endif /* RECLAIM_LAB_KUNIT_REPORTS_H */
