"""DIFFERENTIAL TEST AGAINST THE REFERENCE PYTORCH (1.13.1).

Checks that this project's ``repr(tensor)`` writes exactly what the reference
PyTorch's ``repr(tensor)`` writes, for many tensors and under several print
options. Our side runs RUNNER below in a subprocess (so a crash is a failed test,
not a dead pytest); the reference's side is recorded in
tests/data/reference/tensor_str.json by ``tools/record_reference``, which runs the
same RUNNER under ``/work/shared/tools/reftorch``. A case without a recorded
entry fails, telling to run ``tools/record_reference``; the reference itself is
never needed here. The recorder imports this file by path, so nothing at module
level may import this project's torch.
"""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

MODULE_PATH = Path(__file__).resolve().parents[2] / "python/torch/_tensor_str.py"
RECORDED = Path(__file__).resolve().parents[1] / "data" / "reference" / "tensor_str.json"


# (id, Python expression building the tensor; `torch` and `math` are in scope)
CASES = [
    # integers
    ("int_vector", "torch.tensor([1, 2, 3])"),
    ("int_negative", "torch.tensor([-1, 20, -300])"),
    ("int_scalar", "torch.tensor(7)"),
    ("int_matrix", "torch.arange(12).view(3, 4) - 5"),
    ("int_big", "torch.tensor([2**40, -3])"),
    ("int8", "torch.tensor([-128, 0, 127], dtype=torch.int8)"),
    ("uint8", "torch.tensor([0, 1, 255], dtype=torch.uint8)"),
    ("int16", "torch.tensor([[-5, 6], [7, 8]], dtype=torch.int16)"),
    ("int32", "torch.tensor([1, 2], dtype=torch.int32)"),
    ("int32_scalar", "torch.tensor(3, dtype=torch.int32)"),
    # booleans
    ("bool_vector", "torch.tensor([True, False])"),
    ("bool_all_true", "torch.tensor([True, True])"),
    ("bool_matrix", "torch.tensor([[True, False], [False, False]])"),
    ("bool_scalar", "torch.tensor(False)"),
    # floats, fixed point
    ("float_ints", "torch.tensor([1., 2.])"),
    ("float_ints_negative", "torch.tensor([-1., 20., 300.])"),
    ("float_fraction", "torch.tensor([1.5, 2.25])"),
    ("float_mixed_sign", "torch.tensor([-0.5, 3.14159, 100.25])"),
    ("float_scalar_int", "torch.tensor(3.)"),
    ("float_scalar_fraction", "torch.tensor(-2.5)"),
    ("float_scalar_zero", "torch.tensor(0.)"),
    ("float_negative_zero", "torch.tensor([-0., 1.])"),
    ("float_zeros", "torch.zeros(3)"),
    ("float_rounding", "torch.tensor([0.00015, 0.99999, 1.00005])"),
    ("float_matrix", "torch.tensor([[1.5, -2.0], [3.25, 4.0]])"),
    ("float_ratio_1000", "torch.tensor([1., 1000.])"),
    ("float_ratio_1001", "torch.tensor([1., 1001.])"),
    # floats, scientific
    ("sci_small_large", "torch.tensor([1e-5, 1e5])"),
    ("sci_small_large_2d", "torch.tensor([[1e-5, 1e5]])"),
    ("sci_tiny", "torch.tensor([1e-5, 2e-5])"),
    ("sci_huge_ints", "torch.tensor([1e9, 2e9])"),
    ("sci_wide_int_range", "torch.tensor([1., 1e4])"),
    ("sci_negative", "torch.tensor([-1e-8, 3.5, -2e7])"),
    ("sci_scalar", "torch.tensor(1e-7)"),
    ("sci_huge_scalar", "torch.tensor(1e20)"),
    ("float32_max", "torch.tensor([3.4028234663852886e38, -1.])"),
    # non-finite values
    ("nan_inf", "torch.tensor([float('nan'), float('inf'), -float('inf')])"),
    ("nan_with_ints", "torch.tensor([float('nan'), 1., 2.])"),
    ("inf_with_fraction", "torch.tensor([float('inf'), 1.5, -2.25])"),
    ("nan_with_sci", "torch.tensor([float('nan'), 1e-6, 1e6])"),
    ("nan_zero", "torch.tensor([0., float('nan')])"),
    ("nan_scalar", "torch.tensor(float('nan'))"),
    # other floating dtypes
    ("float64", "torch.tensor([1.5, 2.0], dtype=torch.float64)"),
    ("float64_precise", "torch.tensor([1/3, 2/3], dtype=torch.float64)"),
    ("float64_scalar", "torch.tensor(2.0, dtype=torch.float64)"),
    ("float16", "torch.tensor([0.1, 2.5, -3.0], dtype=torch.float16)"),
    ("float16_ints", "torch.tensor([1., 2.], dtype=torch.float16)"),
    ("float16_sci", "torch.tensor([1e-4, 6e4], dtype=torch.float16)"),
    ("bfloat16", "torch.tensor([0.1, 2.5, -3.0], dtype=torch.bfloat16)"),
    ("bfloat16_big", "torch.tensor([1e30, 1.0], dtype=torch.bfloat16)"),
    # complex
    ("complex", "torch.tensor([1+2j, -3.5-1j])"),
    ("complex_scalar", "torch.tensor(1+2j)"),
    ("complex128", "torch.tensor([0.5-0.25j, 1e-6+1e6j], dtype=torch.complex128)"),
    # empty tensors
    ("empty_1d", "torch.tensor([])"),
    ("empty_2d", "torch.zeros(0, 3)"),
    ("empty_2d_trailing", "torch.zeros(2, 0)"),
    ("empty_3d", "torch.zeros(2, 0, 4)"),
    ("empty_int", "torch.zeros(0, dtype=torch.int64)"),
    ("empty_bool", "torch.zeros(0, dtype=torch.bool)"),
    ("empty_float64", "torch.zeros(0, 2, dtype=torch.float64)"),
    ("empty_requires_grad", "torch.zeros(0, requires_grad=True)"),
    # wrapping and nesting
    ("wrap_ints", "torch.arange(60)"),
    ("wrap_floats", "torch.arange(50.) / 3"),
    ("wrap_sci", "torch.logspace(-10, 10, 30)"),
    ("wrap_2d", "torch.arange(90.).view(3, 30) * 1.5"),
    ("nested_3d", "torch.arange(24).view(2, 3, 4)"),
    ("nested_4d", "torch.arange(48.).view(2, 2, 3, 4) - 20"),
    ("nested_4d_fraction", "(torch.arange(48.).view(2, 2, 3, 4) - 20) / 7"),
    ("single_element_2d", "torch.tensor([[5.]])"),
    ("column", "torch.arange(4.).view(4, 1)"),
    ("size_one_dims", "torch.arange(6).view(1, 2, 1, 3)"),
    # summarisation
    ("summary_1d", "torch.arange(2000)"),
    ("summary_1d_float", "torch.arange(1001.) / 3"),
    ("summary_2d", "torch.arange(2000.).view(40, 50)"),
    ("summary_2d_short_rows", "torch.arange(1200).view(400, 3)"),
    ("summary_2d_short_cols", "torch.arange(1200).view(3, 400)"),
    ("summary_3d", "torch.arange(3000).view(10, 15, 20)"),
    ("summary_stats_from_edges_only",
     "torch.cat([torch.ones(3), torch.full((2000,), 1e-9), torch.ones(3) * 2])"),
    ("summary_nan_in_middle",
     "torch.cat([torch.ones(10) * 1.5, torch.full((2000,), float('nan')), torch.ones(10)])"),
    ("summary_bool", "torch.arange(1500).view(30, 50) % 3 == 0"),
    # autograd suffixes
    ("requires_grad", "torch.tensor([1., 2.], requires_grad=True)"),
    ("requires_grad_scalar", "torch.tensor(1.5, requires_grad=True)"),
    ("requires_grad_float64", "torch.tensor([1.5], dtype=torch.float64, requires_grad=True)"),
    ("grad_fn", "torch.tensor([1., 2.], requires_grad=True) * 2"),
    ("grad_fn_sum", "torch.tensor([1., 2.], requires_grad=True).sum()"),
    ("suffix_wraps",
     "torch.tensor([[1.2345, 2.3456, 3.4567, 4.5678, 5.6789, 6.7891, 7.8912]],"
     " dtype=torch.float64, requires_grad=True)"),
    ("suffix_wraps_after_row", "torch.arange(14, dtype=torch.int16)"),
    # the meta device: no values, the size and a dtype other than the default floating one
    ("meta_int", "torch.arange(3, device='meta')"),
    ("meta_matrix", "torch.ones(2, 3, device='meta')"),
    ("meta_scalar", "torch.ones((), device='meta')"),
    ("meta_empty", "torch.ones(0, device='meta')"),
    ("meta_requires_grad", "torch.ones(2, device='meta', requires_grad=True)"),
    ("meta_complex", "torch.ones(2, device='meta', dtype=torch.complex64)"),
    ("meta_result", "torch.ones(2, device='meta') * 2"),
]

