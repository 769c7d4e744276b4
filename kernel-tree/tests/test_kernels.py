# SPDX-License-Identifier: GPL-2.0-only
"""kernel-tree/kernels.py: the registry refuses what it cannot use, and
derives each list the same way for every kernel."""
import copy
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import kernels  # noqa: E402


def manifest():
    """A small registry: two trees, a recipe family and a kernel of each kind that needs one."""
    return copy.deepcopy({
        'trees': [{'branch': 'v1'}, {'branch': 'v2'}],
        'series': [{'id': 's'}],
        'scenes': {'a': {'scenario': 'sa'}, 'b': {'scenario': 'sb'}},
        'recipes': {
            'r1': {'files': 'f1.txt', 'srcs': ['a.c', 'b.c'], 'glue': ['g.c'], 'defs': ['-DV=1'], 'overlay': 'o1'},
            'r2': {'like': 'r1', 'files': 'f2.txt', 'add': {'srcs': ['c.c']}, 'scenarios': ['s.c']},
        },
        'kernels': [
            {'name': 'one', 'branch': 'v1', 'kind': 'upstream', 'recipe': 'r1', 'scenes': ['a'],
             'tests': ['test_x'], 'kunit': {'referee': True}, 'explore': {'race': None}},
            {'name': 'two', 'branch': 'v2', 'kind': 'upstream', 'recipe': 'r1', 'scenes': ['a', 'b'], 'opens': ['b'],
             'tests': ['test_x'], 'bench': ['m']},
            {'name': 'two-broken', 'branch': 'broken', 'base': 'v2', 'kind': 'break', 'about': 's', 'recipe': 'r2',
             'defs': ['-DB=1'], 'scenes': ['b'], 'tests': ['test_x', 'test_y'], 'traits': ['t'],
             'kunit': {'base_traces': 'differs', 'scenarios': ['k']},
             'explore': {'race': {'kind': 'kasan', 'preemptions': 1}}, 'bench': ['m'],
             'diff': {'title': 'Broken.'}},
        ],
    })


def load(m):
    return kernels.Registry(m, check_files=False)


class Refusals(unittest.TestCase):
    def refused(self, edit, *words):
        m = manifest()
        edit(m)
        with self.assertRaises(kernels.RegistryError) as e:
            load(m)
        for w in words:
            self.assertIn(w, str(e.exception))

    def test_a_kernel_it_cannot_read(self):
        self.refused(lambda m: m['kernels'][0].update(colour='red'), 'unknown key(s) colour')
        self.refused(lambda m: m['kernels'][0].pop('recipe'), 'no recipe')
        self.refused(lambda m: m['kernels'][1].update(name='one'), 'name "one" is given twice')
        self.refused(lambda m: m['kernels'][1].update(name='Two'), 'name "Two"')
        self.refused(lambda m: m['kernels'][1].update(name='selftest'), 'not selftest')
        self.refused(lambda m: m['kernels'][0].update(kind='fork'), 'kind "fork"')
        self.refused(lambda m: m['kernels'][0].update(scenes='a'), 'scenes must be a list')
        self.refused(lambda m: m['kernels'][0].update(explore={'race': {'kind': 'kasan'}}), 'explore.race')
        self.refused(lambda m: m['kernels'][2]['kunit'].update(base_traces='maybe'), 'base_traces')
        self.refused(lambda m: m['kernels'][2].update(diff={'paths': []}), 'diff takes a title')

    def test_branches_and_bases(self):
        self.refused(lambda m: m['kernels'][0].update(branch='v3'), 'built from a tree')
        self.refused(lambda m: m['kernels'][0].update(base='v2'), 'has no base')
        self.refused(lambda m: m['kernels'][2].pop('base'), 'needs a base')
        self.refused(lambda m: m['kernels'][2].update(branch='v2'), 'has a branch of its own')
        self.refused(lambda m: m['kernels'][2].update(about='t'), 'about "t" is no series')

    def test_tree_branches(self):
        tb = {'branch': 'p1', 'base': 'v2', 'series': 's', 'title': 'T', 'about': 'A'}
        self.refused(lambda m: m.update(tree_branches=[dict(tb, colour='red')]), 'unknown key(s) colour')
        self.refused(lambda m: m.update(tree_branches=[dict(tb, base='p0')]), 'base p0 is neither')
        self.refused(lambda m: m.update(tree_branches=[dict(tb, branch='v1')]), 'branch v1 is given twice')
        self.refused(lambda m: m.update(tree_branches=[dict(tb, series='x')]), 'series "x"')
        self.refused(lambda m: m.update(tree_branches=[{k: v for k, v in tb.items() if k != 'about'}]), 'no about')
        # a branch on the one before it, not on one after it
        self.refused(lambda m: m.update(tree_branches=[dict(tb, branch='p2', base='p1'), tb]), 'base p1 is neither')
        m = manifest()
        m['tree_branches'] = [tb, dict(tb, branch='p2', base='p1')]
        self.assertEqual(load(m).patched_branches()[-2:], [('p1', 'v2'), ('p2', 'p1')])

    def test_scenes_recipes_and_tests(self):
        self.refused(lambda m: m['kernels'][0].update(opens=['b']), 'opens a scene it is not in')
        self.refused(lambda m: m['kernels'][0].update(scenes=['c']), 'scene c is not in "scenes"')
        self.refused(lambda m: m['scenes'].update(c={'scenario': 1}), '"scenes" maps each scene id')
        self.refused(lambda m: m['kernels'][0].update(scenes=['a', 'b'], opens=['b']), 'scene b is opened by two')
        self.refused(lambda m: m['kernels'][0].update(recipe='r3'), 'no recipe "r3"')
        self.refused(lambda m: m['recipes']['r1'].update(like='r2'), 'is like itself')
        self.refused(lambda m: m['recipes']['r2'].update(add={'files': ['x']}), 'add.files')
        self.refused(lambda m: m['recipes']['r1'].pop('overlay'), 'no overlay')
        # A test finds its kernel by branch: two kernels of one branch may not share one.
        self.refused(lambda m: m['kernels'].append(dict(m['kernels'][0], name='one-more', kunit={})),
                     'both built from v1 and both run test_x')


