"""A pytest plugin: runs the collected tests in an order shuffled by a seed.

Loaded with `-p random_order` (tools/flakylib on sys.path); it shuffles only when
TORCH_TEST_ORDER_SEED is set, and prints the seed in the session header so that a run can be
repeated: `TORCH_TEST_ORDER_SEED=<seed> python3 -m pytest -p random_order ...`. The files run in a
shuffled order and so do the tests inside each file, so the state one test leaves behind (the block
cache's contents, a module's random stream, a global switch) reaches a different next test each run.
Tests of different files do not interleave: that would set a file's module-scoped fixtures (recorded
reference results, built models) up again for every test, and make a run some fifty times longer.
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
    if seed is None:
        return
    rng = random.Random(seed)
    files = {}
    for item in items:
        files.setdefault(item.nodeid.split('::')[0], []).append(item)
    order = list(files.values())
    rng.shuffle(order)
    for group in order:
        rng.shuffle(group)
    items[:] = [item for group in order for item in group]