# (id, keyword arguments for set_printoptions; "default_dtype" sets torch's default dtype)
OPTION_SETS = [
    ("defaults", {}),
    ("precision_2", {"precision": 2}),
    ("precision_0", {"precision": 0}),
    ("sci_mode_false", {"sci_mode": False}),
    ("sci_mode_true", {"sci_mode": True}),
    ("threshold_5", {"threshold": 5}),
    ("threshold_5_edgeitems_1", {"threshold": 5, "edgeitems": 1}),
    ("linewidth_40", {"linewidth": 40}),
    ("profile_full", {"profile": "full"}),
    ("profile_short", {"profile": "short"}),
    ("default_dtype_float64", {"default_dtype": "float64"}),
]

# Cases this project's torch cannot build yet, with what is missing. They stay in CASES and run: such
# a case is an expected failure only while building it raises; once it builds, its repr is compared
# like any other (and test_not_buildable_yet_is_current asks to drop it from here).
NOT_BUILDABLE_YET = {}

# Builds every case under every option set with whichever torch is importable and writes, as JSON,
# "option_id/case_id" -> {"expression", "options", and "repr", "build_error" or "repr_error"}. Both this test (ours) and
# tools/record_reference (the reference) run it; the expression and options travel with each entry
# so that a recorded entry whose case has changed since is noticed.
RUNNER = r"""
import json, math, sys, traceback
import torch

# PyTorch's torch.set_printoptions is this function; this project's package may not export it yet
set_printoptions = getattr(torch, "set_printoptions", None) or torch._tensor_str.set_printoptions

request = json.load(sys.stdin)
results = {}
for option_id, options in request["option_sets"]:
    settings = dict(options)
    default_dtype = getattr(torch, settings.pop("default_dtype", "float32"))
    set_printoptions(profile="default")
    set_printoptions(**settings)
    torch.set_default_dtype(default_dtype)
    for case_id, expression in request["cases"]:
        entry = {"expression": expression, "options": options}
        try:
            t = eval(expression, {"torch": torch, "math": math})
        except Exception as e:
            entry["build_error"] = "%s: %s" % (type(e).__name__, e)
        else:
            try:
                entry["repr"] = repr(t)
            except Exception:
                entry["repr_error"] = traceback.format_exc()
        results[option_id + "/" + case_id] = entry
json.dump(results, sys.stdout)
"""