class Derived(unittest.TestCase):
    def setUp(self):
        self.reg = load(manifest())

    def test_recipes_resolve_with_like_add_and_the_kernels_defs(self):
        r = self.reg.recipe('two-broken')
        self.assertEqual(r['files'], 'f2.txt')
        self.assertEqual(r['srcs'], ['a.c', 'b.c', 'c.c'])
        self.assertEqual(r['glue'], ['g.c'])
        self.assertEqual(r['defs'], ['-DV=1', '-DB=1'])
        self.assertEqual(r['scenarios'], ['s.c'])
        self.assertEqual(self.reg.recipe('one')['scenarios'], [])

    def test_scenes_open_on_their_default(self):
        self.assertEqual(self.reg.scene_kernels(), {'a': ['one', 'two'], 'b': ['two', 'two-broken']})

    def test_lists(self):
        self.assertEqual(self.reg.names(test='test_y'), ['two-broken'])
        self.assertEqual(self.reg.names(bench='m'), ['two', 'two-broken'])
        self.assertEqual(self.reg.names(kind='break'), ['two-broken'])
        self.assertEqual(self.reg.explore_races(), {'race': {'one': None, 'two-broken': {'kind': 'kasan', 'preemptions': 1}}})
        self.assertEqual(self.reg.patched_branches(), [('broken', 'v2')])
        self.assertEqual(self.reg.kunit_rows(), [('referee', 'v1', 'one'), ('compared', 'v2', 'two-broken', 'differs', 'k')])
        self.assertEqual(self.reg.comparison('two-broken'), 'v2..broken')
        self.assertEqual(self.reg.scene_of('sb', 'two-broken'), 'b')
        self.assertIsNone(self.reg.scene_of('sa', 'two-broken'))
        self.assertIsNone(self.reg.comparison('one'))

    def test_the_make_include(self):
        text = kernels.make_text(self.reg, 'gen')
        lines = dict(l.split(' := ', 1) if ' := ' in l else (l.rstrip(' :='), '') for l in text.split('\n')
                     if ':=' in l)
        self.assertEqual(lines['VARIANTS'], 'one two two-broken')
        self.assertEqual(lines['two-broken_BRANCH'], 'broken')
        self.assertEqual(lines['two-broken_SRCS'], 'a.c b.c c.c')
        self.assertEqual(lines['two-broken_DEFS'], '-DV=1 -DB=1')
        self.assertEqual(lines['two-broken_SCEN'], 's.c')
        self.assertEqual(lines['two-broken_RECIPE'], 'gen/two-broken.recipe')
        self.assertEqual(lines['test_x_VARIANTS'], 'one two two-broken')
        self.assertEqual(lines['SCENARIO_TESTS'], 'test_x test_y')
        self.assertEqual(lines['KUNIT_BRANCHES'], 'v1')
        self.assertEqual(lines['kunit_variant_v1'], 'one')
        self.assertEqual(lines['bench_m_VARIANTS'], 'two two-broken')

    def test_a_recipe_file_changes_only_with_its_recipe(self):
        m = manifest()
        before = {n: kernels.recipe_text(self.reg, n) for n in self.reg.names()}
        m['kernels'][2]['defs'] = ['-DB=2']
        after = load(m)
        self.assertEqual(kernels.recipe_text(after, 'one'), before['one'])
        self.assertNotEqual(kernels.recipe_text(after, 'two-broken'), before['two-broken'])

    def test_the_page_and_the_tests_tables(self):
        ts = kernels.ts_text(self.reg)
        self.assertIn('"b": ["two", "two-broken"]', ts)
        self.assertIn('"comparison": "v2..broken"', ts)
        self.assertIn('"b": "sb",', ts)
        c = kernels.c_text(self.reg)
        self.assertIn('{ "two-broken", "broken", "break", (const char *const[]){ "test_x", "test_y", NULL }', c)
        self.assertIn('{ "race", "kasan", 1 }', c)


class TheProjectsRegistry(unittest.TestCase):
    def test_it_reads_with_its_files(self):
        reg = kernels.load()
        self.assertTrue(reg.kernels)


if __name__ == '__main__':
    unittest.main()
