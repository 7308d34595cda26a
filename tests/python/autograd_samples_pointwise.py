"""gradcheck samples for the pointwise family of core/ops.table (test_autograd_ops.py).

samples(T, mixed) -> {qualified op name: lambda: [(args, kwargs), ...]}: arguments inside each op's
domain (asin in (-1, 1), acosh above 1, logit in (0, 1), ...) and away from its kinks, for the ops
the test cannot sample by itself (non-tensor arguments, or a domain other than [0.5, 1.5]). An
in-place variant (asin_, pow_.Scalar) is sampled like its functional op.
"""
import torch

# PyTorch declares these without a derivative: their gradients raise
NOT_IMPLEMENTED = {'heaviside', 'nextafter'}


def samples(T, mixed):
    def unit(*shape):  # inside (-1, 1), away from 0
        return T(*shape, low=-0.9, high=0.9)

    def C(*shape, low=0.5, high=1.5):  # complex128 (the ops with complex kernels: powers, expit, absolute)
        return torch.complex(T(*shape, low=low, high=high, requires_grad=False),
                             T(*shape, low=low, high=high, requires_grad=False)).requires_grad_(True)

    s = {
        # trigonometric and hyperbolic functions and their inverses
        'tan': lambda: [((mixed(2, 3),), {})],
        'asin': lambda: [((unit(2, 3),), {})],
        'acos': lambda: [((unit(2, 3),), {})],
        'atan': lambda: [((mixed(2, 3),), {})],
        'sinh': lambda: [((mixed(2, 3),), {})],
        'cosh': lambda: [((mixed(2, 3),), {})],
        'asinh': lambda: [((mixed(2, 3),), {})],
        'acosh': lambda: [((T(2, 3, low=1.2, high=2.5),), {})],
        'atanh': lambda: [((unit(2, 3),), {})],
        'arcsin': lambda: [((unit(2, 3),), {})],
        'arccos': lambda: [((unit(2, 3),), {})],
        'arctan': lambda: [((mixed(2, 3),), {})],
        'arcsinh': lambda: [((mixed(2, 3),), {})],
        'arccosh': lambda: [((T(2, 3, low=1.2, high=2.5),), {})],
        'arctanh': lambda: [((unit(2, 3),), {})],
        # exponentials, logarithms, special functions
        'exp2': lambda: [((mixed(2, 3),), {})],
        'expm1': lambda: [((mixed(2, 3),), {})],
        'log1p': lambda: [((T(2, 3, low=-0.5, high=1.5),), {})],
        'rsqrt': lambda: [((T(2, 3),), {})],
        'reciprocal': lambda: [((mixed(2, 3),), {})],
        'erf': lambda: [((mixed(2, 3),), {})],
        'erfc': lambda: [((mixed(2, 3),), {})],
        'erfinv': lambda: [((unit(2, 3),), {})],
        'lgamma': lambda: [((T(2, 3, low=0.2, high=3.5),), {})],
        'digamma': lambda: [((T(2, 3, low=0.2, high=3.5),), {})],
        'deg2rad': lambda: [((mixed(2, 3),), {})],
        'rad2deg': lambda: [((mixed(2, 3),), {})],
        'logit': lambda: [((T(2, 3, low=0.1, high=0.9),), {}), ((T(2, 3, low=0.05, high=0.95), 0.2), {})],
        'polygamma': lambda: [((0, T(2, 3)), {}), ((1, T(2, 3)), {}), ((2, T(2, 3)), {})],
        'polygamma_': lambda: [((T(2, 3), 1), {}), ((T(2, 3), 3), {})],
        'mvlgamma': lambda: [((T(2, 3, low=1.2, high=2.5), 1), {}), ((T(2, 3, low=1.6, high=2.5), 3), {})],
        # the transforms under torch.fft (forward and inverse, each norm, one and two dims)
        '_fft_c2c': lambda: [((C(3, 4), [1], 0, True), {}), ((C(2, 3, 4), [0, 2], 2, False), {}),
                             ((C(5,), [0], 1, True), {})],
        '_fft_r2c': lambda: [((T(3, 6), [1], 0, True), {}), ((T(3, 5), [0, 1], 1, False), {}),
                             ((T(4,), [0], 2, True), {})],
        '_fft_c2r': lambda: [((C(3, 4), [1], 0, 6), {}), ((C(2, 3), [0, 1], 2, 5), {})],
        'fft_r2c_backward': lambda: [((C(3, 4), T(3, 6), [1], 0, True), {}),
                                     ((C(3, 5), T(3, 5), [0, 1], 1, False), {})],
        'fft_c2r_backward': lambda: [((T(3, 6), [1], 0), {}), ((T(2, 5), [0, 1], 2), {})],
        # powers
        'pow.Tensor_Scalar': lambda: [((mixed(2, 3), 2), {}), ((T(2, 3), -1.5), {}), ((T(2, 3), 0.5), {}),
                                      ((mixed(2, 3), 0), {}), ((mixed(2, 3), 3.0), {}), ((C(2, 3), 2.5), {}),
                                      ((C(2, 3), 1 - 0.5j), {})],
        # (a zero base: its second derivative is NaN in PyTorch too; test_autograd_pointwise.py checks the first)
        'pow.Scalar': lambda: [((2.5, mixed(2, 3)), {}), ((0.5, T(2, 3)), {}), ((3, mixed(2, 3)), {}),
                               ((2.5, C(2, 3)), {}), ((0.5 + 1j, T(2, 3)), {})],
        # irregular in-place names (pow_.Scalar is pow.Tensor_Scalar's), sampled here; float_power_ writes
        # float64 tensors only
        'pow_.Scalar': lambda: [((mixed(2, 3), 2), {}), ((T(2, 3), -1.5), {}), ((mixed(2, 3), 0), {})],
        'float_power_.Scalar': lambda: [((mixed(2, 3), 2), {}), ((T(2, 3), -0.5), {})],
        # (float32 arguments, whose gradients come back as float32: test_autograd_pointwise.py)
        # (complex float_power: its forward computes in float64 only, not yet in complex128 as PyTorch's)
        'float_power.Tensor_Tensor': lambda: [((T(2, 3), mixed(2, 3)), {}), ((T(2, 3), T(3)), {})],
        'float_power.Tensor_Scalar': lambda: [((mixed(2, 3), 2), {}), ((T(2, 3), -0.5), {}), ((mixed(2, 3), 0), {})],
        'float_power.Scalar': lambda: [((2.5, mixed(2, 3)), {}), ((1.5, T(2, 3)), {})],
        # rounding and signs (gradients are zeros away from the steps)
        'round.decimals': lambda: [((mixed(2, 3),), {'decimals': 2}), ((mixed(2, 3),), {'decimals': 0})],
        'special_round': lambda: [((mixed(2, 3),), {}), ((mixed(2, 3),), {'decimals': 1})],
        'frac': lambda: [((mixed(2, 3),), {})],
        'sign': lambda: [((mixed(2, 3),), {})],
        'sgn': lambda: [((mixed(2, 3),), {})],
        'negative': lambda: [((mixed(2, 3),), {})],
        'absolute': lambda: [((mixed(2, 3),), {}), ((C(2, 3, low=-1.5),), {})],
        'absolute_': lambda: [((mixed(2, 3),), {})],
        'nan_to_num': lambda: [((mixed(2, 3),), {}), ((mixed(2, 3), 0.5, 2.0, -2.0), {})],
        # two operands
        'atan2': lambda: [((mixed(2, 3), mixed(2, 3)), {}), ((mixed(2, 3), T(3)), {})],
        'arctan2': lambda: [((mixed(2, 3), mixed(2, 3)), {})],
        'hypot': lambda: [((mixed(2, 3), mixed(2, 3)), {}), ((mixed(2, 3), T(1, 3)), {})],
        'copysign.Tensor': lambda: [((mixed(2, 3), mixed(2, 3)), {}), ((mixed(2, 3), mixed(3)), {})],
        'copysign.Scalar': lambda: [((mixed(2, 3), -1.5), {}), ((mixed(2, 3), 2), {})],
        'xlogy.Tensor': lambda: [((mixed(2, 3), T(2, 3)), {}), ((mixed(2, 3), T(3)), {})],
        'xlogy.Scalar_Self': lambda: [((2.5, T(2, 3)), {}), ((-1, T(2, 3)), {})],
        'xlogy.Scalar_Other': lambda: [((mixed(2, 3), 2.5), {}), ((mixed(2, 3), 3), {})],
        'special_xlogy': lambda: [((mixed(2, 3), T(2, 3)), {})],
        'special_xlogy.self_scalar': lambda: [((2.5, T(2, 3)), {})],
        'special_xlogy.other_scalar': lambda: [((mixed(2, 3), 2.5), {})],
        'special_expit': lambda: [((mixed(2, 3),), {}), ((C(2, 3, low=-1),), {})],
        'special_erf': lambda: [((mixed(2, 3),), {})],
        'special_erfc': lambda: [((mixed(2, 3),), {})],
        'special_erfinv': lambda: [((unit(2, 3),), {})],
        'special_exp2': lambda: [((mixed(2, 3),), {})],
        'special_expm1': lambda: [((mixed(2, 3),), {})],
        'special_log1p': lambda: [((T(2, 3, low=-0.5, high=1.5),), {})],
        'special_digamma': lambda: [((T(2, 3, low=0.2, high=3.5),), {})],
        'special_psi': lambda: [((T(2, 3, low=0.2, high=3.5),), {})],
        'special_gammaln': lambda: [((T(2, 3, low=0.2, high=3.5),), {})],
        'special_logit': lambda: [((T(2, 3, low=0.1, high=0.9),), {}), ((T(2, 3, low=0.05, high=0.95),), {'eps': 0.2})],
        'i0': lambda: [((mixed(2, 3),), {})],
        'special_i0': lambda: [((mixed(2, 3),), {})],
        'special_i0e': lambda: [((mixed(2, 3),), {})],
        'special_i1': lambda: [((mixed(2, 3),), {}), ((T(4, low=8.5, high=10.0),), {})],
        'special_i1e': lambda: [((mixed(2, 3),), {}), ((T(4, low=8.5, high=10.0),), {})],
        'special_erfcx': lambda: [((T(2, 3, low=-2.0, high=3.0),), {})],
        'special_ndtri': lambda: [((T(2, 3, low=0.05, high=0.95),), {})],
        'special_log_ndtr': lambda: [((T(2, 3, low=-4.0, high=2.0),), {})],
        # zeta(x, q): a gradient for q only (x's raises, as PyTorch's not_implemented("zeta"))
        'special_zeta': lambda: [((T(2, 3, low=2.0, high=3.5, requires_grad=False), T(2, 3, low=0.5, high=2.0)), {})],
        'special_zeta.self_scalar': lambda: [((2.5, T(2, 3)), {})],
        # igamma(a, x): a gradient for x only (a's raises, as PyTorch's not_implemented("igamma: input"))
        'igamma': lambda: [((T(2, 3, low=0.5, high=3.0, requires_grad=False), T(2, 3, low=0.2, high=4.0)), {})],
        'igammac': lambda: [((T(2, 3, low=0.5, high=3.0, requires_grad=False), T(2, 3, low=0.2, high=4.0)), {})],
        'special_gammainc': lambda: [((T(2, 3, low=0.5, high=3.0, requires_grad=False), T(2, 3, low=0.2, high=4.0)), {})],
        'special_gammaincc': lambda: [((T(2, 3, low=0.5, high=3.0, requires_grad=False), T(2, 3, low=0.2, high=4.0)), {})],
        'special_polygamma': lambda: [((1, T(2, 3)), {})],
        'special_multigammaln': lambda: [((T(2, 3, low=1.6, high=2.5), 2), {})],
        'fmax': lambda: [((mixed(2, 3), mixed(2, 3)), {}), ((mixed(2, 3), mixed(3)), {})],
        'fmin': lambda: [((mixed(2, 3), mixed(2, 3)), {}), ((mixed(2, 3), mixed(3)), {})],
        # quotients away from integers, where fmod and remainder jump
        'fmod.Tensor': lambda: [((T(2, 3, low=2.2, high=2.8), T(2, 3, low=0.95, high=1.05)), {}),
                                ((T(2, 3, low=-2.8, high=-2.2), T(3, low=0.95, high=1.05)), {})],
        'fmod.Scalar': lambda: [((mixed(2, 3), 0.7), {}), ((mixed(2, 3), 2), {})],
        'remainder.Scalar': lambda: [((mixed(2, 3), 0.7), {}), ((mixed(2, 3), -2), {})],
        # bounds: values away from the bounds
        'clamp.Tensor': lambda: _clamp_tensor(T, mixed),
        'clip.Tensor': lambda: _clamp_tensor(T, mixed),
        'clamp': lambda: [((mixed(2, 3), -0.7, 0.9), {}), ((mixed(2, 3), -0.3), {}), ((mixed(2, 3), None, 0.4), {}),
                          ((mixed(2, 3), 1.0, -1.0), {})],
        'clip': lambda: [((mixed(2, 3), -0.7, 0.9), {}), ((mixed(2, 3), None, 0.4), {})],
        'clamp_min.Tensor': lambda: [((mixed(2, 3), mixed(2, 3)), {}), ((mixed(2, 3), mixed(3)), {})],
        'clamp_min': lambda: [((mixed(2, 3), 0.3), {})],
        'clamp_max.Tensor': lambda: [((mixed(2, 3), mixed(2, 3)), {}), ((mixed(2, 3), mixed(3)), {})],
        'clamp_max': lambda: [((mixed(2, 3), -0.3), {})],
        'lerp.Tensor': lambda: [((T(2, 3), T(2, 3), T(2, 3)), {}), ((T(2, 3), T(3), T(1, 3)), {})],
        'lerp.Scalar': lambda: [((T(2, 3), T(2, 3), 0.3), {}), ((T(2, 3), T(3), 2), {})],
        'addcmul': lambda: [((T(2, 3), T(2, 3), T(2, 3)), {}), ((T(2, 3), T(3), T(2, 1)), {'value': -0.5})],
        'addcdiv': lambda: [((T(2, 3), T(2, 3), T(2, 3)), {}), ((T(2, 3), T(3), mixed(2, 1)), {'value': 2})],
        # where: the formulas above select with it, so it is differentiable here too
        'where.self': lambda: [((T(2, 3, requires_grad=False) > 1, T(2, 3), T(2, 3)), {}),
                               ((T(3, requires_grad=False) > 1, T(2, 3), T(2, 1)), {})],
        'where.ScalarSelf': lambda: [((T(2, 3, requires_grad=False) > 1, 0.5, T(2, 3)), {})],
        'where.ScalarOther': lambda: [((T(2, 3, requires_grad=False) > 1, T(2, 3), 0.0), {})],
    }
    # comparisons with a number: bool results (their in-place forms on floating tensors: zero gradients)
    for op in ('eq', 'ne', 'lt', 'le', 'gt', 'ge', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal'):
        s[op + '.Scalar'] = lambda: [((mixed(2, 3), 0.25), {})]
    return s


def _clamp_tensor(T, mixed):
    return [((mixed(2, 3), T(2, 3, low=-1.2, high=-0.2), T(2, 3, low=0.2, high=1.2)), {}),
            ((mixed(2, 3), mixed(3)), {}),
            ((mixed(2, 3), None, mixed(2, 3)), {}),
            ((mixed(2, 3), T(3, low=-1.2, high=-0.2), T(1, low=0.3, high=0.6)), {}),
            # min above max: max wins, and only max gets a gradient
            ((mixed(2, 3), T(2, 3, low=0.6, high=0.9), T(2, 3, low=-0.9, high=-0.6)), {})]
