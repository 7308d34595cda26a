"""Every Python test runs against this project's package (scons test puts build/<mode> first on
PYTHONPATH), never against another torch that happens to be installed."""
import os
import pathlib

import torch

BUILD = pathlib.Path(__file__).resolve().parents[2] / 'build'


def pytest_report_header(config):
    return 'torch from %s' % torch.__file__


def pytest_sessionstart(session):
    here = pathlib.Path(torch.__file__).resolve()
    if BUILD not in here.parents:
        raise RuntimeError('tests must import this project\'s torch, got %s' % here)


TEST_PLUGIN_DIR = os.environ.get('TORCH_TEST_PLUGIN_DIR', str(BUILD / 'release' / 'test_plugins'))
