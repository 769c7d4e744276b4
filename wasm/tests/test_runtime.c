// SPDX-License-Identifier: GPL-2.0-only
/*
 * Litmus tests of the simulated machine's primitives, driven directly
 * through the runtime API (no kernel code): each sets up tasks on CPUs,
 * runs them to the end and checks what they saw.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../runtime/runtime.h"
#include "../runtime/choice.h"
#include "../runtime/footprint.h"
#include "../lab/lab.h"

static int boot_with(int cpus, uint64_t seed, int policy, const unsigned char *sched, size_t n)
{
	struct sim_config cfg = { .nr_cpus = cpus, .nr_nodes = 1, .seed = seed, .policy = policy,
				  .schedule = sched, .schedule_len = n };

	return sim_init(&cfg);
}

static int boot(int cpus, uint64_t seed)
{
	return boot_with(cpus, seed, SIM_POLICY_TIMED, NULL, 0);
}

static size_t count_kind(int kind)
{
	size_t n, i, c = 0;
	const struct sim_event *e = sim_log(&n);

	for (i = 0; i < n; i++)
		c += e[i].kind == kind;
	return c;
}

static void spin_for(int steps)
{
	while (steps--)
		sim_step(SIM_SITE(), SIM_COST_ATOMIC);
}

/* ---- RCU: a reader keeps an object alive across a concurrent call_rcu() -- */

static volatile int reader_in, cb_ran, cb_ran_inside, violations;
/* Stands for an rcu_head inside an object; the runtime never looks inside. */
static struct callback_head { void *next, *func; } rcu_head_obj;

static void note_cb(struct callback_head *h)
{
	cb_ran = 1;
	cb_ran_inside = reader_in;
}

static void reader(void *arg)
{
	sim_rcu_read_lock(SIM_SITE());
	reader_in = 1;
	for (int i = 0; i < 50; i++) {
		if (cb_ran)
			violations++;
		sim_step(SIM_SITE(), SIM_COST_ATOMIC);
	}
	reader_in = 0;
	sim_rcu_read_unlock(SIM_SITE());
	sim_cond_resched(SIM_SITE());
}

static void updater(void *arg)
{
	while (!reader_in)
		sim_step(SIM_SITE(), SIM_COST_ATOMIC);
	sim_call_rcu(&rcu_head_obj, note_cb, SIM_SITE_EXPR("note_cb"));
}

