/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenarios "kunit-planted" and "kunit-planted-taint": the planted-bugs
 * scene's three bugs, one after another in one task, each after the same
 * step done right, so that the kernel's own checkers can referee the
 * simulated kernel's reports. Compiled twice: by
 * wasm/scenarios/planted_bugs.c in the simulation, where the reports come
 * from the project's runtime (wasm/runtime/reports.c, kasan.c), and by
 * kernel-tree/kunit/reclaim_lab_kunit.c inside User-Mode Linux built with
 * KASAN, PROVE_LOCKING and DEBUG_ATOMIC_SLEEP, where they come from the
 * kernel's KASAN, lockdep and __might_resched(). Like the scene's code,
 * this is project code, not kernel code.
 *
 * Lockdep reports once and then turns itself off, and a KASAN report
 * taints the kernel and turns lockdep off as well, so the order matters
 * and each order needs a boot of its own:
 *
 *   kunit-planted        the scene's order: the lock-order inversion,
 *                        sleeping inside rcu_read_lock(), the
 *                        use-after-free; all three are reported
 *   kunit-planted-taint  the use-after-free first: after its report
 *                        lockdep is off, and the inversion goes unseen
 *
 * After each step the reports it caused are read back as text (the
 * harness's rl_reports_take()) and reduced to what both kernels print the
 * same way: the report's headline, the locks lockdep names, the access and
 * object KASAN describes, the context might_sleep() found. Addresses,
 * pids, stacks and the lines inside the lock and RCU primitives differ and
 * are left out. UML's RCU is preemptible here (CONFIG_PREEMPT), as the
 * simulated kernel's is, so rcu_read_lock() shows as "RCU nest depth", not
 * as a preempt count.
 *
 * The harness defines, before including this file:
 *   rl_trace(fmt, ...)            print one "reclaim_lab: " trace line
 *   rl_reports_skip()             forget what was printed so far
 *   rl_reports_take(buf, size)    the text printed since, NUL-terminated
 *   rl_debug_locks()              lockdep still on
 */
#ifndef RECLAIM_LAB_KUNIT_PLANTED_BODY_H
#define RECLAIM_LAB_KUNIT_PLANTED_BODY_H

#define RL_PL_TEXT 32768	/* a KASAN report with its stacks fits */

struct rl_planted_object {
	int value;
	int pad[7];		/* 32 bytes, a kmalloc-32 object in both kernels */
};

static DEFINE_MUTEX(rl_lock_a);
static DEFINE_MUTEX(rl_lock_b);
static char *rl_pl_text;

/* The decimal number at s, or -1. */
static long rl_pl_number(const char *s)
{
	long n = 0;

	if (!s || *s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++)
		n = n * 10 + (*s - '0');
	return n;
}

/* The number after the first "key" in text, or -1. */
static long rl_pl_field(const char *text, const char *key)
{
	const char *p = text ? strstr(text, key) : NULL;

	return p ? rl_pl_number(p + strlen(key)) : -1;
}

/* The name lockdep prints in parentheses on the line after "what". */
static void rl_pl_lock_name(const char *text, const char *what, char *name, size_t size)
{
	const char *p = strstr(text, what), *open, *close;

	snprintf(name, size, "?");
	if (!p || !(open = strchr(p + strlen(what), '(')) || !(close = strchr(open, ')')))
		return;
	snprintf(name, size, "%.*s", (int)(close - open - 1), open + 1);
}

/* The rest of the line from s, without its end. */
static int rl_pl_line_len(const char *s)
{
	const char *e = strchr(s, '\n');

	return e ? (int)(e - s) : (int)strlen(s);
}

/*
 * One trace line per report found in text, in the order printed; "none"
 * when there is none. A headline this does not know is printed as it
 * stands, so that a report only one kernel makes still shows.
 */
static void rl_pl_reports(const char *step, const char *text)
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
				 rl_pl_field(m, " of size "), rl_pl_field(m, "is located "),
				 rl_pl_field(m, "freed "));
		} else if ((m = strstr(line, "WARNING: possible circular locking dependency detected")) &&
			   (!next || m < next)) {
			char want[48], held[48];

			rl_pl_lock_name(m, "is trying to acquire lock:", want, sizeof(want));
			rl_pl_lock_name(m, "but task is already holding lock:", held, sizeof(held));
			rl_trace("%s: lockdep: possible circular locking dependency: acquiring %s while holding %s",
				 step, want, held);
		} else if ((m = strstr(line, "BUG: sleeping function called from invalid context")) &&
			   (!next || m < next)) {
			rl_trace("%s: sleeping function called from invalid context: in_atomic() %ld, preempt_count %ld, RCU nest depth %ld",
				 step, rl_pl_field(m, "in_atomic(): "), rl_pl_field(m, "preempt_count: "),
				 rl_pl_field(m, "RCU nest depth: "));
		} else if ((m = strstr(line, "Disabling lock debugging due to kernel taint")) &&
			   (!next || m < next)) {
			rl_trace("%s: lockdep: disabled by the taint", step);
		} else {
			const char *marks[] = { "BUG: ", "WARNING: ", "INFO: " };
			int i;

			for (i = 0; i < (int)ARRAY_SIZE(marks); i++) {
				m = strstr(line, marks[i]);
				if (m && (!next || m < next)) {
					rl_trace("%s: %.*s", step, rl_pl_line_len(m), m);
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

static void rl_pl_check(const char *step)
{
	rl_reports_take(rl_pl_text, RL_PL_TEXT);
	rl_pl_reports(step, rl_pl_text);
	rl_reports_skip();	/* not the lines just printed */
}

/* lock_a then lock_b, as a path that always nests them so would */
static void rl_pl_lock_in_order(void)
{
	mutex_lock(&rl_lock_a);
	mutex_lock(&rl_lock_b);
	mutex_unlock(&rl_lock_b);
	mutex_unlock(&rl_lock_a);
}

static void rl_pl_inversion(void)
{
	rl_pl_lock_in_order();
	rl_pl_check("lock_a then lock_b");
	mutex_lock(&rl_lock_b);
	mutex_lock(&rl_lock_a);	/* BUG: lock order inversion */
	mutex_unlock(&rl_lock_a);
	mutex_unlock(&rl_lock_b);
	rl_pl_check("lock_b then lock_a");
}

static void rl_pl_sleep_in_rcu(void)
{
	mutex_lock(&rl_lock_a);
	mutex_unlock(&rl_lock_a);
	rl_pl_check("mutex_lock() outside rcu_read_lock()");
	rcu_read_lock();
	mutex_lock(&rl_lock_a);	/* BUG: sleeping in RCU read-side section */
	mutex_unlock(&rl_lock_a);
	rcu_read_unlock();
	rl_pl_check("mutex_lock() inside rcu_read_lock()");
}

static int rl_pl_use_after_free(void)
{
	struct rl_planted_object *obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	int v;

	if (!obj)
		return -ENOMEM;
	WRITE_ONCE(obj->value, 1);
	v = READ_ONCE(obj->value);
	rl_pl_check("read before kfree()");
	kfree(obj);
	OPTIMIZER_HIDE_VAR(obj);
	v += READ_ONCE(obj->value);	/* BUG: use-after-free */
	rl_pl_check("read after kfree()");
	return v >= 0 ? 0 : -EINVAL;
}

static int rl_planted_run(bool uaf_first)
{
	int err = 0;

	rl_pl_text = kmalloc(RL_PL_TEXT, GFP_KERNEL);
	if (!rl_pl_text)
		return -ENOMEM;
	rl_trace("scenario %s", uaf_first ? "kunit-planted-taint" : "kunit-planted");
	rl_trace("lockdep: %s", rl_debug_locks() ? "on" : "off");
	rl_reports_skip();
	if (uaf_first)
		err = rl_pl_use_after_free();
	rl_pl_inversion();
	rl_pl_sleep_in_rcu();
	if (!uaf_first)
		err = rl_pl_use_after_free();
	rl_trace("lockdep: %s", rl_debug_locks() ? "on" : "off");
	kfree(rl_pl_text);
	rl_pl_text = NULL;
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_PLANTED_BODY_H */
