"""torch.use_deterministic_algorithms and its companions, as PyTorch 1.13 has them.

Every CPU op of this project gives the same bits from run to run at a fixed thread count (see
docs/determinism.md), so the switch changes only what PyTorch's own CPU build changes: ops that
PyTorch documents as nondeterministic on CPU (put_ and put without accumulate) raise RuntimeError,
or warn with warn_only=True.
"""
import builtins

from torch import _C


def use_deterministic_algorithms(mode, *, warn_only=False):
    _C._set_deterministic_algorithms(mode, warn_only=warn_only)


def are_deterministic_algorithms_enabled():
    return _C._get_deterministic_algorithms()


def is_deterministic_algorithms_warn_only_enabled():
    return _C._get_deterministic_algorithms_warn_only()


def set_deterministic_debug_mode(debug_mode):
    # builtins.int: inside torch, `int` is torch.int32
    if not isinstance(debug_mode, (builtins.int, str)):
        raise TypeError(f'debug_mode must be str or int, but got {type(debug_mode)}')
    if isinstance(debug_mode, str):
        modes = {'default': 0, 'warn': 1, 'error': 2}
        if debug_mode not in modes:
            raise RuntimeError('invalid value of debug_mode, expected one of `default`, '
                               f'`warn`, `error`, but got {debug_mode}')
        debug_mode = modes[debug_mode]
    if debug_mode == 0:
        _C._set_deterministic_algorithms(False)
    elif debug_mode == 1:
        _C._set_deterministic_algorithms(True, warn_only=True)
    elif debug_mode == 2:
        _C._set_deterministic_algorithms(True)
    else:
        raise RuntimeError(f'invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}')


def get_deterministic_debug_mode():
    if not _C._get_deterministic_algorithms():
        return 0
    return 1 if _C._get_deterministic_algorithms_warn_only() else 2
