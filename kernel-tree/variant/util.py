# SPDX-License-Identifier: GPL-2.0-only
"""What every step of make variant shares: its messages, git, make."""
import os
import subprocess
import sys

TREE = 'kernel-tree/linux'
REG = 'variants'


class VariantError(Exception):
    """A refusal or failure, said as '[variant] error: ...'."""


def say(text):
    print(f'[variant] {text}', flush=True)


def git(*args, tree=TREE, input=None, env=None, check=True):
    """git -C tree ARGS: its output, stripped of the last newline."""
    r = subprocess.run(['git', '-C', tree, *args], input=input, capture_output=True,
                       env=dict(os.environ, **(env or {})))
    if check and r.returncode:
        raise VariantError(f'git {" ".join(args)}: {r.stderr.decode("utf-8", "replace").strip()}')
    return r.stdout.decode('utf-8', 'replace').rstrip('\n')


def git_ok(*args, tree=TREE):
    return subprocess.run(['git', '-C', tree, *args], capture_output=True).returncode == 0


def make(*targets, quiet=True, log=None):
    """make -s TARGETS; with log, its output goes there. Whether it succeeded."""
    cmd = ['make', '-s', '--no-print-directory', *targets]
    if log is None:
        return subprocess.run(cmd, stdout=subprocess.DEVNULL if quiet else None).returncode == 0
    with open(log, 'w') as f:
        return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode == 0


def make_output(*targets):
    return subprocess.run(['make', '-s', '--no-print-directory', *targets], check=True,
                          capture_output=True, text=True).stdout


def asan_env():
    return dict(os.environ, ASAN_OPTIONS='detect_leaks=0')


def fail(err):
    print(f'[variant] error: {err}', file=sys.stderr, flush=True)
    sys.exit(1)
