/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario "kunit-lru-batch": the lru-batch scene's operations one after
 * another on one CPU, over the project's port of the 2018 lru_lock RFC
 * (mm/lru_batch.c on branch lru-batch-locks, not upstream code), for the
 * kernel built from that branch to referee. Compiled twice:
 * wasm/scenarios/kunit_lru_batch.c in the simulation (variant lru-batch),
 * and kernel-tree/kunit/reclaim_lab_kunit.c inside User-Mode Linux, where
 * run.sh builds mm/lru_batch.c into the kernel.
 *
 * In each mode (one lru_lock, batch locks, batch locks with splicing):
 * page_fault1's pages onto the LRU through pagevecs of LRU_BATCH_MAX, a
 * partial one, pages added one by one at the tail and at the head; one
 * inner page and one sentinel taken off with lru_batch_del(); then
 * release_pages() of part of the mapping and of all of it. After each
 * step the list as batches, head first: each batch's tag, its pages and
 * which of them are sentinels ("*"); then lru_batch_check() under
 * lru_lock_all(). New batches' tags come from a generator in this file
 * (splitmix64, seeded with 1), the same in both harnesses.
 *
 * The harness defines rl_trace(fmt, ...) and includes <linux/lru_batch.h>.
 */
#ifndef RECLAIM_LAB_KUNIT_LRU_BATCH_BODY_H
#define RECLAIM_LAB_KUNIT_LRU_BATCH_BODY_H

#define RL_LB_PAGES 48
#define RL_LB_LINE 160

static u64 rl_lb_state;

/* splitmix64: new batches' tags */
static unsigned int rl_lb_next_tag(void)
{
	u64 z = (rl_lb_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned int)(z ^ (z >> 31));
}

/* The list, head first, one line per batch: "batch tag=7: *47 46-41 *40". */
static void rl_lb_print(struct lb_lruvec *lruvec, const char *what)
{
	struct list_head *head = lru_head(lruvec), *pos = head->next;
	char line[RL_LB_LINE];

	rl_trace("lru after %s: %ld pages", what, atomic_long_read(&lruvec->nr_pages));
	while (pos != head) {
		struct lb_page *p = list_entry(pos, struct lb_page, lru), *start = NULL, *prev = NULL;
		unsigned int tag = p->lru_batch;
		int len = snprintf(line, sizeof(line), "batch tag=%u:", tag);

		/* runs of consecutive ids, up or down; a sentinel always stands alone */
		for (; pos != head && len < (int)sizeof(line) - 24; pos = pos->next) {
			p = list_entry(pos, struct lb_page, lru);
			if (p->lru_batch != tag)
				break;
			if (start && !p->lru_sentinel && !prev->lru_sentinel &&
			    (p->id == prev->id + 1 || p->id + 1 == prev->id) &&
			    (prev == start || (p->id > prev->id) == (prev->id > start->id))) {
				prev = p;
				continue;
			}
			if (prev && prev != start)
				len += snprintf(line + len, sizeof(line) - len, "-%lu", prev->id);
			len += snprintf(line + len, sizeof(line) - len, " %s%lu",
					p->lru_sentinel ? "*" : "", p->id);
			start = prev = p;
		}
		if (prev && prev != start)
			snprintf(line + len, sizeof(line) - len, "-%lu", prev->id);
		rl_trace("%s", line);
	}
}

static void rl_lb_check(struct lb_lruvec *lruvec)
{
	const char *why = "";
	int ret;

	lru_lock_all(lruvec);
	ret = lru_batch_check(lruvec, &why);
	lru_unlock_all(lruvec);
	rl_trace("lru_batch_check -> %d%s%s", ret, ret ? ": " : "", ret ? why : "");
}

static int rl_lb_run(void)
{
	static const char *const modes[] = { "lru_lock", "batch", "splice" };
	struct lb_lruvec *lruvec = kzalloc(sizeof(*lruvec), GFP_KERNEL);
	struct lb_page **pages = kcalloc(RL_LB_PAGES, sizeof(*pages), GFP_KERNEL);
	int mode, i, n, err = -ENOMEM;

	rl_trace("scenario kunit-lru-batch");
	if (!lruvec || !pages)
		goto out;
	for (i = 0; i < RL_LB_PAGES; i++) {
		pages[i] = kzalloc(sizeof(*pages[i]), GFP_KERNEL);
		if (!pages[i])
			goto out;
		pages[i]->id = i;
	}
	rl_lb_state = 1;
	for (mode = LRU_MODE_LRU_LOCK; mode <= LRU_MODE_SPLICE; mode++) {
		struct lb_page *inner = NULL, *sentinel = NULL;
		struct list_head *pos;

		rl_trace("mode %s", modes[mode]);
		lru_batch_init(lruvec, mode, rl_lb_next_tag);
		/* page_fault1: faults fill a pagevec; full ones, then the last partial one, go on */
		for (i = 0; i < 34; i += n) {
			n = min(LRU_BATCH_MAX, 34 - i);
			lru_batch_add_pagevec(lruvec, pages + i, n);
			rl_trace("add_pagevec %d-%d", i, i + n - 1);
		}
		for (i = 34; i < 40; i++)
			lru_batch_add(lruvec, pages[i], true);
		rl_trace("add at the tail 34-39");
		for (i = 40; i < RL_LB_PAGES; i++)
			lru_batch_add(lruvec, pages[i], false);
		rl_trace("add at the head 40-%d", RL_LB_PAGES - 1);
		rl_lb_print(lruvec, "adding");
		rl_lb_check(lruvec);

		/* the first inner page and the second sentinel from the head */
		n = 0;
		for (pos = lru_head(lruvec)->next; pos != lru_head(lruvec); pos = pos->next) {
			struct lb_page *p = list_entry(pos, struct lb_page, lru);

			if (!p->lru_sentinel && !inner)
				inner = p;
			if (p->lru_sentinel && ++n == 2)
				sentinel = p;
		}
		if (inner) {
			rl_trace("del %lu (inner)", inner->id);
			lru_batch_del(lruvec, inner);
		}
		if (sentinel) {
			rl_trace("del %lu (sentinel)", sentinel->id);
			lru_batch_del(lruvec, sentinel);
		}
		rl_lb_print(lruvec, "del");
		rl_lb_check(lruvec);

		n = lru_batch_release_pages(lruvec, pages, 24);
		rl_trace("release_pages 0-23 -> %d", n);
		rl_lb_print(lruvec, "release_pages");
		rl_lb_check(lruvec);
		n = lru_batch_release_pages(lruvec, pages, RL_LB_PAGES);
		rl_trace("release_pages 0-%d -> %d", RL_LB_PAGES - 1, n);
		rl_lb_print(lruvec, "release_pages");
		rl_lb_check(lruvec);
	}
	err = 0;
out:
	if (pages)
		for (i = 0; i < RL_LB_PAGES; i++)
			kfree(pages[i]);
	kfree(pages);
	kfree(lruvec);
	rl_trace("done: %d", err);
	return err;
}

#endif /* RECLAIM_LAB_KUNIT_LRU_BATCH_BODY_H */
