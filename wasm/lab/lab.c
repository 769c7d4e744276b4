// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running a scenario and describing its events as JSON. See lab.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lab.h"
#include "../runtime/kinds.h"
#include "../runtime/stats.h"
#include "../runtime/strbuf.h"


static unsigned char *schedule_buf, *schedule_kinds;

const struct lab_param_info lab_params[LAB_NR_PARAMS] = {
#define RUN_PARAM(id, to, field, flag, ts, type, max, help) [LAB_P_##id] = { flag, LAB_PARAM_##type, max, help },
#include "../runtime/params.def"
#undef RUN_PARAM
};

int lab_apply_params(const int *v, int n, struct scenario_params *p, struct lab_options *o,
		     char *err, size_t errlen)
{
	int i;

	for (i = 0; i < n && i < LAB_NR_PARAMS; i++)
		if (v[i] < 0 || v[i] > lab_params[i].max) {
			snprintf(err, errlen, "--%s is 0 to %d, not %d", lab_params[i].flag,
				 lab_params[i].max, v[i]);
			return -1;
		}
#define RUN_PARAM_SCENARIO(field) p->field
#define RUN_PARAM_OPTION(field) o->field
#define RUN_PARAM(id, to, field, flag, ts, type, max, help)		\
	if (LAB_P_##id < n && v[LAB_P_##id])				\
		RUN_PARAM_##to(field) = LAB_PARAM_##type == LAB_PARAM_FLAG ? 1 : v[LAB_P_##id];
#include "../runtime/params.def"
#undef RUN_PARAM
	return 0;
}

/* A parameter past its params.def limit, in lab_apply_params()'s words. */
static int out_of_range(const struct scenario_params *p, const struct lab_options *o, char *err, size_t errlen)
{
	int v;

#define RUN_PARAM(id, to, field, flag, ts, type, max, help)		\
	v = RUN_PARAM_##to(field);					\
	if (v < 0 || v > (max)) {					\
		snprintf(err, errlen, "--%s is 0 to %d, not %d", flag, (max), v); \
		return -1;						\
	}
#include "../runtime/params.def"
#undef RUN_PARAM
#undef RUN_PARAM_OPTION
#undef RUN_PARAM_SCENARIO
	return 0;
}

int lab_run(const struct scenario *sc, const struct scenario_params *p,
	    const struct lab_options *o, struct lab_result *res, char *err, size_t errlen)
{
	static struct scenario_params params;
	struct sim_config cfg = {
		.nr_cpus = sc->cpus ? sc->cpus(p) : sc->nr_cpus,
		.nr_nodes = sc->nr_nodes,
		.seed = p->seed,
		.max_events = o->max_events,
		.policy = o->policy,
		.hung_task_ns = o->hung_task_ns ? o->hung_task_ns : sc->hung_task_ns,
		.kasan_panic = sc->kasan_panic,
		.real_gp = p->stress,
		.quiet = o->quiet,
		.max_steps = o->max_steps,
		.no_schedule = o->no_schedule,
		.memory = p->memory,
		.marked_steps = sc->marked_steps,
		.kcsan = p->kcsan,
	};
	int i;

	memset(res, 0, sizeof(*res));
	free(schedule_buf);
	free(schedule_kinds);
	schedule_buf = schedule_kinds = NULL;
	if (o->schedule && *o->schedule &&
	    lab_schedule_decode(o->schedule, cfg.nr_cpus, &schedule_buf, &schedule_kinds, &cfg.schedule_len,
				err, errlen))
		return -1;
	cfg.schedule = schedule_buf;
	cfg.schedule_kinds = schedule_kinds;
	/* The limits of params.def, for every caller (labrun and the bridge check them first). */
	if (out_of_range(p, o, err, errlen))
		return -1;
	if (sc->refuse && sc->refuse(p)) {
		snprintf(err, errlen, "%s", sc->refuse(p));
		return -1;
	}
	if (p->cpus && (!sc->cpus || p->cpus > sc->nr_cpus)) {
		snprintf(err, errlen, sc->cpus ? "%s runs on at most %d CPUs" :
			 "%s runs on %d CPUs: it takes no CPU count", sc->name, sc->nr_cpus);
		return -1;
	}
	params = *p;
	if (sim_init(&cfg) || sim_spawn(0, "init", sc->init, &params) < 0) {
		snprintf(err, errlen, "the simulation could not start");
		return -1;
	}
	res->status = sim_run();
	sim_log(&res->events);
	res->live_objects = sim_live_objects();
	res->steps = sim_total_steps();
	for (i = 0; i < sim_ncpus; i++)
		if (sim_cpus[i].clock > res->end_time)
			res->end_time = sim_cpus[i].clock;
	return 0;
}

char *lab_schedule_encode(const struct sim_decision *d, size_t n)
{
	struct strbuf b = { 0 };
	size_t i = 0;

	sb_put(&b, "%s", "");
	while (i < n) {
		size_t j = i;
		char letter = sim_choice_kind_letter(d[i].kind);

		while (j < n && d[j].cpu == d[i].cpu && d[j].kind == d[i].kind)
			j++;
		if (i)
			sb_raw(&b, ".", 1);
		if (letter)
			sb_raw(&b, &letter, 1);
		sb_uint(&b, d[i].cpu);
		if (j - i > 1) {
			sb_raw(&b, "x", 1);
			sb_uint(&b, j - i);
		}
		i = j;
	}
	return b.s;
}

int lab_schedule_decode(const char *text, int nr_cpus, unsigned char **out, unsigned char **kinds,
			size_t *n, char *err, size_t errlen)
{
	const char *p = text;
	unsigned char *v = NULL, *k = NULL;
	size_t len = 0, cap = 0;

	*out = NULL;
	if (kinds)
		*kinds = NULL;
	*n = 0;
	while (*p) {
		char *end;
		int kind = SIM_CHOICE_CPU;
		unsigned long c, count = 1, most = (unsigned long)nr_cpus;

		if (*p < '0' || *p > '9') {
			kind = sim_choice_kind_of_letter(*p);
			if (kind <= SIM_CHOICE_CPU || !kinds) {
				snprintf(err, errlen, "schedule: '%c' at offset %td is no kind of choice", *p,
					 p - text);
				goto bad;
			}
			p++;
			most = SIM_CHOICE_MAX;
		}
		c = strtoul(p, &end, 10);
		if (end == p || c >= most) {
			if (kind == SIM_CHOICE_CPU)
				snprintf(err, errlen, "schedule: expected a CPU from 0 to %d at offset %td",
					 nr_cpus - 1, p - text);
			else
				snprintf(err, errlen, "schedule: expected an alternative from 0 to %d at offset %td",
					 SIM_CHOICE_MAX - 1, p - text);
			goto bad;
		}
		p = end;
		if (*p == 'x') {
			count = strtoul(p + 1, &end, 10);
			if (end == p + 1 || !count || count > 10000000) {
				snprintf(err, errlen, "schedule: bad repeat count at offset %td", p - text);
				goto bad;
			}
			p = end;
		}
		if (*p == '.')
			p++;
		else if (*p) {
			snprintf(err, errlen, "schedule: unexpected '%c' at offset %td", *p, p - text);
			goto bad;
		}
		if (len + count > 50000000) {
			snprintf(err, errlen, "schedule: too long");
			goto bad;
		}
		if (len + count > cap) {
			cap = (len + count) * 2;
			v = realloc(v, cap);
			if (!v || (k && !(k = realloc(k, cap))))
				abort();
		}
		if (kind != SIM_CHOICE_CPU && !k) {
			k = calloc(1, cap);	/* the first letter: every decision before it the scheduler's */
			if (!k)
				abort();
		}
		memset(v + len, (int)c, count);
		if (k)
			memset(k + len, kind, count);
		len += count;
	}
	*out = v;
	if (kinds)
		*kinds = k;
	*n = len;
	return 0;
bad:
	free(v);
	free(k);
	return -1;
}

static void event_json(struct strbuf *b, size_t i, const struct sim_event *e)
{
	const struct sim_site *site = sim_site_at((int)e->site);
	int a, first = 1;

	sb_put(b, "{\"i\":%zu,\"t\":%llu,\"cpu\":%d,\"task\":%d,\"kind\":\"%s\"",
	       i, (unsigned long long)e->time, e->cpu, e->task == 255 ? -1 : e->task,
	       sim_event_kind_name(e->kind));
	if (site) {
		sb_put(b, ",\"tree\":");
		sb_json(b, site->tree);
		sb_put(b, ",\"file\":");
		sb_json(b, site->file);
		sb_put(b, ",\"line\":%d,\"func\":", site->line);
		sb_json(b, site->func);
		if (site->expr) {
			sb_put(b, ",\"expr\":");
			sb_json(b, site->expr);
		}
	}
	sb_put(b, ",\"args\":{");
	for (a = 0; a < 4; a++) {
		const char *an = sim_kinds[e->kind].args[a];

		if (!strcmp(an, "-"))
			continue;
		sb_put(b, "%s\"%s\":", first ? "" : ",", an);
		if (!strcmp(an, "name"))
			sb_json(b, sim_name_at(e->arg[a]));
		else
			sb_put(b, "%d", e->arg[a]);
		first = 0;
	}
	sb_put(b, "}}");
}

int lab_event_json(size_t index, char *buf, size_t size)
{
	size_t n;
	const struct sim_event *log = sim_log(&n);
	struct strbuf b = { NULL, 0, 0 };
	int len;

	if (index >= n)
		return -1;
	event_json(&b, index, &log[index]);
	len = snprintf(buf, size, "%s", b.s);
	free(b.s);
	if (len >= (int)size)
		len = (int)size - 1;	/* truncated: never report more than was written */
	return len;
}

char *lab_meta_json(const struct lab_result *res)
{
	return lab_meta_json_schedule(res, 1);
}

char *lab_meta_json_schedule(const struct lab_result *res, int with_schedule)
{
	struct strbuf b = { NULL, 0, 0 };
	int i, k;

	sb_put(&b, "{\"status\":\"%s\",\"events\":%zu,\"live_objects\":%lu,\"steps\":%lu,"
		   "\"end_time\":%llu,\"cpus\":%d,\"nodes\":%d,\"policy\":\"%s\",\"real_gp\":%s,"
		   "\"events_seen\":%llu,\"bits\":%d",
	       sim_status_str(res->status), res->events, res->live_objects, res->steps,
	       (unsigned long long)res->end_time, sim_ncpus, sim_nr_nodes, sim_policy_name(sim_policy()),
	       sim_costs_are_real_gp() ? "true" : "false", sim_events_seen(),
	       (int)(sizeof(long) * 8));	/* the machine's word size: BITS_PER_LONG */

	if (sim_memory != SIM_MEMORY_SC)
		sb_put(&b, ",\"memory\":\"%s\"", sim_memory_name(sim_memory));
	sb_put(&b, ",\"kinds\":[");
	for (k = 0; k < SIM_EV_NR_KINDS; k++) {
		sb_put(&b, "%s{\"name\":", k ? "," : "");
		sb_json(&b, sim_kinds[k].name);
		sb_put(&b, ",\"args\":[");
		for (i = 0; i < 4; i++) {
			sb_put(&b, i ? "," : "");
			sb_json(&b, sim_kinds[k].args[i]);
		}
		sb_put(&b, "],\"doc\":");
		sb_json(&b, sim_kinds[k].doc);
		sb_put(&b, "}");
	}

	sb_put(&b, "],\"sites\":[");
	for (i = 0; i < sim_nr_sites(); i++) {
		const struct sim_site *s = sim_site_at(i);

		sb_put(&b, "%s{\"tree\":", i ? "," : "");
		sb_json(&b, s->tree);
		sb_put(&b, ",\"file\":");
		sb_json(&b, s->file);
		sb_put(&b, ",\"line\":%d,\"func\":", s->line);
		sb_json(&b, s->func);
		sb_put(&b, ",\"expr\":");
		if (s->expr)
			sb_json(&b, s->expr);
		else
			sb_put(&b, "null");
		sb_put(&b, "}");
	}

	sb_put(&b, "],\"names\":[");
	for (i = 0; i < sim_nr_names(); i++) {
		sb_put(&b, i ? "," : "");
		sb_json(&b, sim_name_at(i));
	}

	sb_put(&b, "],\"tasks\":[");
	for (i = 0; sim_task_by_id(i); i++) {
		const struct sim_task *t = sim_task_by_id(i);

		sb_put(&b, "%s{\"id\":%d,\"cpu\":%d,\"name\":", i ? "," : "", t->id, t->cpu);
		sb_json(&b, sim_name_at(t->name));
		sb_put(&b, ",\"rcuc\":%s}", t->is_rcuc ? "true" : "false");
	}

	sb_put(&b, "],\"reports\":[");
	for (i = 0; i < sim_nr_reports(); i++) {
		int type, event;
		const char *title, *text;

		sim_report_info(i, &type, &event, &title, &text);
		sb_put(&b, "%s{\"type\":%d,\"event\":%d,\"title\":", i ? "," : "", type, event);
		sb_json(&b, title);
		sb_put(&b, ",\"text\":");
		sb_json(&b, text);
		sb_put(&b, "}");
	}
	{
		size_t nd;
		const struct sim_decision *d = sim_decisions(&nd);

		sb_put(&b, "],\"decisions\":%zu", nd);
		if (with_schedule) {
			char *sched = lab_schedule_encode(d, nd);

			sb_put(&b, ",\"schedule\":");
			sb_json(&b, sched ? sched : "");
			free(sched);
		}
		sb_put(&b, ",\"schedule_diverged_at\":%ld", sim_schedule_diverged_at());
	}

	sb_put(&b, ",\"wall_marks\":[");
	{
		const char *name;
		double ms;

		for (i = 0; sim_wall_marks(i, &name, &ms); i++) {
			sb_put(&b, "%s{\"name\":", i ? "," : "");
			sb_json(&b, name);
			sb_put(&b, ",\"ms\":%.3f}", ms);
		}
	}
	sb_put(&b, "],\"stats\":");
	lab_stats_json(&b);
	sb_put(&b, ",\"costs\":[");
	for (i = 1; i < SIM_NR_COSTS; i++) {
		sb_put(&b, "%s{\"name\":", i > 1 ? "," : "");
		sb_json(&b, sim_cost_name(i));
		sb_put(&b, ",\"ns\":%u}", sim_cost_base(i));
	}
	sb_put(&b, "]}");
	return b.s;
}

uint64_t lab_fnv1a(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}
