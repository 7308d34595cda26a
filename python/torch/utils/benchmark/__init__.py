"""torch.utils.benchmark: timing statements (Timer), their results (Measurement) and tables of them
(Compare), with PyTorch's names, arguments and printed forms."""
from torch.utils.benchmark.utils.timer import Timer, Language  # noqa: F401
from torch.utils.benchmark.utils.common import Measurement, TaskSpec, select_unit, trim_sigfig  # noqa: F401
from torch.utils.benchmark.utils.compare import Compare  # noqa: F401

__all__ = ['Timer', 'Language', 'Measurement', 'TaskSpec', 'Compare', 'select_unit', 'trim_sigfig']
