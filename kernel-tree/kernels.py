#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The lab's kernels: the "kernels" and "recipes" of kernel-tree/manifest.json,
read, checked, and every list the project keeps of them derived.

Usage: python3 kernel-tree/kernels.py COMMAND [ARGS]

  check                 check the registry (make test runs it)
  mk OUT.mk DIR         the make include wasm/build.mk reads (VARIANTS,
                        <variant>_BRANCH, _FILES, _SRCS ..., the test, bench
                        and kunit lists), and DIR/<variant>.recipe for each
                        kernel, rewritten only when the kernel's recipe
                        changes (its objects depend on it)
  ts OUT.ts             the page's list (web/src/engine/generated/kernels.ts)
  c OUT.h               the native tests' table (wasm/tests/lab_kernels.h reads it)
  list [--scene S] [--test T] [--bench B] [--recipe R] [--kind K] [--explore]
                        variant names, space-separated, in the registry's order
  kunit                 the referee's table (kernel-tree/kunit/compare.sh):
                        "referee BRANCH VARIANT" and
                        "compared BASE VARIANT same|differs SCENARIO,...|-"
  branches              "BRANCH BASE" of each branch made from patches
                        (kernel-tree/build-tree.sh, edit-series.sh)
  tree-branches         the "tree_branches" (make kunit-lru-port)
  scene-of SCENARIO VARIANT
                        the scene of the page that runs SCENARIO on VARIANT
                        (a built-in kernel), or nothing

The manifest's "scenes" maps each scene of the page (web/src/scenes/<id>/)
to the scenario it runs; the page's scene definitions read it
(scenarioOf() in web/src/scenes/kernels.ts).

