# SPDX-License-Identifier: GPL-2.0-only
"""A series applied as git am applies it, on a scratch index: nothing is
checked out and no ref changes; each patch a commit with its author,
date and message, and its Message-ID as git am --message-id records it."""
import os
import re
import subprocess

from .util import TREE, VariantError, git

MID = re.compile(r'^Message-I[Dd]: *<?([^>\s]*)>?', re.M)


def mailinfo(path, msg, patch):
    """git mailinfo of one message: its header fields (Author, Email, Date, Subject)."""
    with open(path, 'rb') as f:
        r = subprocess.run(['git', 'mailinfo', msg, patch], stdin=f, capture_output=True, check=True)
    info = {}
    for line in r.stdout.decode('utf-8', 'replace').split('\n'):
        k, sep, v = line.partition(': ')
        if sep:
            info[k] = v
    return info


def message_id(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        m = MID.search(f.read())
    return m.group(1) if m else ''


def apply_series(patches, base_branch, tmp):
    """The commits of the series on base_branch: (base commit, last commit,
    [patch subjects]). VariantError, with git apply's words, at the first
    patch that does not apply."""
    parent = git('rev-parse', f'{base_branch}^{{commit}}')
    base = parent
    idx = os.path.abspath(os.path.join(tmp, 'index'))
    env = {'GIT_INDEX_FILE': idx}
    git('read-tree', parent, env=env)
    subjects = []
    for k, p in enumerate(patches, 1):
        msg, patch = os.path.join(tmp, f'msg.{k}'), os.path.abspath(os.path.join(tmp, f'patch.{k}'))
        info = mailinfo(p, msg, patch)
        subject = info.get('Subject', '')
        r = subprocess.run(['git', '-C', TREE, 'apply', '--cached', patch], capture_output=True,
                           env=dict(os.environ, **env))
        if r.returncode:
            with open(patch, encoding='utf-8', errors='replace') as f:
                files = sorted({l[6:].split()[0] for l in f if l.startswith('+++ b/')})
            said = '\n'.join('  ' + l for l in r.stderr.decode('utf-8', 'replace').rstrip('\n').split('\n'))
            raise VariantError(f'patch {k}/{len(patches)} "{subject}" does not apply on {base_branch} '
                               f'(git am stops here: git apply says)\n{said}\n'
                               f'[variant] the series must be against {base_branch}; files: {" ".join(files)} ')
        tree = git('write-tree', env=env)
        with open(msg, encoding='utf-8', errors='replace') as f:
            body = f.read()
        mid = message_id(p)
        text = f'{subject}\n\n{body}' + (f'\nMessage-ID: <{mid}>\n' if mid else '')
        who = {'GIT_AUTHOR_NAME': info.get('Author', ''), 'GIT_AUTHOR_EMAIL': info.get('Email', ''),
               'GIT_AUTHOR_DATE': info.get('Date', ''), 'GIT_COMMITTER_NAME': info.get('Author', ''),
               'GIT_COMMITTER_EMAIL': info.get('Email', ''), 'GIT_COMMITTER_DATE': info.get('Date', '')}
        parent = git('commit-tree', tree, '-p', parent, input=text.encode(), env=who)
        subjects.append(subject)
    os.remove(idx)
    return base, parent, subjects
