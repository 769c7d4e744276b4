# SPDX-License-Identifier: GPL-2.0-only
"""kernel-tree/variant/: make variant's steps that need no kernel tree or
build, on made-up inputs (make test-variant runs the whole of it)."""
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
from variant import check, compiled, lab, report, series, spec  # noqa: E402
from variant.util import VariantError  # noqa: E402


def tmpdir(case):
    d = tempfile.mkdtemp(prefix='variant-')
    case.addCleanup(shutil.rmtree, d)
    return d


DIFF = 'diff --git a/mm/x.c b/mm/x.c\n--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n'


def message(d, name, subject, mid, body):
    path = os.path.join(d, name)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(f'From: A <a@example.org>\nSubject: {subject}\nMessage-ID: <{mid}>\n\n{body}')
    return path


class Series(unittest.TestCase):
    def test_the_cover_first_then_the_patches_by_number_replies_left_out(self):
        d = tmpdir(self)
        p2 = message(d, '1', '[PATCH v2 2/2] mm: two', 'p2@x', DIFF)
        cover = message(d, '2', '[PATCH v2 0/2] mm: the series', 'cover@x', 'why\n')
        reply = message(d, '3', 'Re: [PATCH v2 1/2] mm: one', 'r@x', DIFF)
        p1 = message(d, '4', '[PATCH v2 1/2] mm: one', 'p1@x', DIFF)
        s = series.sort_series([p2, cover, reply, p1])
        self.assertEqual((s.cover, s.patches, s.subject, s.message_id), (cover, [p1, p2], 'mm: the series', 'cover@x'))

    def test_without_a_cover_the_first_patch_names_the_series(self):
        d = tmpdir(self)
        p = message(d, '1', '[PATCH] mm: alone', 'alone@x', DIFF)
        s = series.sort_series([p])
        self.assertEqual((s.cover, s.subject, s.message_id), (None, 'mm: alone', 'alone@x'))

    def test_two_versions_and_no_diff_are_refused(self):
        d = tmpdir(self)
        a = message(d, '1', '[PATCH 1/2] mm: one', 'a@x', DIFF)
        b = message(d, '2', '[PATCH v2 1/2] mm: one again', 'b@x', DIFF)
        with self.assertRaisesRegex(VariantError, 'two patches numbered 1: "mm: one" and "mm: one again"'):
            series.sort_series([a, b])
        c = message(d, '3', '[PATCH 0/1] only words', 'c@x', 'no diff here\n')
        with self.assertRaisesRegex(VariantError, 'no message holds a diff'):
            series.sort_series([c])


class Compiled(unittest.TestCase):
    def test_what_a_spec_compiles(self):
        d = tmpdir(self)
        path = os.path.join(d, 'spec.txt')
        with open(path, 'w') as f:
            f.write('# a comment\nfile mm/vmscan.c\nfunc shrink_slab\nfunc do_shrink_slab@2\n'
                    'block struct shrinker_info {\nline static DECLARE_RWSEM(shrinker_rwsem);\n')
        self.assertEqual(compiled.read_specs([path]), {
            'mm/vmscan.c': ({'shrink_slab', 'do_shrink_slab', 'struct shrinker_info'},
                            {'static DECLARE_RWSEM(shrinker_rwsem);'})})

    def test_a_file_the_configuration_does_not_build(self):
        mk = ['obj-y += shrinker.o', 'obj-$(CONFIG_SHRINKER_DEBUG) += shrinker_debug.o']
        self.assertEqual(compiled.unbuilt_by('mm/shrinker_debug.c', mk, '#define CONFIG_MEMCG 1\n'),
                         'CONFIG_SHRINKER_DEBUG is not set (obj-$(CONFIG_SHRINKER_DEBUG) in mm/Makefile)')
        self.assertIsNone(compiled.unbuilt_by('mm/shrinker_debug.c', mk, '#define CONFIG_SHRINKER_DEBUG 1\n'))
        self.assertIsNone(compiled.unbuilt_by('mm/shrinker.c', mk, ''))
        self.assertIsNone(compiled.unbuilt_by('include/linux/shrinker.h', mk, ''))

    def test_a_changed_declaration_the_glue_calls(self):
        diff = ('--- a/include/linux/shrinker.h\n+++ b/include/linux/shrinker.h\n'
                '-void shrinker_register(struct shrinker *shrinker);\n'
                '+void shrinker_register(struct shrinker *shrinker, int flags);\n'
                '-\tif (x)\n-\treturn y(1);\n')
        removed = compiled.removed_declarations(diff)
        self.assertEqual(removed, {'shrinker_register': 'void shrinker_register(struct shrinker *shrinker);'})
        d = tmpdir(self)
        glue = os.path.join(d, 'glue.c')
        with open(glue, 'w') as f:
            f.write('int a;\n\tshrinker_register(s);\n\tshrinker_register(t);\n')
        self.assertEqual(compiled.callers(removed, [glue]), [
            f'shrinker_register() (was: void shrinker_register(struct shrinker *shrinker);), called at {glue}:2'])

    def test_the_refusal_says_what_and_where(self):
        v = compiled.Verdict(status=compiled.OUTSIDE, error='E.', changes={'fs/a.c': ['f']},
                             outside={'fs/a.c': ['f']}, compiled='mm/shrinker.c')
        self.assertEqual(compiled.refusal(v, 'v6.12'), 'E.\n  the series changes:   fs/a.c: f\n'
                         '  not compiled:         fs/a.c: f\n  the lab compiles (v6.12): mm/shrinker.c')


