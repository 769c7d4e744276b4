# SPDX-License-Identifier: GPL-2.0-only
"""make variant-report: variants/NAME/report.txt, what the lab can say of a
reviewer's series: every scenario under the sanitizers, the same against
the base and natively against wasm, a fuzzing smoke run, the explorer on
the small race, the User-Mode Linux referee."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import kernels

from .check import check
from .lab import entry_dir, find, lab_variants, read_entry
from .util import TREE, VariantError, asan_env, git, make, make_output, say

TITLES = re.compile(r'^(BUG|WARNING|INFO: task|Kernel panic|UBSAN|kernel BUG|list_(add|del) corruption)')


def report_titles(console):
    """The report lines of a run's console (KASAN, lockdep, WARN, BUG, a hung task), each once, sorted."""
    return sorted({l for l in console.split('\n') if TITLES.match(l)})


def scene_of(scenario, base):
    """The scene of the page that runs scenario on the base kernel (the registry's "scenes"), or None."""
    reg = kernels.load(check_files=False)
    return reg.scene_of(scenario, base) if base in reg.by_name else None


def labrun(nat, *args):
    r = subprocess.run([nat, *args], capture_output=True, text=True, env=asan_env())
    return r.stdout, r.stderr


def summary_line(nat, *args):
    out, err = labrun(nat, *args, '--summary')
    line = next((l for l in (out + err).split('\n') if l.startswith('scenario ')), None)
    return line


def every_scenario(name, nat, seeds, base, w):
    w(f'1. Every scenario on {name} natively (ASan + UBSan around the simulated kernel\'s KASAN and lockdep), '
      f'seeds 1..{seeds}, timed policy')
    out, _ = labrun(nat, '--list')
    for s in [l.split('\t')[0] for l in out.split('\n') if l.strip()]:
        scene = scene_of(s, base)
        for seed in range(1, seeds + 1):
            run = ('--scenario', s, '--seed', str(seed))
            summary = summary_line(nat, *run) or f'scenario {s} seed {seed}: labrun failed'
            w(f'   {summary}')
            if summary.endswith(', 0 reports'):
                continue
            sched = write_reports(nat, run, w)
            if scene:
                w(f'     in the page: http://localhost:5173/?scene={scene}&variant={name}&seed={seed}&sched={sched}')
    w('   shrinker-lifetime with slow shrinkers (count_objects sleeps 3 us, as the page runs the break-* kernels):')
    for seed in range(1, seeds + 1):
        run = ('--scenario', 'shrinker-lifetime', '--seed', str(seed), '--slow-ns', '3000')
        summary = summary_line(nat, *run) or ''
        w(f'   {summary} (--slow-ns 3000)')
        if summary.endswith(', 0 reports'):
            continue
        write_reports(nat, run, w)


def write_reports(nat, run, w):
    """The reports of a run that had some, and the command that replays it; its schedule."""
    titles = report_titles(labrun(nat, *run, '--console')[0])
    sched = labrun(nat, *run, '--schedule-out')[0].strip()
    for t in titles:
        w(f'     report: {t}')
    w(f"     replay: {nat} {' '.join(run)} --schedule '{sched}' --console")
    return sched