A kernel entry (the manifest's "comment" says what the kinds mean):

  name      the variant: build/<flavour>/<name>/, the page's variant=
  branch    the branch of kernel-tree/linux it is built from
  base      the branch that one is made on (not for upstream); its
            patches are kernel-tree/patches/<branch>/
  kind      upstream | series | port | break | without
  series    the id of the series it ports or applies; about: the one a
            break or without is about; title, removes, expect, measures,
            proposal: what the page and the docs say of it
  recipe    a key of "recipes"; defs: defines added to the recipe's
  scenes    the scenes ("scenes") whose kernel picker offers it, in registry order,
            the first the scene's default unless a kernel "opens" it
  tests     the native test programs (wasm/tests/<test>.c) run on it;
            every kernel runs test_fuzz_ops
  traits    what it does differently, as the native tests ask
            (lab_kernel_has_trait())
  kunit     referee: User-Mode Linux built from its branch referees it
            (make kunit); base_traces: same | differs, whether its native
            traces must equal those of UML built from its base; scenarios:
            only those kunit.def scenarios (default: all the base runs)
  explore   race id (wasm/explore.json) -> null (no execution within the
            race's bound may fail) or {kind, preemptions} (the failure
            the explorer must find, with the fewest preemptions)
  bench     the make bench scripts that run it (memcg, lru, inode)
  diff      the What changed panel's comparison with its base
            (kernel-tree/diffs.py): title; paths (default diffs.PATHS);
            from and per_function for the v6.1..v6.12 comparison

The manifest's "tree_branches" are branches of kernel-tree/linux made from
patches that the simulated machine does not build (yet): User-Mode Linux
alone boots them (kernel-tree/kunit). Each has branch, base (a tree or a
branch made from patches before it), series, title, about, and optionally
rfc_kernel (the name of that kernel in the series' own cover letter).

A recipe: files (the list of kernel files read from the branch), srcs
(compiled whole), extract (wasm/extract/ specs), glue, defs, overlay,
scenarios (scenario files only this family runs); like: another recipe
whose keys it takes unless it gives them; add: lists appended to those.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kunitdef  # noqa: E402

KINDS = ('upstream', 'series', 'port', 'break', 'without')
KERNEL_KEYS = ('name', 'branch', 'base', 'kind', 'series', 'about', 'title', 'proposal', 'removes', 'expect',
               'measures', 'recipe', 'defs', 'scenes', 'opens', 'tests', 'traits', 'kunit', 'explore', 'bench', 'diff')
REQUIRED = ('name', 'branch', 'kind', 'recipe')
RECIPE_LISTS = ('srcs', 'extract', 'glue', 'defs', 'scenarios')
RECIPE_KEYS = ('about', 'like', 'add', 'files', 'overlay') + RECIPE_LISTS
TREE_BRANCH_KEYS = ('branch', 'base', 'series', 'title', 'about', 'rfc_kernel')
KUNIT_KEYS = ('referee', 'base_traces', 'scenarios')
DIFF_KEYS = ('title', 'paths', 'from', 'per_function')
NAME = re.compile(r'^[a-z0-9][a-z0-9._-]{0,40}$')
# Names the build takes for something else: the library tests' program
# (wasm/build.mk's selftest) and the reviewer's variants' folder.
RESERVED = ('selftest', 'host', 'variant')


class RegistryError(Exception):
    pass


def root_of(root=None):
    return root or os.path.dirname(HERE)


def load_manifest(root=None):
    with open(os.path.join(root_of(root), 'kernel-tree', 'manifest.json'), encoding='utf-8') as f:
        return json.load(f)


def resolve_recipe(recipes, key, seen=()):
    """A recipe with like and add applied: {files, overlay, srcs, ...}."""
    if key not in recipes:
        raise RegistryError(f'no recipe "{key}" in "recipes"')
    if key in seen:
        raise RegistryError(f'recipe "{key}" is like itself ({" -> ".join(seen + (key,))})')
    r = recipes[key]
    bad = sorted(set(r) - set(RECIPE_KEYS))
    if bad:
        raise RegistryError(f'recipe "{key}": unknown key(s) {", ".join(bad)} (one of {", ".join(RECIPE_KEYS)})')
    out = dict(resolve_recipe(recipes, r['like'], seen + (key,))) if 'like' in r else {}
    for k in ('files', 'overlay') + RECIPE_LISTS:
        if k in r:
            out[k] = list(r[k]) if k in RECIPE_LISTS else r[k]
    for k, v in r.get('add', {}).items():
        if k not in RECIPE_LISTS:
            raise RegistryError(f'recipe "{key}": add.{k}: only lists ({", ".join(RECIPE_LISTS)}) take additions')
        out[k] = out.get(k, []) + list(v)
    for k in RECIPE_LISTS:
        out.setdefault(k, [])
        if not all(isinstance(x, str) for x in out[k]):
            raise RegistryError(f'recipe "{key}": {k} must be a list of strings')
    for k in ('files', 'overlay'):
        if not isinstance(out.get(k), str):
            raise RegistryError(f'recipe "{key}": no {k} (a path)')
    return out


class Registry:
    """The kernels in the registry's order, checked."""

    def __init__(self, manifest, root=None, check_files=True):
        self.root = root_of(root)
        self.manifest = manifest
        self.trees = [t['branch'] for t in manifest.get('trees', [])]
        self.series = [s['id'] for s in manifest.get('series', [])]
        self.recipes = manifest.get('recipes', {})
        self.scenes = manifest.get('scenes', {})
        if not isinstance(self.scenes, dict) or not all(
                isinstance(v, dict) and set(v) == {'scenario'} and isinstance(v['scenario'], str)
                for v in self.scenes.values()):
            raise RegistryError('"scenes" maps each scene id to {"scenario": NAME}')
        self.kernels = manifest.get('kernels')
        if not isinstance(self.kernels, list) or not self.kernels:
            raise RegistryError('kernel-tree/manifest.json has no "kernels" list')
        self.tree_branches = manifest.get('tree_branches', [])
        self._check_tree_branches(check_files)
        self.by_name = {}
        for i, k in enumerate(self.kernels):
            self._check(k, i)
            self.by_name[k['name']] = k
        self._check_all(check_files)

    # ---- checks ------------------------------------------------------------
    def _check_tree_branches(self, check_files):
        if not isinstance(self.tree_branches, list):
            raise RegistryError('"tree_branches" is a list')
        known = list(self.trees)
        for i, t in enumerate(self.tree_branches):
            where = f'tree_branches[{i}]'
            if not isinstance(t, dict):
                raise RegistryError(f'{where}: not an object')
            bad = sorted(set(t) - set(TREE_BRANCH_KEYS))
            if bad:
                raise RegistryError(f'{where}: unknown key(s) {", ".join(bad)} (one of {", ".join(TREE_BRANCH_KEYS)})')
            for key in ('branch', 'base', 'series', 'title', 'about'):
                if not isinstance(t.get(key), str) or not t[key]:
                    raise RegistryError(f'{where}: no {key}')
            if t['branch'] in known:
                raise RegistryError(f'{where}: branch {t["branch"]} is given twice')
            if t['base'] not in known:
                raise RegistryError(f'{where}: base {t["base"]} is neither a tree nor a tree branch before it')
            if t['series'] not in self.series:
                raise RegistryError(f'{where}: series "{t["series"]}" is no series of the manifest')
            known.append(t['branch'])
            series = os.path.join(self.root, 'kernel-tree', 'patches', t['branch'], 'series')
            if check_files and not os.path.isfile(series):
                raise RegistryError(f'{where}: no kernel-tree/patches/{t["branch"]}/series')

    def _check(self, k, i):
        where = f'kernels[{i}]' + (f' ({k["name"]})' if isinstance(k, dict) and 'name' in k else '')
        if not isinstance(k, dict):
            raise RegistryError(f'{where}: not an object')
        bad = sorted(set(k) - set(KERNEL_KEYS))
        if bad:
            raise RegistryError(f'{where}: unknown key(s) {", ".join(bad)} (one of {", ".join(KERNEL_KEYS)})')
        for key in REQUIRED:
            if not isinstance(k.get(key), str) or not k[key]:
                raise RegistryError(f'{where}: no {key}')
        name = k['name']
        if not NAME.match(name) or name in RESERVED:
            raise RegistryError(f'{where}: name "{name}": lower-case letters, digits, ".", "_" and "-", '
                                f'starting with a letter or digit, not {", ".join(RESERVED)}')
        if name in self.by_name:
            raise RegistryError(f'{where}: name "{name}" is given twice')
        if k['kind'] not in KINDS:
            raise RegistryError(f'{where}: kind "{k["kind"]}" is not one of {", ".join(KINDS)}')
        if k['kind'] == 'upstream':
            if k['branch'] not in self.trees:
                raise RegistryError(f'{where}: an upstream kernel is built from a tree ({", ".join(self.trees)}), '
                                    f'not "{k["branch"]}"')
            if 'base' in k:
                raise RegistryError(f'{where}: an upstream kernel has no base')
        else:
            # a tree, or the branch of a kernel before it made from patches
            # (a series ported as more than one kernel, each on the last)
            made = [x['branch'] for x in self.kernels if x['kind'] != 'upstream']
            if k.get('base') not in list(self.trees) + made:
                raise RegistryError(f'{where}: a {k["kind"]} kernel needs a base, one of the trees '
                                    f'({", ".join(self.trees)}) or the branch of a kernel before it')
            if k['branch'] in self.trees:
                raise RegistryError(f'{where}: a {k["kind"]} kernel has a branch of its own, not the tree '
                                    f'{k["branch"]}')
        for key in ('series', 'about'):
            if key in k and k[key] not in self.series:
                raise RegistryError(f'{where}: {key} "{k[key]}" is no series of the manifest ({", ".join(self.series)})')
        resolve_recipe(self.recipes, k['recipe'])
        for key in ('defs', 'scenes', 'opens', 'tests', 'traits', 'bench'):
            v = k.get(key, [])
            if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v) or len(set(v)) != len(v):
                raise RegistryError(f'{where}: {key} must be a list of different strings')
        for sc in k.get('scenes', []):
            if sc not in self.scenes:
                raise RegistryError(f'{where}: scene {sc} is not in "scenes" ({", ".join(self.scenes)})')
        if not set(k.get('opens', [])) <= set(k.get('scenes', [])):
            raise RegistryError(f'{where}: opens a scene it is not in (opens {k["opens"]}, scenes {k.get("scenes", [])})')
        ku = k.get('kunit', {})
        if not isinstance(ku, dict) or set(ku) - set(KUNIT_KEYS):
            raise RegistryError(f'{where}: kunit takes {", ".join(KUNIT_KEYS)}')
        if 'referee' in ku and ku['referee'] is not True:
            raise RegistryError(f'{where}: kunit.referee is true or left out')
        if 'base_traces' in ku:
            if ku['base_traces'] not in ('same', 'differs'):
                raise RegistryError(f'{where}: kunit.base_traces is "same" or "differs"')
            if 'base' not in k:
                raise RegistryError(f'{where}: kunit.base_traces needs a base')
        if 'scenarios' in ku and 'base_traces' not in ku:
            raise RegistryError(f'{where}: kunit.scenarios says which scenarios base_traces compares')
        ex = k.get('explore', {})
        if not isinstance(ex, dict):
            raise RegistryError(f'{where}: explore maps a race id to null or {{kind, preemptions}}')
        for race, e in ex.items():
            if e is not None and (not isinstance(e, dict) or set(e) != {'kind', 'preemptions'} or
                                  not isinstance(e['kind'], str) or not isinstance(e['preemptions'], int) or
                                  e['preemptions'] < 0):
                raise RegistryError(f'{where}: explore.{race}: null or {{"kind": ..., "preemptions": N}}')
        d = k.get('diff')
        if d is not None:
            if not isinstance(d, dict) or set(d) - set(DIFF_KEYS) or not isinstance(d.get('title'), str):
                raise RegistryError(f'{where}: diff takes a title and {", ".join(DIFF_KEYS[1:])}')
            if 'from' not in d and 'base' not in k:
                raise RegistryError(f'{where}: diff compares with the base, or with "from"')

    def _check_all(self, check_files):
        names = [k['name'] for k in self.kernels]
        openers = {}
        for k in self.kernels:
            for s in k.get('opens', []):
                if s in openers:
                    raise RegistryError(f'scene {s} is opened by two kernels: {openers[s]} and {k["name"]}')
                openers[s] = k['name']
        # The native tests find their kernel by branch (lab_kernel_of()):
        # two kernels of one branch may not run the same test.
        seen = {}
        for k in self.kernels:
            for t in k.get('tests', []):
                other = seen.setdefault((k['branch'], t), k['name'])
                if other != k['name']:
                    raise RegistryError(f'{other} and {k["name"]} are both built from {k["branch"]} and both run {t}: '
                                        'the test could not tell them apart')
        referees = [k['branch'] for k in self.kernels if k.get('kunit', {}).get('referee')]
        if len(set(referees)) != len(referees):
            raise RegistryError('two kernels of one branch are refereed by User-Mode Linux')
        if not check_files:
            return
        root = self.root
        races = set()
        explore = os.path.join(root, 'wasm', 'explore.json')
        with open(explore, encoding='utf-8') as f:
            races = {r['id'] for r in json.load(f)['races']}
        kdefs = kunitdef.read(os.path.join(root, 'wasm', 'scenarios', 'kunit.def'))
        for d in kdefs:
            if d['variant'] != '-' and d['variant'] not in names:
                raise RegistryError(f'wasm/scenarios/kunit.def: scenario {d["name"]} runs on variant {d["variant"]}, '
                                    'which is no kernel of the registry')
        scenarios = {d['name'] for d in kdefs}
        for s in self.scenes:
            if not os.path.isdir(os.path.join(root, 'web', 'src', 'scenes', s)):
                raise RegistryError(f'scenes: no scene {s} (web/src/scenes/{s}/)')
        for k in self.kernels:
            n = k['name']
            r = self.recipe(n)
            for p in [r['files'], r['overlay']] + r['extract'] + r['glue'] + r['scenarios']:
                if not os.path.exists(os.path.join(root, p)):
                    raise RegistryError(f'{n}: recipe {k["recipe"]}: no {p}')
            if k['kind'] != 'upstream':
                series = os.path.join(root, 'kernel-tree', 'patches', k['branch'], 'series')
                if not os.path.isfile(series):
                    raise RegistryError(f'{n}: no kernel-tree/patches/{k["branch"]}/series (its patches, one a line)')
            for t in k.get('tests', []):
                if not os.path.isfile(os.path.join(root, 'wasm', 'tests', t + '.c')):
                    raise RegistryError(f'{n}: no test wasm/tests/{t}.c')
            for race in k.get('explore', {}):
                if race not in races:
                    raise RegistryError(f'{n}: explore: no race {race} in wasm/explore.json')
            for s in k.get('kunit', {}).get('scenarios', []):
                if s not in scenarios:
                    raise RegistryError(f'{n}: kunit.scenarios: no scenario {s} in wasm/scenarios/kunit.def')

    # ---- derived -----------------------------------------------------------
    def names(self, scene=None, test=None, bench=None, recipe=None, kind=None, explore=False):
        out = []
        for k in self.kernels:
            if scene and scene not in k.get('scenes', []):
                continue
            if test and test not in k.get('tests', []):
                continue
            if bench and bench not in k.get('bench', []):
                continue
            if recipe and k['recipe'] != recipe:
                continue
            if kind and k['kind'] != kind:
                continue
            if explore and not k.get('explore'):
                continue
            out.append(k['name'])
        return out

    def recipe(self, name):
        """The kernel's build recipe, resolved, with its own defs."""
        k = self.by_name[name]
        r = resolve_recipe(self.recipes, k['recipe'])
        r['defs'] = r['defs'] + k.get('defs', [])
        return r

    def scene_kernels(self):
        """{scene: [variant...]}, the default first."""
        scenes = {}
        for k in self.kernels:
            for s in k.get('scenes', []):
                scenes.setdefault(s, []).append(k['name'])
        for k in self.kernels:
            for s in k.get('opens', []):
                scenes[s].remove(k['name'])
                scenes[s].insert(0, k['name'])
        return scenes

    def scene_of(self, scenario, name):
        """The first scene that runs scenario and offers kernel name, or None."""
        for s in self.by_name[name].get('scenes', []):
            if self.scenes[s]['scenario'] == scenario:
                return s
        return None

    def comparison(self, name):
        """The What changed comparison's id, FROM..BRANCH, or None."""
        k = self.by_name[name]
        d = k.get('diff')
        return f'{d.get("from", k.get("base"))}..{k["branch"]}' if d else None

    def explore_races(self):
        """{race: {variant: expectation}} in the registry's order."""
        out = {}
        for k in self.kernels:
            for race, e in k.get('explore', {}).items():
                out.setdefault(race, {})[k['name']] = e
        return out

    def tests(self):
        out = []
        for k in self.kernels:
            out += [t for t in k.get('tests', []) if t not in out]
        return sorted(out)

    def benches(self):
        out = []
        for k in self.kernels:
            out += [b for b in k.get('bench', []) if b not in out]
        return out

    def patched_branches(self):
        """[(branch, base)] of the branches made from patches, each once."""
        out = []
        for k in self.kernels:
            if k['kind'] != 'upstream' and (k['branch'], k['base']) not in out:
                out.append((k['branch'], k['base']))
        # in their order: each made on its base, which comes before it
        out += [(t['branch'], t['base']) for t in self.tree_branches]
        return out

    def kunit_rows(self):
        rows = []
        for k in self.kernels:
            ku = k.get('kunit', {})
            if ku.get('referee'):
                rows.append(('referee', k['branch'], k['name']))
        for k in self.kernels:
            ku = k.get('kunit', {})
            if 'base_traces' in ku:
                rows.append(('compared', k['base'], k['name'], ku['base_traces'],
                             ','.join(ku.get('scenarios', [])) or '-'))
        return rows

    def kunit_def_variants(self):
        kdefs = kunitdef.read(os.path.join(self.root, 'wasm', 'scenarios', 'kunit.def'))
        return [n for n in self.names() if n in {d['variant'] for d in kdefs}]


def load(root=None, check_files=True):
    return Registry(load_manifest(root), root, check_files)


# ---- writers -----------------------------------------------------------------
GENERATED = 'Generated by kernel-tree/kernels.py from kernel-tree/manifest.json ("kernels", "recipes"): do not edit.'


def write_if_changed(path, text):
    """Write path unless it holds text already; whether it was written."""
    try:
        with open(path, encoding='utf-8') as f:
            if f.read() == text:
                return False
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(tmp, path)
    return True


def make_text(reg, recipe_dir):
    def line(var, words):
        return f'{var} := {" ".join(words)}'.rstrip()
    out = [f'# {GENERATED}', '']
    out.append(line('VARIANTS', reg.names()))
    for kind in KINDS:
        out.append(line(f'{kind}_KIND_VARIANTS', reg.names(kind=kind)))
    for r in reg.recipes:
        out.append(line(f'{r}_RECIPE_VARIANTS', reg.names(recipe=r)))
    out.append(line('SCENARIO_TESTS', reg.tests()))
    for t in reg.tests():
        out.append(line(f'{t}_VARIANTS', reg.names(test=t)))
    out.append(line('BENCHES', reg.benches()))
    for b in reg.benches():
        out.append(line(f'bench_{b}_VARIANTS', reg.names(bench=b)))
    out.append(line('BENCH_VARIANTS', [n for n in reg.names() if reg.by_name[n].get('bench')]))
    out.append(line('EXPLORE_VARIANTS', reg.names(explore=True)))
    rows = reg.kunit_rows()
    out.append(line('KUNIT_BRANCHES', [r[1] for r in rows if r[0] == 'referee']))
    for r in rows:
        if r[0] == 'referee':
            out.append(line(f'kunit_variant_{r[1]}', [r[2]]))
    out.append(line('KUNIT_REFEREE_VARIANTS', [r[2] for r in rows if r[0] == 'referee']))
    out.append(line('KUNIT_DEF_VARIANTS', reg.kunit_def_variants()))
    out.append(line('KUNIT_COMPARED_VARIANTS', [r[2] for r in rows if r[0] == 'compared']))
    for k in reg.kernels:
        n = k['name']
        r = reg.recipe(n)
        out += ['', f'# {n}: {k["kind"]}, branch {k["branch"]}' + (f' on {k["base"]}' if 'base' in k else '') +
                f', recipe {k["recipe"]}',
                line(f'{n}_BRANCH', [k['branch']]),
                line(f'{n}_KIND', [k['kind']]),
                line(f'{n}_BASE_BRANCH', [k.get('base', '')]),
                line(f'{n}_FILES', [r['files']]),
                line(f'{n}_SRCS', r['srcs']),
                line(f'{n}_EXTRACT', r['extract']),
                line(f'{n}_GLUE', r['glue']),
                line(f'{n}_DEFS', r['defs']),
                line(f'{n}_OVERLAY', [r['overlay']]),
                line(f'{n}_SCEN', r['scenarios']),
                line(f'{n}_RECIPE', [f'{recipe_dir}/{n}.recipe'])]
    return '\n'.join(out) + '\n'


def recipe_text(reg, name):
    k = reg.by_name[name]
    return json.dumps({'name': name, 'branch': k['branch'], 'recipe': reg.recipe(name)}, indent=1, sort_keys=True) + '\n'


def ts_text(reg):
    kernels = []
    for k in reg.kernels:
        kernels.append({
            'name': k['name'], 'branch': k['branch'], 'base': k.get('base'), 'kind': k['kind'],
            'title': k.get('title'), 'scenes': k.get('scenes', []), 'traits': k.get('traits', []),
            'comparison': reg.comparison(k['name']),
        })
    j = lambda v: json.dumps(v, ensure_ascii=False)  # noqa: E731
    out = [
        '// SPDX-License-Identifier: GPL-2.0-only',
        f'// {GENERATED}',
        '',
        "export type KernelKind = " + ' | '.join(f"'{x}'" for x in KINDS) + ';',
        '',
        '/** A kernel of the lab, as the registry names it. */',
        'export interface LabKernel {',
        '  /** The variant: a permalink\'s variant=, the kernel picker\'s entry. */',
        '  name: string;',
        '  /** The branch of kernel-tree/linux it is built from, and the branch that one is made on. */',
        '  branch: string;',
        '  base: string | null;',
        '  kind: KernelKind;',
        '  title: string | null;',
        '  scenes: readonly string[];',
        '  traits: readonly string[];',
        '  /** Its What changed comparison (kernel-tree/diffs.py), FROM..BRANCH. */',
        '  comparison: string | null;',
        '}',
        '',
        'export const KERNELS: readonly LabKernel[] = [',
    ]
    out += [f'  {j(x)},' for x in kernels]
    out += ['];', '',
            "/** Each scene's kernels, the first its default. */",
            'export const SCENE_KERNELS: Readonly<Record<string, readonly string[]>> = {']
    out += [f'  {j(s)}: {j(v)},' for s, v in reg.scene_kernels().items()]
    out += ['};', '',
            "/** The scenario each scene runs. */",
            'export const SCENE_SCENARIOS: Readonly<Record<string, string>> = {']
    out += [f'  {j(s)}: {j(v["scenario"])},' for s, v in reg.scenes.items()]
    out += ['};', '',
            '/** What the explorer must find: race id, then kernel, then null (no failing execution within the',
            " * race's bound) or the kind of failure and the fewest preemptions it takes. */",
            'export const EXPLORE_EXPECT: Readonly<Record<string, Readonly<Record<string, '
            '{ kind: string; preemptions: number } | null>>>> = {']
    out += [f'  {j(r)}: {j(v)},' for r, v in reg.explore_races().items()]
    out += ['};', '']
    return '\n'.join(out)


def c_text(reg):
    def s(v):
        return json.dumps(v) if v is not None else 'NULL'

    def strs(v):
        return '(const char *const[]){ ' + ''.join(f'{s(x)}, ' for x in v) + 'NULL }'
    out = ['/* SPDX-License-Identifier: GPL-2.0-only */', f'/* {GENERATED} */',
           '/* The rows of struct lab_kernel (wasm/tests/lab_kernels.h), one a kernel. */']
    for k in reg.kernels:
        ex = ''.join(f'{{ {s(race)}, {s(e and e["kind"])}, {e["preemptions"] if e else 0} }}, '
                     for race, e in k.get('explore', {}).items())
        out.append(f'{{ {s(k["name"])}, {s(k["branch"])}, {s(k["kind"])}, {strs(k.get("tests", []))}, '
                   f'{strs(k.get("traits", []))}, (const struct lab_kernel_expect[]){{ {ex}{{ NULL, NULL, 0 }} }} }},')
    return '\n'.join(out) + '\n'


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd, args = argv[1], argv[2:]
    try:
        reg = load()
    except (RegistryError, kunitdef.KunitDefError, OSError, ValueError) as e:
        sys.exit(f'kernel-tree/manifest.json: {e}')
    if cmd == 'check':
        print(f'kernels.py: {len(reg.kernels)} kernels, {len(reg.recipes)} recipes: the registry reads')
    elif cmd == 'mk' and len(args) == 2:
        out, rdir = args
        for n in reg.names():
            write_if_changed(f'{rdir}/{n}.recipe', recipe_text(reg, n))
        for f in os.listdir(rdir):
            if f.endswith('.recipe') and f[:-len('.recipe')] not in reg.by_name:
                os.remove(os.path.join(rdir, f))
        # Always written: make compares its time with the manifest's.
        text = make_text(reg, rdir)
        os.makedirs(os.path.dirname(out) or '.', exist_ok=True)
        with open(out + '.tmp', 'w', encoding='utf-8') as f:
            f.write(text)
        os.replace(out + '.tmp', out)
    elif cmd == 'ts' and len(args) == 1:
        write_if_changed(args[0], ts_text(reg))
    elif cmd == 'c' and len(args) == 1:
        write_if_changed(args[0], c_text(reg))
    elif cmd == 'list':
        opts = {}
        it = iter(args)
        for a in it:
            if a == '--explore':
                opts['explore'] = True
            elif a in ('--scene', '--test', '--bench', '--recipe', '--kind'):
                v = next(it, None)
                if v is None:
                    sys.exit(f'kernels.py list: {a} takes a value')
                opts[a[2:]] = v
            else:
                sys.exit(f'kernels.py list: unknown option {a}')
        print(' '.join(reg.names(**opts)))
    elif cmd == 'kunit':
        for r in reg.kunit_rows():
            print(' '.join(r))
    elif cmd == 'scene-of' and len(args) == 2:
        if args[1] not in reg.by_name:
            sys.exit(f'kernels.py scene-of: no kernel {args[1]}')
        print(reg.scene_of(*args) or '')
    elif cmd == 'tree-branches':
        print(' '.join(t['branch'] for t in reg.tree_branches))
    elif cmd == 'branches':
        for b, base in reg.patched_branches():
            print(b, base)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
