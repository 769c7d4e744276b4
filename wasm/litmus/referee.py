#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The memory models' referee: the kernel's own litmus tests, searched to the end.

  referee.py LABRUN LITMUS.json VERDICTS.txt [--models sc,tso,relaxed]
             [--only NAME,...] [--jobs N] [--out FILE]

For each test litmus2c.py converted (LITMUS.json) and each model, runs
LABRUN --explore on its scenario with bounds high enough that nothing is
left out ("exhausted" in the summary, or the test fails): an execution
that satisfies the test's "exists" (under its filter) is a failing one of
the search. Found: Sometimes, with the shortest schedule that reaches it,
replayed once more here by LABRUN --schedule; none: Never. Each verdict
is held against the expected one (VERDICTS.txt's rules and lines) and
printed as one table; a test the converter refused is listed by name, and
counts as a failure. Exit status 1 if any verdict is not the expected one.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

MODELS = ('sc', 'tso', 'relaxed')
# Past every execution of these tests: no test has more scheduling points
# than this many preemptions can use, nor a choice point more alternatives.
BOUND = 64
CHOICE_BOUND = 64
CHOICE_KINDS = ('mem-load', 'mem-store', 'mem-drain')


def read_verdicts(path):
    lines = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            parts = line.split('\t')
            if len(parts) != 4 or parts[1] not in MODELS or parts[2] not in ('Never', 'Sometimes'):
                sys.exit(f'{path}:{n}: not "test<TAB>model<TAB>Never|Sometimes<TAB>why"')
            lines[(parts[0], parts[1])] = (parts[2], parts[3])
    return lines


def expected(test, model, lines):
    """(verdict, why, note): what the referee expects of test under model."""
    doc = test['result']
    documented = 'Never' if doc == 'DEADLOCK' else doc
    line = lines.get((test['name'], model))
    if model == 'relaxed':
        if line:
            if line[0] != documented:
                return line[0], line[1], f'cannot: {line[1]}'
            return line[0], line[1], f'note: {line[1]}'
        return documented, f'documented Result: {doc}', ''
    if documented == 'Never':
        if line and line[0] != 'Never':
            sys.exit(f'verdicts: {test["name"]} {model}: {line[0]} for a test the LKMM forbids')
        return 'Never', f'Result {doc}: forbidden by the LKMM, so by a stronger model', ''
    if model == 'sc':
        if line:
            return line[0], line[1], ''
        return 'Never', 'a cycle of po and com: sequential consistency has none', ''
    if not line:
        return None, 'no tso line in the verdicts for a test whose Result is Sometimes', ''
    return line[0], line[1], ''


def search(labrun, scenario, model):
    cmd = [labrun, '--scenario', scenario, '--memory', model, '--explore', '--at-bound',
           '--bound', str(BOUND)]
    for k in CHOICE_KINDS:
        cmd += ['--choice-bound', f'{k}={CHOICE_BOUND}']
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.monotonic() - t0
    summary = None
    for line in p.stdout.splitlines():
        if line.startswith('{') and '"mode"' in line:
            summary = json.loads(line)
    if p.returncode not in (0, 1) or summary is None:
        return {'error': f'labrun exited {p.returncode}: {p.stderr.strip()[-300:]}', 'wall': secs}
    summary['wall'] = secs
    return summary


def replay(labrun, scenario, model, schedule):
    """Whether LABRUN --schedule reaches the test's report once more."""
    p = subprocess.run([labrun, '--scenario', scenario, '--memory', model, '--schedule', schedule],
                       capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if '"kind":"REPORT"' in line:
            name = json.loads(line)['args'].get('name', '')
            if name.startswith(('litmus: exists satisfied:', 'litmus: filter passed:')):
                return True
    return False


def judge(labrun, test, model, lines):
    want, why, note = expected(test, model, lines)
    row = {'test': test['name'], 'model': model, 'expected': want, 'why': why, 'note': note}
    if want is None:
        row.update(verdict='-', ok=False, problem=why)
        return row
    s = search(labrun, test['scenario'], model)
    if 'error' in s:
        row.update(verdict='-', ok=False, problem=s['error'], wall=s['wall'])
        return row
    found = s.get('failing_executions', 0) > 0
    row.update(verdict='Sometimes' if found else 'Never', executions=s['executions_total'],
               end_states=s['end_states'], exhausted=s['exhausted'], wall=s['wall'],
               schedule=(s.get('shortest') or {}).get('schedule'))
    problems = []
    kinds = set((s.get('failing') or {}).keys())
    if kinds - {'test'}:
        problems.append(f'reports other than the test\'s own: {sorted(kinds)}')
    if not found and not s['exhausted']:
        problems.append('search not exhausted: Never is not shown')
    if found and not replay(labrun, test['scenario'], model, row['schedule']):
        problems.append(f'schedule {row["schedule"]} does not replay to the outcome')
    if row['verdict'] != want:
        problems.append(f'{row["verdict"]}, expected {want}')
    row['ok'] = not problems
    row['problem'] = '; '.join(problems)
    return row


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument('labrun')
    ap.add_argument('litmus_json')
    ap.add_argument('verdicts')
    ap.add_argument('--models', default=','.join(MODELS))
    ap.add_argument('--only', default='')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--out', default='')
    a = ap.parse_args(argv[1:])
    models = [m for m in a.models.split(',') if m]
    for m in models:
        if m not in MODELS:
            sys.exit(f'referee: no model "{m}"')
    with open(a.litmus_json) as f:
        tests = json.load(f)['tests']
    only = set(x for x in a.only.split(',') if x)
    if only:
        tests = [t for t in tests if t['name'] in only]
    lines = read_verdicts(a.verdicts)
    names = {t['name'] for t in tests}
    for (name, _m) in lines:
        if not only and name not in names:
            sys.exit(f'referee: {a.verdicts} names "{name}", which is no test')
    refused = [t for t in tests if 'refused' in t]
    runnable = [t for t in tests if 'refused' not in t]
    t0 = time.monotonic()
    jobs = [(t, m) for t in runnable for m in models]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        rows = list(ex.map(lambda tm: judge(a.labrun, tm[0], tm[1], lines), jobs))
    wall = time.monotonic() - t0
    by = {(r['test'], r['model']): r for r in rows}

    out = []
    out.append('The kernel\'s litmus tests (v6.12: tools/memory-model/litmus-tests, Documentation/litmus-tests),')
    out.append('each searched to the end under each memory model: verdict (executions); * where not as expected')
    w = max([len(t['name']) for t in tests] + [4])
    head = f'{"test":<{w}}  {"Result":<9}' + ''.join(f'  {m:<19}' for m in models)
    out.append(head)
    out.append('-' * len(head))
    for t in tests:
        if 'refused' in t:
            out.append(f'{t["name"]:<{w}}  refused: {t["refused"]}')
            continue
        cells = ''
        for m in models:
            r = by[(t['name'], m)]
            cell = f'{r["verdict"]}{"" if r["ok"] else "*"} ({r.get("executions", "-")})'
            cells += f'  {cell:<19}'
        out.append(f'{t["name"]:<{w}}  {t["result"]:<9}{cells}')
    out.append('')
    notes = [r for r in rows if r['note']]
    if notes:
        out.append('What the relaxed model cannot produce, per test:')
        for r in notes:
            out.append(f'  {r["test"]}: {r["note"]}')
        out.append('')
    found = [r for r in rows if r['verdict'] == 'Sometimes']
    if found:
        out.append('Outcomes reached, with the shortest schedule (replayed: labrun --scenario litmus/TEST --memory M --schedule S):')
        for r in found:
            out.append(f'  {r["test"]} under {r["model"]}: {r["schedule"]}')
        out.append('')
    out.append('Where the sc and tso expectations come from (wasm/litmus/verdicts.txt):')
    for r in rows:
        if r['model'] == 'tso' and (r['test'], 'tso') in lines:
            out.append(f'  {r["test"]} under tso, {r["expected"]}: {r["why"]}')
    out.append('  every other test under sc and tso: Never (the rules at the top of verdicts.txt)')
    out.append('')
    bad = [r for r in rows if not r['ok']]
    for r in bad:
        out.append(f'NOT AS EXPECTED: {r["test"]} under {r["model"]}: {r["problem"]}')
    for t in refused:
        out.append(f'REFUSED: {t["name"]} ({t["file"]}): {t["refused"]}')
    execs = {m: sum(by[(t['name'], m)].get('executions', 0) for t in runnable) for m in models}
    secs = {m: sum(by[(t['name'], m)].get('wall', 0) for t in runnable) for m in models}
    out.append('executions searched: ' + ', '.join(f'{m} {execs[m]} ({secs[m]:.1f} s)' for m in models) +
               f'; {wall:.1f} s wall with {a.jobs} jobs')
    n_ok = sum(1 for r in rows if r['ok'])
    out.append(f'litmus: {n_ok} passed, {len(rows) - n_ok + len(refused)} failed')
    text = '\n'.join(out) + '\n'
    sys.stdout.write(text)
    if a.out:
        with open(a.out, 'w') as f:
            f.write(text)
    return 1 if bad or refused else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