def fuzz(name, runs, w):
    w(f'3. Fuzzing smoke run: libFuzzer (wasm/fuzz/fuzz_shrinkers.c, scenario fuzz-ops) on {name}, {runs} '
      'executions from an empty corpus, -seed=1')
    fz = tempfile.mkdtemp()
    try:
        prog = os.path.abspath(f'build/fuzz/{name}/fuzz_shrinkers')
        r = subprocess.run([prog, f'-runs={runs}', '-seed=1', '-max_len=256', f'-artifact_prefix={fz}/',
                            '-print_final_stats=1', fz], cwd=fz, capture_output=True, text=True, env=asan_env())
        log = r.stdout + r.stderr
        for l in log.split('\n'):
            if l.startswith(('stat::number_of_executed_units', 'stat::average_exec_per_sec')):
                w(f'   {l}')
        crashes = sorted(glob.glob(os.path.join(fz, 'crash-*')))
        if crashes:
            ended = next((l for l in log.split('\n') if l.startswith('fuzz: run ended')), '')
            first = next((l for l in log.split('\n') if re.match(r'^(BUG|WARNING|INFO: task|Kernel panic|UBSAN)', l)
                          and 'ASan' not in l), '')
            w(f'   a crash: {ended}; {first}')
            keep = os.path.join(entry_dir(name), 'fuzz')
            os.makedirs(keep, exist_ok=True)
            for c in crashes:
                shutil.copy(c, keep)
            w(f'   replay: build/fuzz/{name}/fuzz_shrinkers {keep}/{os.path.basename(crashes[0])}')
        else:
            w('   no crash')
    finally:
        shutil.rmtree(fz, ignore_errors=True)


def explorer(name, nat, base, w):
    w('4. The explorer on the small race (shrinker-lifetime, one round, one object, bound 1)')
    searched = make_output('print-explore-variants').split()
    if base not in searched:
        w(f'   not run: the explorer\'s standard set runs {" ".join(searched)}, not {base}')
        return
    out, _ = labrun(nat, '--explore', '--scenario', 'shrinker-lifetime', '--rounds', '1', '--objects', '1', '--bound', '1')
    lines = [l for l in out.split('\n') if l.strip()]
    if not lines:
        w('   labrun --explore printed nothing')
        return
    r = json.loads(lines[-1])
    w(f"   {r['executions_total']} executions, {r['end_states']} end states, "
      f"{r['failing_executions']} failing {r['failing']}, exhausted: {r['exhausted']}, {r['seconds']} s")
    s = r.get('shortest')
    if s:
        w(f"   shortest failing: {s['preemptions']} preemption(s), {s['decisions']} decisions, "
          f"{', '.join(s['kinds'])}; replayed: {s['replayed']['report']}")
        w(f"   replay: {nat} --scenario shrinker-lifetime --rounds 1 --objects 1 --schedule '{s['schedule']}' --console")


