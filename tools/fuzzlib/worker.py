"""Runs fuzz cases one after the other in this process and reports each result.

Usage: python3 worker.py CASES.json   (a JSON list of [index, code])

For each case it writes "@@start INDEX" to stderr (so that a sanitizer report can be attributed to the
case that triggered it) and "START INDEX" to stdout, runs the code with the helpers below in its
namespace, and writes "RESULT INDEX <json description of `result`>" to stdout. A crash or hang stops
it mid-case; the runner sees which case and carries on in a fresh worker. The same file runs under
this project's torch and under the reference PyTorch (to record what the reference does), so it uses
nothing either lacks.
"""
import gc
import json
import os
import sys
import time
from decimal import Decimal
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fuzzlib.describe import describe  # noqa: E402

import torch  # noqa: E402

try:
    import numpy as np
except ImportError:  # numpy cases then raise NameError alike in both implementations
    np = None


class IndexLike:
    def __index__(self):
        return 3


class FloatLike:
    def __float__(self):
        return 2.5


class IndexAndFloat:
    def __index__(self):
        return 3

    def __float__(self):
        return 2.5


class Clearer:
    """An element whose conversion empties the list being converted."""

    def __init__(self, owner):
        self.owner = owner

    def __float__(self):
        self.owner.clear()
        gc.collect()
        return 1.0

    def __index__(self):
        self.owner.clear()
        gc.collect()
        return 1


class FakeArray:
    """Claims to be array data at an address no one owns."""
    __array_interface__ = {'data': (16, False), 'shape': (64,), 'typestr': '<f4', 'version': 3}


def _parallel_work():
    x = torch.ones(4 * 2 ** 20)
    a = torch.ones(256, 256)
    return [(x + 1).sum().item(), x.view(2048, 2048).sum(0)[0].item(), (a @ a)[0, 0].item()]


def fork_check():
    """'ok' when a child forked after parallel work runs parallel work itself."""
    torch.set_num_threads(2)
    before = _parallel_work()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            os._exit(0 if _parallel_work() == before else 3)
        except BaseException:
            os._exit(4)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return 'ok' if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else 'bad %d' % status
        time.sleep(0.02)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    return 'hang'


HELPERS = {'torch': torch, 'np': np, 'Decimal': Decimal, 'Fraction': Fraction, 'IndexLike': IndexLike,
           'FloatLike': FloatLike, 'IndexAndFloat': IndexAndFloat, 'Clearer': Clearer, 'FakeArray': FakeArray,
           'fork_check': fork_check, 'nan': float('nan'), 'inf': float('inf')}


def run_case(code):
    ns = dict(HELPERS)
    try:
        exec(code, ns)
        return describe(ns.get('result'), torch)
    except Exception as e:  # what the case raised is its result
        return describe(e, torch)


def main():
    cases = json.load(open(sys.argv[1]))
    threads = torch.get_num_threads()
    for index, code in cases:
        sys.stderr.write('@@start %d\n' % index)
        sys.stderr.flush()
        print('START %d' % index, flush=True)
        result = run_case(code)
        try:  # cases may change process state; the next one starts from the same
            torch.set_num_threads(threads)
            torch.set_default_dtype(torch.float32)
        except Exception:
            pass
        print('RESULT %d %s' % (index, json.dumps(result)), flush=True)


if __name__ == '__main__':
    main()
