"""fuse_modules: replaces runs of modules (conv+bn, conv+bn+relu, conv+relu, linear+relu, linear+bn,
bn+relu) by one fused module; the other members of the run become nn.Identity. In eval mode batch norms are
folded into the preceding weights; fuse_modules_qat keeps them (ConvBn2d...) for quantization-aware
training."""
import copy

import torch.nn as nn
import torch.ao.nn.intrinsic as nni
from torch.nn.utils.fusion import fuse_conv_bn_eval, fuse_linear_bn_eval

__all__ = ['fuse_modules', 'fuse_modules_qat', 'fuse_known_modules', 'get_fuser_method', 'fuse_conv_bn',
           'fuse_conv_bn_relu', 'fuse_linear_bn']

_CONV_BN = {nn.Conv1d: nni.ConvBn1d, nn.Conv2d: nni.ConvBn2d, nn.Conv3d: nni.ConvBn3d}
_CONV_BN_RELU = {nn.Conv1d: nni.ConvBnReLU1d, nn.Conv2d: nni.ConvBnReLU2d, nn.Conv3d: nni.ConvBnReLU3d}
_CONV_RELU = {nn.Conv1d: nni.ConvReLU1d, nn.Conv2d: nni.ConvReLU2d, nn.Conv3d: nni.ConvReLU3d}


def fuse_conv_bn(is_qat, conv, bn):
    assert conv.training == bn.training, 'Conv and BN both must be in the same mode (train or eval).'
    if is_qat:
        assert bn.num_features == conv.out_channels, 'Output channel of Conv2d must match num_features of BatchNorm2d'
        assert bn.affine, 'Only support fusing BatchNorm2d with affine set to True'
        assert bn.track_running_stats, 'Only support fusing BatchNorm2d with tracking_running_stats set to True'
        if type(conv) not in _CONV_BN:
            raise NotImplementedError('Cannot fuse train modules: {}'.format((conv, bn)))
        return _CONV_BN[type(conv)](conv, bn)
    return fuse_conv_bn_eval(conv, bn)


def fuse_conv_bn_relu(is_qat, conv, bn, relu):
    assert conv.training == bn.training == relu.training, 'Conv and BN both must be in the same mode (train or eval).'
    if is_qat:
        if type(conv) not in _CONV_BN_RELU:
            raise NotImplementedError('Cannot fuse train modules: {}'.format((conv, bn, relu)))
        return _CONV_BN_RELU[type(conv)](conv, bn, relu)
    if type(conv) not in _CONV_RELU:
        raise NotImplementedError('Cannot fuse eval modules: {}'.format((conv, bn, relu)))
    return _CONV_RELU[type(conv)](fuse_conv_bn_eval(conv, bn), relu)


def fuse_linear_bn(is_qat, linear, bn):
    assert linear.training == bn.training, 'Linear and BN both must be in the same mode (train or eval).'
    if is_qat:
        assert bn.num_features == linear.out_features, \
            'Output features of Linear must match num_features of BatchNorm1d'
        return nni.LinearBn1d(linear, bn)
    return fuse_linear_bn_eval(linear, bn)


def _sequential(cls):
    return lambda is_qat, *modules: cls(*modules)


_FUSERS = {
    (nn.Conv1d, nn.BatchNorm1d): fuse_conv_bn, (nn.Conv2d, nn.BatchNorm2d): fuse_conv_bn,
    (nn.Conv3d, nn.BatchNorm3d): fuse_conv_bn,
    (nn.Conv1d, nn.BatchNorm1d, nn.ReLU): fuse_conv_bn_relu, (nn.Conv2d, nn.BatchNorm2d, nn.ReLU): fuse_conv_bn_relu,
    (nn.Conv3d, nn.BatchNorm3d, nn.ReLU): fuse_conv_bn_relu,
    (nn.Conv1d, nn.ReLU): _sequential(nni.ConvReLU1d), (nn.Conv2d, nn.ReLU): _sequential(nni.ConvReLU2d),
    (nn.Conv3d, nn.ReLU): _sequential(nni.ConvReLU3d),
    (nn.Linear, nn.BatchNorm1d): fuse_linear_bn, (nn.Linear, nn.ReLU): _sequential(nni.LinearReLU),
    (nn.BatchNorm2d, nn.ReLU): _sequential(nni.BNReLU2d), (nn.BatchNorm3d, nn.ReLU): _sequential(nni.BNReLU3d),
}


def get_fuser_method(op_list, additional_fuser_method_mapping=None):
    """The fuser for a tuple of module types (AssertionError when there is none)."""
    mapping = dict(_FUSERS, **(additional_fuser_method_mapping or {}))
    fuser = mapping.get(tuple(op_list))
    assert fuser is not None, 'did not find fuser method for: {} '.format(op_list)
    return fuser


def fuse_known_modules(mod_list, is_qat, additional_fuser_method_mapping=None):
    """The list that replaces mod_list: the fused module first, Identity for the rest."""
    types = tuple(type(m) for m in mod_list)
    fuser = get_fuser_method(types, additional_fuser_method_mapping)
    if fuser is None:
        raise NotImplementedError('Cannot fuse modules: {}'.format(types))
    fused = fuser(is_qat, *mod_list)
    # forward pre-hooks of the first module and forward hooks of the last one now belong to the fused module
    for hook in mod_list[0]._forward_pre_hooks.values():
        fused.register_forward_pre_hook(hook)
    for hook in mod_list[-1]._forward_hooks.values():
        fused.register_forward_hook(hook)
    out = [fused]
    for m in mod_list[1:]:
        identity = nn.Identity()
        identity.training = m.training
        out.append(identity)
    return out


def _get_module(model, name):
    for atom in name.split('.'):
        model = getattr(model, atom)
    return model


def _set_module(model, name, new):
    *path, last = name.split('.')
    for atom in path:
        model = getattr(model, atom)
    setattr(model, last, new)


def _fuse(model, modules_to_fuse, is_qat, inplace, fuser_func, fuse_custom_config_dict):
    if not inplace:
        model = copy.deepcopy(model)
    additional = (fuse_custom_config_dict or {}).get('additional_fuser_method_mapping', {})
    groups = modules_to_fuse if all(isinstance(x, (list, tuple)) for x in modules_to_fuse) else [modules_to_fuse]
    for names in groups:
        new_mods = fuser_func([_get_module(model, n) for n in names], is_qat, additional)
        for name, new in zip(names, new_mods):
            _set_module(model, name, new)
    return model


def fuse_modules(model, modules_to_fuse, inplace=False, fuser_func=fuse_known_modules, fuse_custom_config_dict=None):
    """Fuses each list of submodule names in modules_to_fuse (or the one list) for inference; the model
    must be in eval mode for batch norms to fold. Returns the fused model (a copy unless inplace)."""
    return _fuse(model, modules_to_fuse, False, inplace, fuser_func, fuse_custom_config_dict)


def fuse_modules_qat(model, modules_to_fuse, inplace=False, fuser_func=fuse_known_modules,
                     fuse_custom_config_dict=None):
    """fuse_modules for quantization-aware training: batch norms stay as modules (ConvBn2d, ...)."""
    return _fuse(model, modules_to_fuse, True, inplace, fuser_func, fuse_custom_config_dict)
