# SPDX-License-Identifier: GPL-2.0-only
"""What every step of make variant shares: its messages, git, make."""
import os
import subprocess

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


def make(*targets):
    """make -s TARGETS, its output dropped: whether it succeeded."""
    cmd = ['make', '-s', '--no-print-directory', *targets]
    return subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode == 0


def make_output(*targets):
    return subprocess.run(['make', '-s', '--no-print-directory', *targets], check=True,
                          capture_output=True, text=True).stdout


def asan_env():
    return dict(os.environ, ASAN_OPTIONS='detect_leaks=0')
