# SPDX-License-Identifier: GPL-2.0-only
"""kernel-tree/variant.sh's commands (the package's docstring says what each does)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from . import compiled, lab, series, spec
from .apply import apply_series
from .check import check
from .report import report
from .util import REG, VariantError, git, git_ok, say

USAGE = ('usage: kernel-tree/variant.sh add FROM BASE NAME | list | rm NAME | check NAME [REF] [SEEDS] | '
         'report NAME | spec TREE BASE NEW SPEC OUT')


def spec_file(path):
    """The file an extraction spec reads ("file PATH")."""
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith('file '):
                return line[5:].strip()
    raise VariantError(f'{path} names no file')


def build_failure(name, log):
    """What a failed build of NAME says first: a compile error in the
    series' files, an interface the glue calls, or the log's end."""
    with open(log, encoding='utf-8', errors='replace') as f:
        text = f.read()
    m = re.search(rf'^build/kernel/{re.escape(name)}/([^:\n]+:[0-9]+:[0-9]+: (?:fatal )?error:.*)$', text, re.M)
    if m:
        at = m.group(1)
        lines = text.split('\n')
        i = next(k for k, l in enumerate(lines) if f'build/kernel/{name}/{at.split(":")[0]}' in l)
        more = '\n'.join('  ' + l for l in lines[i + 1:i + 4])
        return f'the series does not compile against the shim:\n  {at} (branch variant/{name})\n{more}'
    m = re.search(r'^(wasm/[^:\n]+:[0-9]+:[0-9]+: (?:fatal )?error:.*|.*undefined symbol.*|.*undefined reference.*)$',
                  text, re.M)
    if m:
        return f'the series changes an interface the glue calls:\n  {m.group(1)}'
    return 'the build failed:\n' + '\n'.join('  ' + l for l in text.rstrip('\n').split('\n')[-20:])


def add(source, base, name):
    if not (source and base and name):
        raise VariantError('usage: make variant FROM=<mbox, folder of patches, or branch/range of kernel-tree/linux> '
                           'BASE=<branch> NAME=<name>')
    rows = lab.lab_variants()
    why = lab.check_name(rows, name)
    if why:
        raise VariantError(why)
    b = lab.base_of(rows, base)
    if not b:
        raise VariantError(f"BASE '{base}' is no branch the lab builds: "
                           + ', '.join(r.branch for r in rows if not r.base))
    start = time.time()
    tmp = tempfile.mkdtemp()
    made = False
    try:
        kind = series.split(source, b.branch, os.path.join(tmp, 'msgs'))
        s = series.sort_series(series.messages(os.path.join(tmp, 'msgs')))
        say(f'{name}: {len(s.patches)} patch(es) from {kind}' + (f' (cover letter: {s.subject})' if s.cover else '')
            + f' onto {b.branch} (variant {b.name})')
        basecommit, parent, subjects = apply_series(s.patches, b.branch, tmp)

        # A file the lab compiles from extracted pieces that the series changes: the base's spec followed through
        # the series (new functions the kept code calls, the definitions that replace a rewritten line).
        specs, derived = [], []
        os.makedirs(os.path.join(tmp, 'extract'))
        for sp in b.extract.split():
            if not git_changed(basecommit, parent, spec_file(sp)):
                specs.append(sp)
                continue
            out = os.path.join(tmp, 'extract', os.path.basename(sp))
            try:
                notes = spec.follow('kernel-tree/linux', basecommit, parent, sp, out)
            except VariantError as e:
                raise VariantError(f'the series changes what the lab extracts from {spec_file(sp)} ({sp}): {e}')
            specs.append(out)
            derived.append(os.path.basename(sp))
            if notes:
                say(f'{sp}, followed through the series: {"; ".join(notes)}')

        v = compiled.compare(basecommit, parent, b.files, b.srcs.split(), specs, b.project.split(),
                             os.environ.get('PARTIAL', '0') == '1', b.extract.split())
        if v.status != compiled.OK:
            raise VariantError(compiled.refusal(v, b.branch))
        outside = compiled.show(v.outside)
        if outside:
            say(f'PARTIAL=1: not compiled, so not run: {outside}')
        if v.unbuilt:
            say('not built in the lab\'s configuration (nor by the kernel\'s, with it): '
                + '; '.join(f'{p}: {w}' for p, w in v.unbuilt.items()))
        if v.includes:
            say('includes the series adds (the glue\'s includes stand for the file\'s; the shim must provide them): '
                + '; '.join(f'{p}: {", ".join(i)}' for p, i in v.includes.items()))

        # The branch and the registry entry; from here a failure removes both.
        made = True
        git('update-ref', f'refs/heads/variant/{name}', parent, '')
        d = lab.entry_dir(name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, 'series.mbox'), 'wb') as f:
            for p in s.patches:
                with open(p, 'rb') as m:
                    f.write(m.read())
        lab.write_entry(name, {
            'name': name, 'base': b.name, 'baseBranch': b.branch, 'baseCommit': basecommit,
            'branch': f'variant/{name}', 'commit': parent, 'subject': s.subject, 'messageId': s.message_id,
            'from': kind, 'patches': subjects, 'touched': v.touched, 'notCompiled': outside,
        })
        own = None
        if derived:
            os.makedirs(os.path.join(d, 'extract'))
            for f in derived:
                shutil.copy(os.path.join(tmp, 'extract', f), os.path.join(d, 'extract', f))
            own = [os.path.join(d, 'extract', os.path.basename(sp)) if os.path.basename(sp) in derived else sp
                   for sp in b.extract.split()]
        with open(os.path.join(d, 'variant.mk'), 'w', encoding='utf-8') as f:
            f.write(lab.variant_mk(name, b.name, b.branch, own))

        # Build: natively (ASan + UBSan), wasm for Node and for the page.
        say(f'{name}: building natively and in wasm ({int(time.time() - start)} s so far)')
        log = os.path.join(tmp, 'build.log')
        if not make_nice(log, f'build/native/{name}/labrun', f'build/wasm/{name}/labrun.cjs',
                         f'{REG}/{name}/reclaimlab-{name}.mjs', 'web/public/kernel/.stamp',
                         'web/public/kernel/diffs.json'):
            raise VariantError(build_failure(name, log))
        made = False  # built: it stays
        say(f'{name}: made in {int(time.time() - start)} s: branch variant/{name} '
            f'({git("rev-parse", "--short", parent)}) on {b.branch}')
        say(f'  subject:    {s.subject}')
        say(f'  message-id: {s.message_id or "(none in the series)"}')
        say(f'  changes:    {compiled.show(v.changes)}')
        say(f'  run it:     build/native/{name}/labrun --list; in the page (make start), the kernel picker of '
            f'every scene that runs {b.name}')
    except BaseException:
        if made:
            lab.remove(name)
            print(f'[variant] removed what was made of {name} (branch, build, registry)', file=sys.stderr)
        raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    # The report (REPORT=0: not now; make variant-report NAME=... later).
    if os.environ.get('REPORT', '1') != '0':
        report(name)
        say(f'{name}: from the series to the finished report in {int(time.time() - start)} s')


def git_changed(a, b, path):
    """Whether the series changes path."""
    return subprocess.run(['git', '-C', 'kernel-tree/linux', 'diff', '--quiet', a, b, '--', path]).returncode != 0


def make_nice(log, *targets):
    """make -j2 TARGETS under nice, its output in log: whether it succeeded."""
    with open(log, 'w') as f:
        return subprocess.run(['nice', '-n', '5', 'make', '-s', '--no-print-directory', '-j2', *targets],
                              stdout=f, stderr=subprocess.STDOUT).returncode == 0


def list_variants():
    es = lab.entries()
    for e in es:
        print(lab.listing(e))
    if not es:
        print('no reviewer variants (make variant FROM=... BASE=... NAME=... makes one)')


def rm(name):
    if not name:
        raise VariantError('usage: make variant-rm NAME=<name> (make variants lists them)')
    if not lab.read_entry(name) and not git_ok('rev-parse', '-q', '--verify', f'refs/heads/variant/{name}'):
        raise VariantError(f"no reviewer variant '{name}' (make variants lists them)")
    lab.remove(name)
    say(f'removed {name}: branch variant/{name}, its builds and its registry entry')


def main(argv):
    cmd, args = (argv[1], argv[2:]) if len(argv) > 1 else ('', [])
    arg = lambda i: args[i] if len(args) > i else ''  # noqa: E731
    try:
        if cmd == 'add':
            add(arg(0), arg(1), arg(2))
        elif cmd == 'list':
            list_variants()
        elif cmd == 'rm':
            rm(arg(0))
        elif cmd == 'check':
            if not check(arg(0), arg(1) or None, int(arg(2) or 3)):
                sys.exit(1)
        elif cmd == 'report':
            report(arg(0))
        elif cmd == 'spec' and len(args) == 5:
            for n in spec.follow(*args):
                print(n)
        else:
            raise VariantError(USAGE)
    except VariantError as e:
        print(f'[variant] error: {e}', file=sys.stderr, flush=True)
        sys.exit(1)
