# SPDX-License-Identifier: GPL-2.0-only
"""docs/adding-a-kernel.md, followed: in a temporary copy of the project, the
checklist's example entry (renamed) and a patch folder are added, and every
list generated from the registry must name the new kernel: make's variables
and rules, the page's list, the What changed comparisons, the referee's
table, the kernel tree's branches, the explorer's searches, the native
tests' table and the bench lists. Nothing is built."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
NAME = 'scratch-kernel'


def copy_project():
    """The project's files (tracked, and new ones git does not ignore) in a temporary folder."""
    dst = tempfile.mkdtemp(prefix='adding-a-kernel-')
    files = subprocess.run(['git', '-C', ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], check=True, capture_output=True).stdout
    for f in files.decode().split('\0'):
        if f and os.path.isfile(os.path.join(ROOT, f)):
            os.makedirs(os.path.dirname(os.path.join(dst, f)) or dst, exist_ok=True)
            shutil.copy2(os.path.join(ROOT, f), os.path.join(dst, f))
    return dst


def checklist_entry():
    """The registry entry docs/adding-a-kernel.md shows."""
    with open(os.path.join(ROOT, 'docs', 'adding-a-kernel.md'), encoding='utf-8') as f:
        doc = f.read()
    blocks = re.findall(r'```json\n(.*?)```', doc, re.S)
    if len(blocks) != 1:
        raise AssertionError(f'docs/adding-a-kernel.md has {len(blocks)} json blocks; the checklist shows one entry')
    return json.loads(blocks[0])


class AddingAKernel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.root = copy_project()
        entry = checklist_entry()
        cls.entry = dict(entry, name=NAME, branch=NAME)
        # Step 1: the patches.
        patches = os.path.join(cls.root, 'kernel-tree', 'patches', NAME)
        os.makedirs(patches)
        with open(os.path.join(patches, '0001-scratch.patch'), 'w', encoding='utf-8') as f:
            f.write('From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nSubject: scratch\n\n')
        with open(os.path.join(patches, 'series'), 'w', encoding='utf-8') as f:
            f.write('0001-scratch.patch\n')
        # Step 2: the entry, last in the registry.
        path = os.path.join(cls.root, 'kernel-tree', 'manifest.json')
        with open(path, encoding='utf-8') as f:
            m = json.load(f)
        m['kernels'].append(cls.entry)
        with open(path, 'w', encoding='utf-8') as f:
            json.dump(m, f, indent=2, ensure_ascii=False)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root)

    def run_in_copy(self, *cmd):
        r = subprocess.run(cmd, cwd=self.root, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, f'{" ".join(cmd)}:\n{r.stdout}\n{r.stderr}')
        return r.stdout

    def make_vars(self, *names):
        mk = os.path.join(self.root, 'print-vars.mk')
        with open(mk, 'w', encoding='utf-8') as f:
            f.write('print-vars:\n' + ''.join(f"\t@echo '{n}=$({n})'\n" for n in names))
        out = self.run_in_copy('make', '-s', '--no-print-directory', '-f', 'Makefile', '-f', mk, 'print-vars')
        return dict(line.split('=', 1) for line in out.strip().split('\n'))

    def test_make_builds_it_as_its_recipe_says(self):
        v = self.make_vars('VARIANTS', f'{NAME}_BRANCH', f'{NAME}_FILES', f'{NAME}_SRCS', f'{NAME}_GLUE',
                           f'{NAME}_DEFS', f'{NAME}_OVERLAY', 'v6.12_FILES', 'v6.12_SRCS', 'v6.12_DEFS',
                           'NATIVE_TESTS', 'KUNIT_PROGS', 'NATIVE_PROGS', 'WASM_PROGS', 'PAGE64_PROGS')
        self.assertIn(NAME, v['VARIANTS'].split())
        self.assertEqual(v[f'{NAME}_BRANCH'], NAME)
        for key in ('FILES', 'SRCS', 'DEFS'):
            self.assertEqual(v[f'{NAME}_{key}'], v[f'v6.12_{key}'])
        self.assertEqual(v[f'{NAME}_OVERLAY'], 'wasm/overlay/v6.12')
        tests = v['NATIVE_TESTS'].split()
        for t in ['test_fuzz_ops'] + self.entry['tests']:
            self.assertIn(f'build/native/{NAME}/{t}', tests)
        self.assertIn(f'build/native/{NAME}/labrun', v['KUNIT_PROGS'].split())
        self.assertIn(f'build/native/{NAME}/labrun', v['NATIVE_PROGS'].split())
        self.assertIn(f'web/src/engine/generated/reclaimlab-{NAME}.mjs', v['WASM_PROGS'].split())
        self.assertIn(f'web/src/engine/generated/reclaimlab64-{NAME}.mjs', v['PAGE64_PROGS'].split())
        # The rule that reads its sources from its branch.
        out = self.run_in_copy('make', '-n', '--no-print-directory', f'build/native/{NAME}/labrun')
        self.assertIn(f'files from branch {NAME} of kernel-tree/linux', out)
        self.assertIn(f'mm/shrinker.c ({NAME})', out)

    def test_the_page_offers_it_in_its_scene(self):
        out = os.path.join(self.root, 'kernels.ts')
        self.run_in_copy(sys.executable, 'kernel-tree/kernels.py', 'ts', out)
        with open(out, encoding='utf-8') as f:
            ts = f.read()
        scene = self.entry['scenes'][0]
        m = re.search(r'^  "' + re.escape(scene) + r'": (\[.*\]),$', ts, re.M)
        self.assertIsNotNone(m, ts)
        self.assertEqual(json.loads(m.group(1))[-1], NAME)
        self.assertIn(f'"name": "{NAME}", "branch": "{NAME}", "base": "v6.12", "kind": "break"', ts)
        self.assertIn(f'"comparison": "v6.12..{NAME}"', ts)

    def test_the_tree_the_referee_and_what_changed_name_it(self):
        self.assertIn(f'{NAME} v6.12', self.run_in_copy(sys.executable, 'kernel-tree/kernels.py', 'branches').split('\n'))
        self.assertIn(f'compared v6.12 {NAME} differs -',
                      self.run_in_copy(sys.executable, 'kernel-tree/kernels.py', 'kunit').split('\n'))
        out = self.run_in_copy(sys.executable, '-c', 'import sys; sys.path.insert(0, "kernel-tree"); import diffs, kernels; '
                               'print("\\n".join(c["id"] for c in diffs.comparison_specs(kernels.load())))')
        self.assertIn(f'v6.12..{NAME}', out.split('\n'))

    def test_the_explorer_searches_it(self):
        out = self.run_in_copy('node', 'wasm/explore.mjs', 'races')
        for race in self.entry['explore']:
            self.assertTrue(any(line.startswith(f'{race} {NAME} ') for line in out.split('\n')), out)
        self.assertIn(f'build/bench/{NAME}/labrun', self.run_in_copy('node', 'wasm/explore.mjs', 'targets').split())

    def test_the_native_tests_know_what_it_does(self):
        out = os.path.join(self.root, 'table.h')
        self.run_in_copy(sys.executable, 'kernel-tree/kernels.py', 'c', out)
        with open(out, encoding='utf-8') as f:
            table = f.read()
        row = next(line for line in table.split('\n') if line.startswith(f'{{ "{NAME}", '))
        for t in self.entry['tests'] + self.entry['traits']:
            self.assertIn(f'"{t}"', row)
        for race, e in self.entry['explore'].items():
            self.assertIn(f'{{ "{race}", "{e["kind"]}", {e["preemptions"]} }}', row)


if __name__ == '__main__':
    unittest.main()