def reference_request():
    """What tools/record_reference feeds RUNNER under the reference (ours get the same)."""
    return {"cases": CASES, "option_sets": OPTION_SETS}


@pytest.fixture(scope="module")
def ours():
    import torch  # the package this run tests; the subprocess imports the same one

    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__))))
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps(reference_request()),
        capture_output=True,
        text=True,
        env=env,
        cwd="/",
        timeout=120,
    )
    assert proc.returncode == 0, "our runner failed (rc {}):\n{}".format(proc.returncode, proc.stderr[-3000:])
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def recorded():
    """Empty when the file is missing, so that every test fails with the hint to record."""
    if not RECORDED.exists():
        return {}
    with open(RECORDED) as f:
        return json.load(f)


def _failure(entry):
    if "build_error" in entry:
        return "building the tensor raised " + entry["build_error"]
    if "repr_error" in entry:
        return "repr raised:\n" + entry["repr_error"]
    return None


def _record_hint():
    return "run tools/record_reference to record {}".format(RECORDED.relative_to(RECORDED.parents[3]))


@pytest.mark.parametrize("option_id", [option_id for option_id, _ in OPTION_SETS])
@pytest.mark.parametrize("case_id", [case_id for case_id, _ in CASES])
def test_repr_matches_reference(recorded, ours, option_id, case_id):
    key = option_id + "/" + case_id
    mine, expected = ours[key], recorded.get(key)
    if expected is None:
        pytest.fail("no recorded reference repr for {}: {}".format(key, _record_hint()))
    if (expected["expression"], expected["options"]) != (mine["expression"], mine["options"]):
        pytest.fail("the recorded entry for {} is for {!r} under {}, the case is now {!r} under {}: {}".format(
            key, expected["expression"], expected["options"], mine["expression"], mine["options"], _record_hint()))
    assert _failure(expected) is None, "the reference failed on {}: {}".format(key, _failure(expected))
    if "build_error" in mine and case_id in NOT_BUILDABLE_YET:
        pytest.xfail("{} ({})".format(NOT_BUILDABLE_YET[case_id], _failure(mine)))
    assert _failure(mine) is None, "{}: ours failed: {}".format(key, _failure(mine))
    assert mine["repr"] == expected["repr"], (
        "repr mismatch for {} under {}\n--- reference ---\n{}\n--- ours ---\n{}".format(
            case_id, option_id, expected["repr"], mine["repr"]
        )
    )


