"""A pytest plugin: runs the collected tests in an order shuffled by a seed.

Loaded with `-p random_order` (tools/flakylib on sys.path); it shuffles only when
TORCH_TEST_ORDER_SEED is set, and prints the seed in the session header so that a run can be
repeated: `TORCH_TEST_ORDER_SEED=<seed> python3 -m pytest -p random_order ...`. The whole session is
one shuffled list: tests of different files interleave, so state one test leaves behind (the block
cache's contents, a module's random stream, a global switch) reaches a different next test each run.
"""
import os
import random

ENV = 'TORCH_TEST_ORDER_SEED'


def _seed():
    value = os.environ.get(ENV)
    return int(value) if value else None


def pytest_report_header(config):
    seed = _seed()
    return 'test order: %s' % ('shuffled, %s=%d' % (ENV, seed) if seed is not None else 'as collected')


def pytest_collection_modifyitems(session, config, items):
    seed = _seed()
    if seed is not None:
        random.Random(seed).shuffle(items)
