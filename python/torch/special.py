"""torch.special: PyTorch's special-function namespace. Its functions are ops of the op table under
their aten names (special_xlogy, special_expit, ...), bound here under their short names."""
from torch._C import (  # noqa: F401
    special_digamma as digamma, special_erf as erf, special_erfc as erfc, special_erfinv as erfinv,
    special_exp2 as exp2, special_expit as expit, special_expm1 as expm1, special_gammaln as gammaln,
    special_log1p as log1p, special_logit as logit, special_multigammaln as multigammaln,
    special_polygamma as polygamma, special_psi as psi, special_round as round, special_xlogy as xlogy,
)
