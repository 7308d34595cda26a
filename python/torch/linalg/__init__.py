"""torch.linalg: the ops of core/ops.table declared `module=linalg` (linalg_inv is torch.linalg.inv,
as in PyTorch), and LinAlgError, which they raise for singular and not positive-definite inputs."""
from torch import _C

LinAlgError = _C._LinAlgError


def _export():
    for name in dir(_C._linalg):
        if not name.startswith('_'):
            globals()[name] = getattr(_C._linalg, name)


_export()
del _export