def test_not_buildable_yet_is_current(ours):
    builds = [c for c in NOT_BUILDABLE_YET if "build_error" not in ours[OPTION_SETS[0][0] + "/" + c]]
    assert not builds, "these cases build now; remove them from NOT_BUILDABLE_YET: {}".format(builds)


class _FakeDevice:
    def __init__(self, type_, index):
        self.type, self.index = type_, index

    def __str__(self):
        return self.type if self.index is None else "{}:{}".format(self.type, self.index)


class _FakeDtype:
    is_floating_point = True

    def __str__(self):
        return "torch.float32"


class _FakeCudaTensor:
    """A 1-D float32 tensor that claims to live on cuda:0 (the reference is CPU-only)."""

    dtype = _FakeDtype()
    device = _FakeDevice("cuda", 0)
    requires_grad = False

    def __init__(self, values):
        self.values = list(values)
        self.shape = (len(self.values),)

    def dim(self):
        return 1

    def numel(self):
        return len(self.values)

    def tolist(self):
        return list(self.values)


def _load_module_under_test():
    spec = importlib.util.spec_from_file_location("tensor_str_for_device_test", MODULE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_device_suffix():
    # PyTorch 1.13 output for torch.tensor([1., 2.], device='cuda:0'), written out by hand.
    module = _load_module_under_test()
    assert module.tensor_repr(_FakeCudaTensor([1.0, 2.0])) == "tensor([1., 2.], device='cuda:0')"
    assert "numpy" not in module.__dict__ and "torch" not in module.__dict__
