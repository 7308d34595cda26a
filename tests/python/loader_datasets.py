"""Datasets for test_data.py that worker processes started with 'spawn' must import by name (no torch
import here: the reference recorder loads test_data.py with its own Python)."""
import time


class Ordered:
    def __len__(self):
        return 6

    def __getitem__(self, i):
        return i


class SlowFirst:
    """Item 0 takes a while, so the later items (other workers) arrive first."""

    def __len__(self):
        return 9

    def __getitem__(self, i):
        if i == 0:
            time.sleep(0.5)
        return i


ORDERED = Ordered()
SLOW_FIRST = SlowFirst()