class Spec(unittest.TestCase):
    def test_one_line_definitions(self):
        self.assertEqual(spec.defined_name('static DEFINE_MUTEX(shrinker_mutex);'), 'shrinker_mutex')
        self.assertEqual(spec.defined_name('static int shrinker_nr_max;'), 'shrinker_nr_max')
        self.assertEqual(spec.defined_name('#define SHRINKER_X 1'), 'SHRINKER_X')
        self.assertTrue(spec.one_line_definition('DEFINE_SRCU(shrinker_srcu);'))
        self.assertFalse(spec.one_line_definition('\tint local;'))
        self.assertFalse(spec.one_line_definition('#define LONG \\'))
        self.assertFalse(spec.one_line_definition('#include <linux/srcu.h>'))


class Check(unittest.TestCase):
    def test_the_first_differing_event(self):
        a, b = '{"i":0}\n{"i":1}\n', '{"i":0}\n{"i":2}\n{"i":3}\n'
        self.assertEqual(check.first_difference(a, b), (1, '{"i":1}', '{"i":2}'))
        self.assertEqual(check.first_difference(a, a), None)
        self.assertEqual(check.first_difference(a, a + '{"i":2}\n'), (2, None, '{"i":2}'))
        self.assertEqual(check.difference_text('check: s seed 1: n differs from r', 'r', 'n', a, a + 'x\n'),
                         'check: s seed 1: n differs from r at event 2:\n  r: (end of its log)\n  n: x')


class Report(unittest.TestCase):
    def test_the_report_lines_of_a_console(self):
        console = ('[    0.1] boot\nBUG: KASAN: slab-use-after-free in do_shrink_slab\nWARNING: a warning\n'
                   'BUG: KASAN: slab-use-after-free in do_shrink_slab\nINFO: task init:2 blocked\nplain\n')
        self.assertEqual(report.report_titles(console), [
            'BUG: KASAN: slab-use-after-free in do_shrink_slab', 'INFO: task init:2 blocked', 'WARNING: a warning'])

    def test_the_scene_of_a_scenario_comes_from_the_registry(self):
        self.assertEqual(report.scene_of('planted-bugs', 'v6.12'), 'planted-bugs')
        self.assertIsNone(report.scene_of('no-such-scenario', 'v6.12'))
        self.assertIsNone(report.scene_of('planted-bugs', 'not-a-kernel'))


class Lab(unittest.TestCase):
    ROWS = ('v6.12|v6.12|wasm/kernel-files-v6.12.txt|mm/shrinker.c|||\n'
            'srcu|srcu-shrinkers|wasm/kernel-files-v6.1.txt|mm/list_lru.c|a.txt b.txt|g.c|\n'
            'mine|variant/mine|wasm/kernel-files-v6.12.txt|mm/shrinker.c|||v6.12\n')

    def test_the_rows_make_prints(self):
        rows = lab.parse_rows(self.ROWS)
        self.assertEqual([r.name for r in rows], ['v6.12', 'srcu', 'mine'])
        self.assertEqual(rows[1].extract, 'a.txt b.txt')
        self.assertEqual(lab.base_of(rows, 'srcu-shrinkers').name, 'srcu')
        self.assertEqual(lab.base_of(rows, 'srcu').name, 'srcu')
        self.assertIsNone(lab.base_of(rows, 'mine'))     # a reviewer's variant is no base
        with self.assertRaises(ValueError):
            lab.parse_rows('a|b\n')

    def test_names_it_refuses(self):
        rows = lab.parse_rows(self.ROWS)
        self.assertIn('lower-case letters', lab.check_name(rows, 'Mine'))
        self.assertIn('is taken by a variant of the lab', lab.check_name(rows, 'srcu'))
        self.assertIn('is taken by a variant of the lab', lab.check_name(rows, 'selftest'))

    def test_what_make_reads_of_an_entry(self):
        self.assertEqual(lab.variant_mk('t', 'v6.1', 'v6.1', ['variants/t/extract/a.txt', 'wasm/extract/b.txt']),
                         '# Generated by kernel-tree/variant.sh: t, the series on v6.1\nREVIEW_VARIANTS += t\n'
                         't_BASE := v6.1\n# The extraction specs followed through the series '
                         '(kernel-tree/variant/spec.py)\nt_EXTRACT_OWN := variants/t/extract/a.txt wasm/extract/b.txt\n')
        e = {'name': 't', 'base': 'v6.12', 'baseBranch': 'v6.12', 'branch': 'variant/t', 'patches': ['a', 'b'],
             'subject': 'mm: s', 'messageId': 'm@x'}
        self.assertEqual(lab.listing(e, exists=lambda p: p.endswith('labrun')),
                         't\ton v6.12 (v6.12), branch variant/t, 2 patch(es), built: native\n\tmm: s <m@x>')


if __name__ == '__main__':
    unittest.main()
