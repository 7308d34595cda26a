"""The fused update ops of core/ops.table's "nn: optimizer updates" (internal ops, reached through
torch.ops), looked up once. Each updates a parameter and its state in one pass, in place."""
import torch


def _op(name):
    return getattr(torch.ops.aten, name).default


sgd = _op('_sgd_update_')
adam = _op('_adam_update_')
rmsprop = _op('_rmsprop_update_')
adagrad = _op('_adagrad_update_')
adadelta = _op('_adadelta_update_')
adamax = _op('_adamax_update_')
asgd = _op('_asgd_update_')
rprop = _op('_rprop_update_')
nadam = _op('_nadam_update_')
radam = _op('_radam_update_')