def referee(name, base_branch, w):
    """The real kernel as referee (kernel-tree/kunit/) on the reviewer's
    branch, where the base has a User-Mode Linux build (make kunit): the
    variant's build starts as a copy of the base's (its sources and
    objects, paths rewritten), the series' files written over the copy's
    sources, so that only what the series changes is rebuilt; then run.sh
    boots it with the base's kunitconfig and compare.sh compares its
    traces with the variant's."""
    top = os.getcwd()
    kb, kv = f'build/kunit/{base_branch}', f'build/kunit/variant/{name}'
    config = f'kernel-tree/kunit/{base_branch}.kunitconfig'
    if not (os.access(f'{kb}/out/linux', os.X_OK) and os.path.isfile(f'{kb}/src.commit') and os.path.isfile(config)):
        w(f'not run: no User-Mode Linux build of {base_branch} (make kunit builds one of each project branch, '
          f'minutes each; then make variant-report NAME={name})')
        return
    t0 = time.time()
    commit = git('rev-parse', f'variant/{name}^{{commit}}')
    try:
        with open(f'{kv}/src.commit') as f:
            have = f.read().strip()
    except OSError:
        have = ''
    if have != commit:
        shutil.rmtree(kv, ignore_errors=True)
        os.makedirs(kv)
        subprocess.run(['cp', '-a', f'{kb}/src', f'{kb}/out', f'{kv}/'], check=True)
        subprocess.run(f"grep -rlI -- '{top}/{kb}/' '{kv}/out' | xargs -r sed -i 's|{top}/{kb}/|{top}/{kv}/|g'",
                       shell=True, check=True)
        with open(f'{kb}/src.commit') as f:
            base_commit = f.read().strip()
        for path in git('diff', '--name-only', '--no-renames', base_commit, commit).split():
            dst = f'{kv}/src/{path}'
            if subprocess.run(['git', '-C', TREE, 'cat-file', '-e', f'{commit}:{path}'],
                              capture_output=True).returncode == 0:
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                with open(dst, 'wb') as f:
                    f.write(subprocess.run(['git', '-C', TREE, 'show', f'{commit}:{path}'],
                                           capture_output=True, check=True).stdout)
            elif os.path.exists(dst):
                os.remove(dst)
        with open(f'{kv}/src.commit', 'w') as f:
            f.write(commit + '\n')
    with open(f'{kv}/run.out', 'w') as f:
        r = subprocess.run(['kernel-tree/kunit/run.sh', f'variant/{name}'], stdout=f, stderr=subprocess.STDOUT,
                           env=dict(os.environ, RL_KUNITCONFIG=f'{top}/{config}'))
    with open(f'{kv}/run.out', encoding='utf-8', errors='replace') as f:
        run_out = f.read().split('\n')
    if r.returncode:
        w(f'User-Mode Linux of variant/{name} did not pass the suite (whole output: {kv}/run.out):')
        for l in [l for l in run_out if re.search(r'BUG: |WARNING: |INFO: |kunit: |error:', l)][:20]:
            w(l)
        return
    for l in run_out:
        if re.match(r'^\[kunit\] (KASAN|the shrink_slab|[0-9]+ trace lines)', l):
            w(l)
    c = subprocess.run(['kernel-tree/kunit/compare.sh', f'variant/{name}'], capture_output=True, text=True,
                       env=dict(os.environ, KUNIT_VARIANT=name))
    for l in (c.stdout + c.stderr).rstrip('\n').split('\n'):
        w(l)
    w(f'(built and booted in {int(time.time() - t0)} s; the build in {kv})')


def report(name):
    entry = read_entry(name)
    if not entry:
        raise VariantError(f"no reviewer variant '{name}' (make variants lists them)")
    seeds = int(os.environ.get('VARIANT_SEEDS', '3'))
    fuzz_runs = int(os.environ.get('VARIANT_FUZZ_RUNS', '2000'))
    rows = lab_variants()
    base = find(rows, name).base
    base_branch = find(rows, base).branch
    nat = f'build/native/{name}/labrun'
    start = time.time()
    make(nat, f'build/wasm/{name}/labrun.cjs', f'build/native/{base}/labrun', f'build/fuzz/{name}/fuzz_shrinkers')
    path = os.path.join(entry_dir(name), 'report.txt')
    with open(path, 'w', encoding='utf-8') as out:
        def w(line=''):
            print(line, flush=True)
            out.write(line + '\n')
        mid = f" <{entry['messageId']}>" if entry['messageId'] else ''
        w(f"Report on {name}: {entry['subject']}{mid}")
        w(f"branch variant/{name} ({git('rev-parse', '--short', f'variant/{name}')}) on {base_branch}, built as {base}")
        w()
        every_scenario(name, nat, seeds, base, w)
        w()
        w(f'2. Against the base ({base}) and native = wasm: every scenario, seeds 1..{seeds}, '
          'branch names replaced in the event logs')
        try:
            check(name, base, seeds, out=lambda t: [w(f'   {l}') for l in t.split('\n')])
        except VariantError as e:
            w(f'   {e}')
        w()
        fuzz(name, fuzz_runs, w)
        w()
        explorer(name, nat, base, w)
        w()
        w(f'5. The UML referee (kernel-tree/kunit/): the project\'s KUnit suite in User-Mode Linux built from branch '
          f'variant/{name}, its traces against {name}\'s natively and in wasm')
        referee(name, base_branch, lambda l='': w(f'   {l}'))
        w()
        w(f'Report made in {int(time.time() - start)} s.')
    say(f'written to {path}')
    sys.stdout.flush()
