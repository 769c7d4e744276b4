# SPDX-License-Identifier: GPL-2.0-only
"""The messages of a series: split out of an mbox, a folder or a range of
the kernel tree, and sorted as git am would take them."""
import email
import email.header
import email.policy
import glob
import os
import re
import subprocess
from dataclasses import dataclass, field

from .util import TREE, VariantError, git, git_ok

NUM = re.compile(r'^\s*\[[^\]]*?\b(\d+)/(\d+)\s*\]')
PREFIX = re.compile(r'^\s*(\[[^\]]*\]\s*)+')
DIFF = re.compile(r'^(diff --git |--- a/|\+\+\+ b/)', re.M)
REPLY = re.compile(r'^\s*(re|aw|fwd?):', re.I)
PATCH_FILES = ('*.patch', '*.eml', '*.mbox', '*.mbx')


@dataclass
class Series:
    cover: str = None              # the cover letter's file
    patches: list = field(default_factory=list)   # the patches' files, in order
    subject: str = ''              # the cover's subject, or the first patch's
    message_id: str = ''


def read_message(path):
    """(subject, Message-ID, body text) of one message file."""
    with open(path, 'rb') as f:
        msg = email.message_from_binary_file(f, policy=email.policy.compat32)
    subject = ' '.join(str(email.header.make_header(email.header.decode_header(msg.get('Subject', '')))).split())
    mid = (msg.get('Message-ID') or '').strip().strip('<>')
    body = msg.get_payload(decode=True) if not msg.is_multipart() else b''.join(
        p.get_payload(decode=True) or b'' for p in msg.walk() if not p.is_multipart())
    return subject, mid, (body or b'').decode('utf-8', 'replace')


def sort_series(paths):
    """The cover letter (at most one) and the patches, in their numbered
    order (unnumbered ones in the order given): replies in the thread and
    messages without a diff are left out. VariantError when two patches
    share a number or no message holds a diff."""
    s = Series()
    patches, numbered, cover = [], {}, None
    for path in paths:
        subject, mid, text = read_message(path)
        if REPLY.match(subject):
            continue
        has_diff = DIFF.search(text) is not None
        m = NUM.match(subject)
        n = int(m.group(1)) if m else None
        clean = PREFIX.sub('', subject).strip()
        if not has_diff:
            if n == 0 and cover is None:
                cover = (path, clean, mid)
            continue
        if n is not None:
            if n in numbered:
                raise VariantError(f'the mbox holds two patches numbered {n}: "{numbered[n][1]}" and "{clean}"; '
                                   'give one version of the series (b4 am -o - MESSAGE-ID gives one)')
            numbered[n] = (path, clean, mid)
        patches.append((n, len(patches), path, clean, mid))
    if not patches:
        raise VariantError('no patch in ' + ' '.join(paths[:1]) + ('...' if len(paths) > 1 else '') +
                           ': no message holds a diff')
    patches.sort(key=lambda p: (p[0] if p[0] is not None else 0, p[1]))
    s.patches = [p[2] for p in patches]
    if cover:
        s.cover, s.subject, s.message_id = cover
    else:
        s.subject, s.message_id = patches[0][3], patches[0][4]
    return s


def mailsplit(files, out):
    r = subprocess.run(['git', 'mailsplit', f'-o{out}', *files], capture_output=True)
    return r.returncode == 0


def split(source, base_branch, out):
    """Each message of SOURCE in a file of folder out, and what SOURCE was
    ("mbox FILE", "folder DIR", "commits RANGE of TREE")."""
    os.makedirs(out, exist_ok=True)
    if os.path.isfile(source):
        if not mailsplit([source], out):
            raise VariantError(f'{source}: not an mbox or patch file')
        return f'mbox {source}'
    if os.path.isdir(source):
        files = sorted(f for pat in PATCH_FILES for f in glob.glob(os.path.join(source, pat)) if os.path.isfile(f))
        if not files:
            raise VariantError(f'{source} holds no *.patch, *.eml, *.mbox or *.mbx file')
        if not mailsplit(files, out):
            raise VariantError(f'{source}: a file is not a patch')
        return f'folder {source}'
    rng = source if '..' in source else f'{base_branch}..{source}'
    if not git_ok('rev-parse', '-q', '--verify', rng.split('..')[-1] + '^{commit}'):
        raise VariantError(f"FROM '{source}' is no file, folder, branch or commit range of {TREE}")
    mbox = os.path.join(out, '..', 'series.mbox')
    text = git('format-patch', '-q', '--stdout', '--no-signature', rng)
    if not text:
        raise VariantError(f'{rng} holds no commit')
    with open(mbox, 'w', encoding='utf-8') as f:
        f.write(text + '\n')
    mailsplit([mbox], out)
    return f'commits {rng} of {TREE}'


def messages(folder):
    return sorted(os.path.join(folder, f) for f in os.listdir(folder))