TEST(rcu_reader_outlives_call_rcu)
{
	reader_in = cb_ran = cb_ran_inside = violations = 0;
	ASSERT_EQ(boot(2, 1), 0);
	sim_spawn(0, "reader", reader, NULL);
	sim_spawn(1, "updater", updater, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_TRUE(cb_ran);
	ASSERT_EQ(cb_ran_inside, 0);
	ASSERT_EQ(violations, 0);
	ASSERT_TRUE(count_kind(SIM_EV_RCU_GP_END) >= 1);
	sim_fini();
	return 0;
}

/* ---- synchronize_rcu() waits for every CPU, including a busy one -------- */

static volatile int busy_done_resched, sync_returned_after;

static void busy_cpu(void *arg)
{
	/* No quiescent state for a long while: the grace period must wait. */
	spin_for(300);
	busy_done_resched = 1;
	sim_cond_resched(SIM_SITE());
}

static void syncer(void *arg)
{
	spin_for(5);
	sim_synchronize_rcu(SIM_SITE());
	sync_returned_after = busy_done_resched;
}

TEST(grace_period_waits_for_every_cpu)
{
	busy_done_resched = sync_returned_after = 0;
	ASSERT_EQ(boot(3, 7), 0);
	sim_spawn(0, "busy", busy_cpu, NULL);
	sim_spawn(1, "syncer", syncer, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(sync_returned_after, 1);
	sim_fini();
	return 0;
}

/* ---- completions put the waiter to sleep until complete() --------------- */

static unsigned int done_count;
static struct sim_waitq done_wq;
static volatile int work_finished, waiter_saw;

static void completer(void *arg)
{
	spin_for(40);
	work_finished = 1;
	sim_complete(&done_count, &done_wq, 0, SIM_SITE());
}

static void waiter(void *arg)
{
	sim_wait_for_completion(&done_count, &done_wq, SIM_SITE());
	waiter_saw = work_finished;
}

TEST(completion_blocks_until_complete)
{
	work_finished = waiter_saw = 0;
	ASSERT_EQ(boot(2, 3), 0);
	sim_completion_init(&done_count, &done_wq, SIM_SITE());
	sim_spawn(0, "completer", completer, NULL);
	sim_spawn(1, "waiter", waiter, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(waiter_saw, 1);
	ASSERT_TRUE(count_kind(SIM_EV_TASK_BLOCK) >= 1);
	ASSERT_TRUE(count_kind(SIM_EV_TASK_WAKE) >= 1);
	sim_fini();
	return 0;
}

/* ---- mutual exclusion: mutexes and spinlocks --------------------------- */

static struct sim_lock the_lock;
static volatile int inside, max_inside, counter;

static void critical(int use_mutex)
{
	for (int i = 0; i < 5; i++) {
		if (use_mutex)
			sim_mutex_lock(&the_lock, SIM_SITE());
		else
			sim_spin_lock(&the_lock, SIM_SITE());
		inside++;
		if (inside > max_inside)
			max_inside = inside;
		{
			int c = counter;	/* a racy increment, made safe by the lock */

			spin_for(3);
			counter = c + 1;
		}
		inside--;
		if (use_mutex)
			sim_mutex_unlock(&the_lock, SIM_SITE());
		else
			sim_spin_unlock(&the_lock, SIM_SITE());
	}
}

static void mutex_user(void *arg) { critical(1); }
static void spin_user(void *arg) { critical(0); }

static int exclusion(int use_mutex)
{
	inside = max_inside = counter = 0;
	ASSERT_EQ(boot(4, 11), 0);
	sim_lock_init(&the_lock, "the_lock", use_mutex ? SIM_LOCK_MUTEX : SIM_LOCK_SPIN, SIM_SITE());
	for (int cpu = 0; cpu < 4; cpu++)
		sim_spawn(cpu, "user", use_mutex ? mutex_user : spin_user, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(counter, 20);
	ASSERT_EQ(max_inside, 1);
	ASSERT_TRUE(count_kind(SIM_EV_LOCK_CONTEND) >= 1);
	sim_fini();
	return 0;
}

TEST(mutex_excludes) { return exclusion(1); }
TEST(spinlock_excludes) { return exclusion(0); }

/*
 * Spinners wait in line: while the holder runs, their turns are the
 * scheduler's (sim_spin_turn()), and each takes the lock in the order it
 * arrived, no earlier than the holder let go of it.
 */
static int spin_arrived[4], spin_got[4], spin_arrivals, spin_gets, spin_early;
static sim_u64 released_at;

static void spin_holder(void *arg)
{
	sim_spin_lock(&the_lock, SIM_SITE());
	spin_for(200);
	released_at = sim_cpus[0].clock;
	sim_spin_unlock(&the_lock, SIM_SITE());
}

static void spin_waiter(void *arg)
{
	int cpu = (int)(intptr_t)arg;

	spin_for(cpu);		/* after the holder */
	spin_arrived[spin_arrivals++] = cpu;
	sim_spin_lock(&the_lock, SIM_SITE());
	spin_got[spin_gets++] = cpu;
	spin_early += sim_cpus[cpu].clock < released_at;
	spin_for(3);
	sim_spin_unlock(&the_lock, SIM_SITE());
}

TEST(spinners_take_the_lock_in_turn)
{
	spin_arrivals = spin_gets = spin_early = 0;
	released_at = (sim_u64)-1;
	ASSERT_EQ(boot(4, 5), 0);
	sim_lock_init(&the_lock, "the_lock", SIM_LOCK_SPIN, SIM_SITE());
	sim_spawn(0, "holder", spin_holder, NULL);
	for (int cpu = 1; cpu < 4; cpu++)
		sim_spawn(cpu, "waiter", spin_waiter, (void *)(intptr_t)cpu);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(count_kind(SIM_EV_LOCK_CONTEND), 3);
	ASSERT_EQ(spin_gets, 3);
	ASSERT_EQ(spin_early, 0);
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(spin_got[i], spin_arrived[i]);
	sim_fini();
	return 0;
}

/* Two spinlocks taken in opposite orders: both CPUs spin for good. */
static struct sim_lock lock_a, lock_b;

static void ab_user(void *arg)
{
	int ab = arg != NULL;

	sim_spin_lock(ab ? &lock_a : &lock_b, SIM_SITE());
	spin_for(5);
	sim_spin_lock(ab ? &lock_b : &lock_a, SIM_SITE());
	sim_spin_unlock(ab ? &lock_b : &lock_a, SIM_SITE());
	sim_spin_unlock(ab ? &lock_a : &lock_b, SIM_SITE());
}

TEST(spin_deadlock_is_reported)
{
	ASSERT_EQ(boot(2, 1), 0);
	sim_lock_init(&lock_a, "lock_a", SIM_LOCK_SPIN, SIM_SITE());
	sim_lock_init(&lock_b, "lock_b", SIM_LOCK_SPIN, SIM_SITE());
	sim_spawn(0, "ab", ab_user, (void *)1);
	sim_spawn(1, "ba", ab_user, NULL);
	ASSERT_EQ(sim_run(), SIM_DEADLOCK);
	ASSERT_EQ(count_kind(SIM_EV_LOCK_CONTEND), 2);
	sim_fini();
	return 0;
}

/* ---- a sleeper nobody wakes is reported, not hung on ------------------ */

static unsigned int never_count;
static struct sim_waitq never_wq;

static void sleeper(void *arg)
{
	sim_wait_for_completion(&never_count, &never_wq, SIM_SITE());
}

TEST(deadlock_is_reported)
{
	ASSERT_EQ(boot(2, 1), 0);
	sim_completion_init(&never_count, &never_wq, SIM_SITE());
	sim_spawn(1, "sleeper", sleeper, NULL);
	ASSERT_EQ(sim_run(), SIM_DEADLOCK);
	sim_fini();
	return 0;
}

/* ---- memory: ids, poisoning and a double free as a BUG ---------------- */

static void double_free(void *arg)
{
	void *p = sim_kmalloc(32, 1, -1, SIM_SITE());

	sim_kfree(p, SIM_SITE());
	sim_kfree(p, SIM_SITE());	/* BUG: the CPU stops here */
	violations++;
}

TEST(double_free_is_a_bug)
{
	violations = 0;
	ASSERT_EQ(boot(2, 1), 0);
	sim_spawn(0, "bad", double_free, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(violations, 0);
	ASSERT_EQ(count_kind(SIM_EV_BUG), 1);
	ASSERT_EQ(sim_live_objects(), 0);
	sim_fini();
	return 0;
}

/* ---- memory: reparenting moves exactly the memcg's live objects -------- */

static char memcgs[4][64];	/* stand-ins: only their addresses matter */

static void charge_and_reparent(void *arg)
{
	void *a[6], *b[3], *none;
	int i;

	for (i = 0; i < 6; i++) {
		sim_set_alloc_memcg(memcgs[i % 2]);	/* 0, 1, 0, 1, 0, 1 */
		a[i] = sim_kmalloc(40, 1, -1, SIM_SITE());
	}
	sim_set_alloc_memcg(memcgs[2]);
	for (i = 0; i < 3; i++)
		b[i] = sim_kmalloc(100, 1, -1, SIM_SITE());
	sim_set_alloc_memcg(NULL);
	none = sim_kmalloc(8, 1, -1, SIM_SITE());
	/* freed objects leave their memcg's list: the first, a middle and the last made */
	sim_kfree(a[4], SIM_SITE());
	sim_kfree(a[0], SIM_SITE());
	sim_kfree(b[1], SIM_SITE());
	sim_slab_recharge(memcgs[0], memcgs[1]);	/* a[2] goes to memcg 1 */
	for (i = 1; i < 6; i++)
		if (i != 4 && sim_obj_memcg(a[i]) != memcgs[1])
			violations++;
	sim_slab_recharge(memcgs[1], memcgs[3]);	/* then all of a[] to memcg 3 */
	sim_slab_recharge(memcgs[0], memcgs[2]);	/* memcg 0 has none left */
	for (i = 1; i < 6; i++)
		if (i != 4 && sim_obj_memcg(a[i]) != memcgs[3])
			violations++;
	if (sim_obj_memcg(b[0]) != memcgs[2] || sim_obj_memcg(b[2]) != memcgs[2] || sim_obj_memcg(none))
		violations++;
	sim_slab_recharge(memcgs[3], memcgs[2]);	/* a[] onto memcg 2's list, then all of it back */
	sim_kfree(a[2], SIM_SITE());
	sim_slab_recharge(memcgs[2], memcgs[0]);
	for (i = 1; i < 6; i++)
		if (i != 4 && i != 2 && sim_obj_memcg(a[i]) != memcgs[0])
			violations++;
	if (sim_obj_memcg(b[0]) != memcgs[0] || sim_obj_memcg(b[2]) != memcgs[0])
		violations++;
	for (i = 1; i < 6; i++)
		if (i != 4 && i != 2)
			sim_kfree(a[i], SIM_SITE());
	sim_kfree(b[0], SIM_SITE());
	sim_kfree(b[2], SIM_SITE());
	sim_kfree(none, SIM_SITE());
}

TEST(reparenting_moves_the_memcgs_live_objects)
{
	violations = 0;
	ASSERT_EQ(boot(2, 1), 0);
	sim_spawn(0, "memcg", charge_and_reparent, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(violations, 0);
	ASSERT_EQ(count_kind(SIM_EV_BUG), 0);
	ASSERT_EQ(sim_live_objects(), 0);
	sim_fini();
	return 0;
}

/* ---- determinism: the same seed gives the same log --------------------- */

static uint64_t log_hash(void)
{
	size_t n;
	const struct sim_event *e = sim_log(&n);

	return lab_fnv1a(LAB_FNV_INIT, e, n * sizeof(*e));
}

static uint64_t run_mix(uint64_t seed)
{
	uint64_t h;

	inside = max_inside = counter = 0;
	reader_in = cb_ran = 0;
	boot(4, seed);
	sim_lock_init(&the_lock, "the_lock", SIM_LOCK_MUTEX, SIM_SITE());
	sim_spawn(0, "reader", reader, NULL);
	sim_spawn(1, "updater", updater, NULL);
	sim_spawn(2, "user", mutex_user, NULL);
	sim_spawn(3, "user", mutex_user, NULL);
	sim_run();
	h = log_hash();
	sim_fini();
	return h;
}

TEST(same_seed_same_log)
{
	ASSERT_EQ(run_mix(42), run_mix(42));
	ASSERT_TRUE(run_mix(42) != run_mix(43));
	return 0;
}

/* ---- schedules: recorded, replayed, followed by any policy -------------- */

static uint64_t run_mix_with(uint64_t seed, int policy, const unsigned char *sched, size_t n,
			     unsigned char **recorded, size_t *nrec)
{
	size_t nd, i;
	const struct sim_decision *d;
	uint64_t h;

	inside = max_inside = counter = 0;
	reader_in = cb_ran = 0;
	boot_with(4, seed, policy, sched, n);
	sim_lock_init(&the_lock, "the_lock", SIM_LOCK_SPIN, SIM_SITE());
	sim_spawn(0, "reader", reader, NULL);
	sim_spawn(1, "updater", updater, NULL);
	sim_spawn(2, "user", spin_user, NULL);
	sim_spawn(3, "user", spin_user, NULL);
	sim_run();
	h = log_hash();
	if (recorded) {
		d = sim_decisions(&nd);
		*recorded = malloc(nd + 1);
		for (i = 0; i < nd; i++)
			(*recorded)[i] = d[i].cpu;
		*nrec = nd;
	}
	sim_fini();
	return h;
}

TEST(a_recorded_schedule_replays_under_any_policy)
{
	for (int p = 0; p < SIM_NR_POLICIES; p++) {
		unsigned char *rec;
		size_t n;
		uint64_t h = run_mix_with(9, p, NULL, 0, &rec, &n);

		ASSERT_TRUE(n > 10);
		for (int q = 0; q < SIM_NR_POLICIES; q++)
			ASSERT_EQ(run_mix_with(9, q, rec, n, NULL, NULL), h);
		free(rec);
	}
	return 0;
}

TEST(round_robin_takes_turns)
{
	size_t nd, i;
	const struct sim_decision *d;

	inside = max_inside = counter = 0;
	ASSERT_EQ(boot_with(4, 1, SIM_POLICY_RR, NULL, 0), 0);
	sim_lock_init(&the_lock, "the_lock", SIM_LOCK_MUTEX, SIM_SITE());
	for (int cpu = 0; cpu < 4; cpu++)
		sim_spawn(cpu, "user", mutex_user, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(counter, 20);
	d = sim_decisions(&nd);
	for (i = 0; i < nd; i++) {
		/* the next runnable CPU after the one that ran last, cyclically */
		int want = -1;

		for (int k = 1; k <= 4; k++) {
			int c = (d[i].from + k) % 4;

			if (d[i].runnable & (1ULL << c)) {
				want = c;
				break;
			}
		}
		ASSERT_EQ(d[i].cpu, want);
	}
	sim_fini();
	return 0;
}

TEST(a_manual_prefix_is_followed_then_the_policy_decides)
{
	/* A person plays the scheduler: CPU3 six times, then CPU2 twice. */
	static const unsigned char manual[] = { 3, 3, 3, 3, 3, 3, 2, 2 };
	size_t nd;
	const struct sim_decision *d;

	inside = max_inside = counter = 0;
	reader_in = cb_ran = 0;
	ASSERT_EQ(boot_with(4, 2, SIM_POLICY_TIMED, manual, sizeof(manual)), 0);
	sim_lock_init(&the_lock, "the_lock", SIM_LOCK_SPIN, SIM_SITE());
	for (int cpu = 0; cpu < 4; cpu++)
		sim_spawn(cpu, "user", spin_user, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	d = sim_decisions(&nd);
	ASSERT_TRUE(nd > sizeof(manual));
	for (size_t i = 0; i < sizeof(manual); i++)
		ASSERT_EQ(d[i].cpu, manual[i]);
	ASSERT_EQ(sim_schedule_diverged_at(), -1);
	ASSERT_EQ(counter, 20);
	sim_fini();
	return 0;
}

TEST(an_impossible_choice_is_reported_and_the_policy_takes_over)
{
	/* CPU1's task ends early; the schedule keeps asking for it. */
	static unsigned char manual[4000];
	long at;

	memset(manual, 1, sizeof(manual));
	ASSERT_EQ(boot_with(3, 2, SIM_POLICY_TIMED, manual, sizeof(manual)), 0);
	sim_completion_init(&done_count, &done_wq, SIM_SITE());
	sim_spawn(0, "busy", busy_cpu, NULL);
	sim_spawn(1, "short", completer, NULL);
	sim_spawn(2, "busy", busy_cpu, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	at = sim_schedule_diverged_at();
	ASSERT_TRUE(at > 0 && at < (long)sizeof(manual));
	sim_fini();
	return 0;
}

/* ---- choice points (choice.h) ------------------------------------------- */

static int chose[2], key_noted;
static int choice_key;

static void chooser_task(void *arg)
{
	static const unsigned int cost[3] = { 0, 1, 2 };

	chose[0] = sim_choose(SIM_CHOICE_LITMUS, 3, cost, &choice_key);
	sim_step(SIM_SITE(), SIM_COST_ATOMIC);
	chose[1] = sim_choose(SIM_CHOICE_LITMUS, 2, NULL, &choice_key);
}

/* A searcher's chooser: alternative 2, then 1; it checks the step's footprint holds the key, written. */
static int test_chooser(void *ctx, const struct sim_choice_point *cp)
{
	static uint32_t fp[SIM_FP_MAX];
	uint32_t n = sim_fp_close(fp, SIM_FP_MAX), i, want = (uint32_t)((uintptr_t)&choice_key >> 3) << 1 | 1;

	for (i = 0; i < n && n != SIM_FP_ALL; i++)
		key_noted += fp[i] == want;
	if (cp->kind == SIM_CHOICE_CPU)
		return __builtin_ctzll(cp->mask);
	return cp->n == 3 ? 2 : 1;
}

static int run_chooser(const unsigned char *sched, const unsigned char *kinds, size_t n)
{
	struct sim_config cfg = { .nr_cpus = 2, .nr_nodes = 1, .seed = 1, .schedule = sched,
				  .schedule_kinds = kinds, .schedule_len = n };

	chose[0] = chose[1] = -1;
	if (sim_init(&cfg))
		return -1;
	sim_spawn(0, "chooser", chooser_task, NULL);
	return sim_run();
}

TEST(a_choice_point_is_recorded_replayed_and_noted)
{
	static const unsigned char alt[] = { 1, 0 }, kind[] = { SIM_CHOICE_LITMUS, SIM_CHOICE_LITMUS };
	static const unsigned char cpu_kind[] = { SIM_CHOICE_CPU };
	size_t nd;
	const struct sim_decision *d;

	/* Nobody decides: the default, recorded with its kind. */
	ASSERT_EQ(run_chooser(NULL, NULL, 0), SIM_DONE);
	ASSERT_EQ(chose[0], 0);
	ASSERT_EQ(chose[1], 0);
	d = sim_decisions(&nd);
	ASSERT_EQ(nd, 2);
	ASSERT_EQ(d[0].kind, SIM_CHOICE_LITMUS);
	ASSERT_EQ(d[0].runnable, 7);
	sim_fini();
	/* A searcher decides; the key is in the footprint of the step each choice ends, as a write. */
	sim_set_chooser(test_chooser, NULL);
	sim_fp_on = 1;
	key_noted = 0;
	ASSERT_EQ(run_chooser(NULL, NULL, 0), SIM_DONE);
	sim_fp_on = 0;
	sim_set_chooser(NULL, NULL);
	ASSERT_EQ(chose[0], 2);
	ASSERT_EQ(chose[1], 1);
	ASSERT_EQ(key_noted, 2);
	d = sim_decisions(&nd);
	ASSERT_EQ(nd, 2);
	ASSERT_EQ(d[0].cpu, 2);
	ASSERT_EQ(d[1].cpu, 1);
	sim_fini();
	/* A schedule replays them; one of the wrong kind is followed no further. */
	ASSERT_EQ(run_chooser(alt, kind, 2), SIM_DONE);
	ASSERT_EQ(chose[0], 1);
	ASSERT_EQ(chose[1], 0);
	ASSERT_EQ(sim_schedule_diverged_at(), -1);
	sim_fini();
	ASSERT_EQ(run_chooser(alt, cpu_kind, 1), SIM_DONE);
	ASSERT_EQ(chose[0], 0);
	ASSERT_EQ(sim_schedule_diverged_at(), 0);
	sim_fini();
	return 0;
}

/* ---- rw_semaphore: a waiting writer blocks new readers ------------------ */

static struct sim_rwsem rwsem;
static volatile int trylock_failed, late_reader_after_writer, writer_done, contended_seen;

static void long_reader(void *arg)
{
	sim_down_read(&rwsem, SIM_SITE());
	spin_for(80);
	sim_up_read(&rwsem, SIM_SITE());
}

static void writer(void *arg)
{
	spin_for(10);
	sim_down_write(&rwsem, SIM_SITE());
	spin_for(20);
	writer_done = 1;
	sim_up_write(&rwsem, SIM_SITE());
}

static void late_reader(void *arg)
{
	spin_for(30);	/* the writer is queued by now */
	contended_seen = sim_rwsem_is_contended(&rwsem, SIM_SITE());
	trylock_failed = !sim_down_read_trylock(&rwsem, SIM_SITE());
	sim_down_read(&rwsem, SIM_SITE());
	late_reader_after_writer = writer_done;
	sim_up_read(&rwsem, SIM_SITE());
}

TEST(rwsem_waiting_writer_blocks_new_readers)
{
	writer_done = trylock_failed = late_reader_after_writer = contended_seen = 0;
	ASSERT_EQ(boot(3, 4), 0);
	sim_rwsem_init(&rwsem, "rwsem", SIM_SITE());
	sim_spawn(0, "reader", long_reader, NULL);
	sim_spawn(1, "writer", writer, NULL);
	sim_spawn(2, "late", late_reader, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(contended_seen, 1);
	ASSERT_EQ(trylock_failed, 1);
	ASSERT_EQ(late_reader_after_writer, 1);
	ASSERT_TRUE(count_kind(SIM_EV_LOCK_TRYFAIL) == 1);
	sim_fini();
	return 0;
}

static volatile int in_together, max_together;

static void queued_reader(void *arg)
{
	spin_for(30);	/* the writer has the lock by now */
	sim_down_read(&rwsem, SIM_SITE());
	in_together++;
	if (in_together > max_together)
		max_together = in_together;
	spin_for(400);	/* long enough for the others' wake-ups to land */
	in_together--;
	sim_up_read(&rwsem, SIM_SITE());
}

static void holding_writer(void *arg)
{
	sim_down_write(&rwsem, SIM_SITE());
	spin_for(60);
	sim_up_write(&rwsem, SIM_SITE());
}

TEST(rwsem_lets_waiting_readers_in_together)
{
	in_together = max_together = 0;
	ASSERT_EQ(boot(4, 4), 0);
	sim_rwsem_init(&rwsem, "rwsem", SIM_SITE());
	sim_spawn(0, "writer", holding_writer, NULL);
	for (int cpu = 1; cpu < 4; cpu++)
		sim_spawn(cpu, "reader", queued_reader, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(max_together, 3);
	sim_fini();
	return 0;
}

/* ---- SRCU: synchronize_srcu() waits only for readers of the old index --- */

static struct sim_srcu srcu;
static volatile int old_reader_out, new_reader_out, sync_saw_old_out, sync_saw_new_out, new_idx;

static void old_reader(void *arg)
{
	int idx = sim_srcu_read_lock(&srcu, SIM_SITE());

	spin_for(60);
	old_reader_out = 1;
	sim_srcu_read_unlock(&srcu, idx, SIM_SITE());
}

static void synchronizer(void *arg)
{
	spin_for(5);
	sim_synchronize_srcu(&srcu, SIM_SITE());
	sync_saw_old_out = old_reader_out;
	sync_saw_new_out = new_reader_out;
}

static void new_reader(void *arg)
{
	int idx;

	spin_for(20);	/* after the flip */
	idx = sim_srcu_read_lock(&srcu, SIM_SITE());
	new_idx = idx;
	spin_for(3000);
	new_reader_out = 1;
	sim_srcu_read_unlock(&srcu, idx, SIM_SITE());
}

TEST(synchronize_srcu_waits_only_for_the_old_index)
{
	old_reader_out = new_reader_out = sync_saw_old_out = sync_saw_new_out = 0;
	new_idx = -1;
	ASSERT_EQ(boot(3, 6), 0);
	sim_srcu_init(&srcu, "test_srcu");
	sim_spawn(0, "old", old_reader, NULL);
	sim_spawn(1, "sync", synchronizer, NULL);
	sim_spawn(2, "new", new_reader, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(new_idx, 1);
	ASSERT_EQ(sync_saw_old_out, 1);
	ASSERT_EQ(sync_saw_new_out, 0);
	ASSERT_EQ(count_kind(SIM_EV_SRCU_GP_END), 1);
	sim_fini();
	return 0;
}

/* ---- reports ---------------------------------------------------------------- */

static struct sim_lock lock_a, lock_b;
static int ab_line, ba_line, sleep_line, rcu_line;

static int find_report(int type, const char **text)
{
	for (int i = 0; i < sim_nr_reports(); i++) {
		int ty, ev;
		const char *title;

		sim_report_info(i, &ty, &ev, &title, text);
		if (ty == type)
			return i;
	}
	return -1;
}

static void ab(void *arg)
{
	sim_mutex_lock(&lock_a, SIM_SITE());
	ab_line = __LINE__ + 1;
	sim_mutex_lock(&lock_b, SIM_SITE());
	sim_mutex_unlock(&lock_b, SIM_SITE());
	sim_mutex_unlock(&lock_a, SIM_SITE());
}

static void ba(void *arg)
{
	spin_for(200);	/* after ab() is done: no deadlock happens, lockdep still sees it */
	sim_mutex_lock(&lock_b, SIM_SITE());
	ba_line = __LINE__ + 1;
	sim_mutex_lock(&lock_a, SIM_SITE());
	sim_mutex_unlock(&lock_a, SIM_SITE());
	sim_mutex_unlock(&lock_b, SIM_SITE());
}

TEST(lockdep_reports_a_lock_order_inversion_with_both_chains)
{
	const char *text;
	char line[64];

	ASSERT_EQ(boot(2, 1), 0);
	sim_lock_init(&lock_a, "lock_a", SIM_LOCK_MUTEX, SIM_SITE());
	sim_lock_init(&lock_b, "lock_b", SIM_LOCK_MUTEX, SIM_SITE());
	sim_spawn(0, "ab", ab, NULL);
	sim_spawn(1, "ba", ba, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_TRUE(find_report(SIM_REPORT_LOCKDEP, &text) >= 0);
	ASSERT_TRUE(strstr(text, "possible circular locking dependency detected") != NULL);
	ASSERT_TRUE(strstr(text, "ba/") && strstr(text, "is trying to acquire lock:\n  (lock_a)"));
	/* both chains name their lines in this file: ab() took b holding a, ba() a holding b */
	snprintf(line, sizeof(line), "test_runtime.c:%d ab()", ab_line);
	ASSERT_TRUE(strstr(text, line) != NULL);
	snprintf(line, sizeof(line), "test_runtime.c:%d ba()", ba_line);
	ASSERT_TRUE(strstr(text, line) != NULL);
	sim_fini();
	return 0;
}

static void sleeps_in_rcu(void *arg)
{
	rcu_line = __LINE__ + 1;
	sim_rcu_read_lock(SIM_SITE());
	sleep_line = __LINE__ + 1;
	sim_mutex_lock(&lock_a, SIM_SITE());	/* BUG: might sleep inside rcu_read_lock() */
	sim_mutex_unlock(&lock_a, SIM_SITE());
	sim_rcu_read_unlock(SIM_SITE());
}

TEST(sleeping_inside_rcu_read_lock_is_reported)
{
	const char *text;
	char line[80];

	ASSERT_EQ(boot(1, 1), 0);
	sim_lock_init(&lock_a, "lock_a", SIM_LOCK_MUTEX, SIM_SITE());
	sim_spawn(0, "sleeper", sleeps_in_rcu, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_TRUE(find_report(SIM_REPORT_SLEEP_IN_ATOMIC, &text) >= 0);
	snprintf(line, sizeof(line), "called from invalid context at wasm/tests/test_runtime.c:%d", sleep_line);
	ASSERT_TRUE(strstr(text, line) != NULL);
	ASSERT_TRUE(strstr(text, "RCU nest depth: 1, expected: 0") != NULL);
	snprintf(line, sizeof(line), "rcu_read_lock() taken at wasm/tests/test_runtime.c:%d", rcu_line);
	ASSERT_TRUE(strstr(text, line) != NULL);
	sim_fini();
	return 0;
}

static void srcu_sleeper(void *arg)
{
	int idx = sim_srcu_read_lock(&srcu, SIM_SITE());

	sim_mutex_lock(&lock_a, SIM_SITE());	/* fine: SRCU readers may sleep */
	sim_mutex_unlock(&lock_a, SIM_SITE());
	sim_srcu_read_unlock(&srcu, idx, SIM_SITE());
}

TEST(srcu_readers_may_sleep)
{
	const char *text;

	ASSERT_EQ(boot(1, 1), 0);
	sim_srcu_init(&srcu, "test_srcu");
	sim_lock_init(&lock_a, "lock_a", SIM_LOCK_MUTEX, SIM_SITE());
	sim_spawn(0, "srcu", srcu_sleeper, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_EQ(find_report(SIM_REPORT_SLEEP_IN_ATOMIC, &text), -1);
	sim_fini();
	return 0;
}

static void long_holder(void *arg)
{
	sim_mutex_lock(&lock_a, SIM_SITE());
	for (int i = 0; i < 40; i++)
		sim_cond_resched(SIM_SITE());
	spin_for(2000);
	sim_mutex_unlock(&lock_a, SIM_SITE());
}

static void blocked_waiter(void *arg)
{
	spin_for(30);	/* the holder has the lock by now */
	sim_mutex_lock(&lock_a, SIM_SITE());
	sim_mutex_unlock(&lock_a, SIM_SITE());
}

TEST(a_task_blocked_too_long_is_reported)
{
	struct sim_config cfg = { .nr_cpus = 2, .nr_nodes = 1, .seed = 1, .hung_task_ns = 5000 };
	const char *text;

	ASSERT_EQ(sim_init(&cfg), 0);
	sim_lock_init(&lock_a, "lock_a", SIM_LOCK_MUTEX, SIM_SITE());
	sim_spawn(0, "holder", long_holder, NULL);
	sim_spawn(1, "waiter", blocked_waiter, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	ASSERT_TRUE(find_report(SIM_REPORT_HUNG_TASK, &text) >= 0);
	ASSERT_TRUE(strstr(text, "INFO: task waiter:") != NULL);
	ASSERT_TRUE(strstr(text, "blocked_waiter()") != NULL);
	sim_fini();
	return 0;
}

/* ---- virtual time never runs backwards in the log ---------------------- */

TEST(log_is_in_time_order)
{
	size_t n, i;
	const struct sim_event *e;

	inside = max_inside = counter = 0;
	reader_in = cb_ran = 0;
	ASSERT_EQ(boot(4, 5), 0);
	sim_lock_init(&the_lock, "the_lock", SIM_LOCK_SPIN, SIM_SITE());
	sim_spawn(0, "reader", reader, NULL);
	sim_spawn(1, "updater", updater, NULL);
	sim_spawn(2, "user", spin_user, NULL);
	sim_spawn(3, "user", spin_user, NULL);
	ASSERT_EQ(sim_run(), SIM_DONE);
	e = sim_log(&n);
	for (i = 1; i < n; i++)

		ASSERT_TRUE(e[i].time >= e[i - 1].time);
	sim_fini();
	return 0;
}

int main(void)
{
	static const struct test tests[] = {
		RUN(rcu_reader_outlives_call_rcu),
		RUN(grace_period_waits_for_every_cpu),
		RUN(completion_blocks_until_complete),
		RUN(mutex_excludes),
		RUN(spinlock_excludes),
		RUN(spinners_take_the_lock_in_turn),
		RUN(spin_deadlock_is_reported),
		RUN(deadlock_is_reported),
		RUN(double_free_is_a_bug),
		RUN(reparenting_moves_the_memcgs_live_objects),
		RUN(same_seed_same_log),
		RUN(log_is_in_time_order),
		RUN(a_recorded_schedule_replays_under_any_policy),
		RUN(round_robin_takes_turns),
		RUN(a_manual_prefix_is_followed_then_the_policy_decides),
		RUN(an_impossible_choice_is_reported_and_the_policy_takes_over),
		RUN(a_choice_point_is_recorded_replayed_and_noted),
		RUN(rwsem_waiting_writer_blocks_new_readers),
		RUN(rwsem_lets_waiting_readers_in_together),
		RUN(synchronize_srcu_waits_only_for_the_old_index),
		RUN(lockdep_reports_a_lock_order_inversion_with_both_chains),
		RUN(sleeping_inside_rcu_read_lock_is_reported),
		RUN(srcu_readers_may_sleep),
		RUN(a_task_blocked_too_long_is_reported),
	};

	return run_tests("runtime", tests, sizeof(tests) / sizeof(tests[0]));
}
