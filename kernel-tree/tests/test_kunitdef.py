# SPDX-License-Identifier: GPL-2.0-only
"""kernel-tree/kunitdef.py: kunit.def's one reader takes what the C macro
takes and refuses the rest, naming the line."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import kunitdef  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')
HEAD = '/* SPDX-License-Identifier: GPL-2.0-only */\n/* KUNIT_SCENARIO(in a comment, is not an entry) */\n'


def entry(ident='seq', name='kunit-seq', where='ALL', variant='-', title='"A title"'):
    return f'KUNIT_SCENARIO({ident}, "{name}", rl_seq_run, {where}, {variant},\n\t       {title})\n'


class KunitDef(unittest.TestCase):
    def test_the_projects_file_reads_whole(self):
        rows = kunitdef.read(os.path.join(ROOT, 'wasm', 'scenarios', 'kunit.def'))
        with open(os.path.join(ROOT, 'wasm', 'scenarios', 'kunit.def'), encoding='utf-8') as f:
            text = f.read()
        # every entry the C macro expands: one a KUNIT_SCENARIO( at a line's start
        self.assertEqual(len(rows), sum(1 for line in text.split('\n') if line.startswith('KUNIT_SCENARIO(')))
        self.assertEqual(rows[0]['name'], 'kunit-seq')

    def test_an_ident_with_a_digit_is_read(self):
        rows = kunitdef.parse(HEAD + entry() + entry('seq2', 'kunit-seq2', 'INODE', 'inode', '"two" " parts"'))
        self.assertEqual([(r['ident'], r['name'], r['where'], r['variant']) for r in rows],
                         [('seq', 'kunit-seq', 'ALL', '-'), ('seq2', 'kunit-seq2', 'INODE', 'inode')])
        self.assertEqual(rows[1]['title'], 'two parts')
        self.assertEqual(rows[1]['line'], 5)

    def refused(self, text, *words):
        with self.assertRaises(kunitdef.KunitDefError) as e:
            kunitdef.parse(text, 'kunit.def')
        for w in words:
            self.assertIn(w, str(e.exception))

    def test_what_it_cannot_read_is_refused_with_its_line(self):
        self.refused(HEAD + entry() + 'KUNIT_SCENARIO(bad "kunit-bad", rl_run, ALL, -, "t")\n',
                     'kunit.def:5:', 'KUNIT_SCENARIO(bad')
        self.refused(HEAD + entry(name='Kunit_Upper'), 'kunit.def:3:')
        self.refused(HEAD + entry() + 'int stray;\n', 'kunit.def:5:', 'int stray')
        self.refused(HEAD + entry(title='untitled'), 'kunit.def:3:')

    def test_an_unknown_where_or_a_name_given_twice_is_refused(self):
        self.refused(HEAD + entry(where='SOMETIMES'), 'unknown where SOMETIMES')
        self.refused(HEAD + entry() + entry(ident='other'), 'name kunit-seq is given twice')
        self.refused(HEAD + entry() + entry(name='kunit-other'), 'ident seq is given twice')

    def test_an_empty_file_is_refused(self):
        self.refused(HEAD, 'no KUNIT_SCENARIO() entry')


class CasesSh(unittest.TestCase):
    """kernel-tree/kunit/cases.sh, which run.sh and compare.sh source, lists
    an ident with a digit and stops at an entry its reader refuses."""

    def run_cases(self, text):
        top = tempfile.mkdtemp(prefix='kunitdef-')
        self.addCleanup(shutil.rmtree, top)
        os.makedirs(os.path.join(top, 'kernel-tree'))
        os.makedirs(os.path.join(top, 'wasm', 'scenarios'))
        shutil.copy(os.path.join(ROOT, 'kernel-tree', 'kunitdef.py'), os.path.join(top, 'kernel-tree'))
        with open(os.path.join(top, 'wasm', 'scenarios', 'kunit.def'), 'w', encoding='utf-8') as f:
            f.write(text)
        cases = os.path.abspath(os.path.join(ROOT, 'kernel-tree', 'kunit', 'cases.sh'))
        return subprocess.run(['bash', '-c', f'set -euo pipefail; . {cases}; branch_scenarios v6.12'],
                              env=dict(os.environ, top=top), capture_output=True, text=True)

    def test_an_ident_with_a_digit_is_in_the_branchs_list(self):
        r = self.run_cases(HEAD + entry() + entry('seq2', 'kunit-seq2'))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.split('\n')[:2], ['seq kunit-seq ALL -', 'seq2 kunit-seq2 ALL -'])

    def test_an_entry_it_cannot_read_stops_the_script(self):
        r = self.run_cases(HEAD + entry() + 'KUNIT_SCENARIO(seq3 "kunit-seq3", rl_run, ALL, -, "t")\n')
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual(r.stdout, '')
        self.assertIn('kunit.def:5:', r.stderr)


if __name__ == '__main__':
    unittest.main()
