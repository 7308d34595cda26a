"""torch.special: PyTorch's special-function namespace. Its functions are ops of the op table under
their aten names (special_xlogy, special_expit, ...), bound here under their short names."""
from torch._C import (  # noqa: F401
    special_digamma as digamma, special_erf as erf, special_erfc as erfc, special_erfinv as erfinv,
    special_exp2 as exp2, special_expit as expit, special_expm1 as expm1, special_gammaln as gammaln,
    special_log1p as log1p, special_logit as logit, special_multigammaln as multigammaln,
    special_polygamma as polygamma, special_psi as psi, special_round as round, special_xlogy as xlogy,
    special_i0 as i0, special_i0e as i0e, special_i1 as i1, special_i1e as i1e, special_erfcx as erfcx,
    special_ndtri as ndtri, special_log_ndtr as log_ndtr, special_zeta as zeta, special_airy_ai as airy_ai,
    special_bessel_j0 as bessel_j0, special_bessel_j1 as bessel_j1, special_bessel_y0 as bessel_y0,
    special_bessel_y1 as bessel_y1, special_modified_bessel_i0 as modified_bessel_i0,
    special_modified_bessel_i1 as modified_bessel_i1, special_modified_bessel_k0 as modified_bessel_k0,
    special_modified_bessel_k1 as modified_bessel_k1, special_scaled_modified_bessel_k0 as scaled_modified_bessel_k0,
    special_scaled_modified_bessel_k1 as scaled_modified_bessel_k1, special_spherical_bessel_j0 as spherical_bessel_j0,
    special_chebyshev_polynomial_t as chebyshev_polynomial_t, special_chebyshev_polynomial_u as chebyshev_polynomial_u,
    special_chebyshev_polynomial_v as chebyshev_polynomial_v, special_chebyshev_polynomial_w as chebyshev_polynomial_w,
    special_shifted_chebyshev_polynomial_t as shifted_chebyshev_polynomial_t,
    special_shifted_chebyshev_polynomial_u as shifted_chebyshev_polynomial_u,
    special_shifted_chebyshev_polynomial_v as shifted_chebyshev_polynomial_v,
    special_shifted_chebyshev_polynomial_w as shifted_chebyshev_polynomial_w,
    special_hermite_polynomial_h as hermite_polynomial_h, special_hermite_polynomial_he as hermite_polynomial_he,
    special_laguerre_polynomial_l as laguerre_polynomial_l, special_legendre_polynomial_p as legendre_polynomial_p,
    special_gammainc as gammainc, special_gammaincc as gammaincc,
)

import math as _math

import torch as _torch

from torch._composites import sinc  # noqa: E402,F401


def softmax(input, dim, *, dtype=None):
    return _torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    return _torch.log_softmax(input, dim, dtype=dtype)


def logsumexp(input, dim, keepdim=False):
    return _torch.logsumexp(input, dim, keepdim)


def _floating(x):
    return x if x.is_floating_point() else x.to(_torch.get_default_dtype())


def ndtr(input):
    """The standard normal distribution's CDF: (1 + erf(x / sqrt(2))) / 2."""
    return (1 + _torch.erf(_floating(input) * _math.sqrt(0.5))) * 0.5


def entr(input):
    """-x log x elementwise: 0 at 0, -inf below 0 (NaN stays)."""
    x = _floating(input)
    value = -x * _torch.log(x)
    value = _torch.where(x == 0, _torch.zeros_like(x), value)
    return _torch.where(x < 0, _torch.full_like(x, -_math.inf), value)


def xlog1py(input, other):
    """x * log1p(y), 0 where x is 0 (unless y is NaN)."""
    x, y = _torch.broadcast_tensors(_torch.as_tensor(input), _torch.as_tensor(other))
    dtype = _torch.result_type(input, other)
    dtype = dtype if dtype.is_floating_point else _torch.get_default_dtype()
    x, y = x.to(dtype), y.to(dtype)
    value = x * _torch.log1p(y)
    return _torch.where((x == 0) & ~_torch.isnan(y), _torch.zeros_like(value), value)
