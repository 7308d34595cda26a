"""The `reduction` argument of losses: PyTorch's names, the legacy size_average/reduce pair, and the
enum the ops take (0 none, 1 mean, 2 sum)."""
import warnings


def get_enum(reduction):
    if reduction == 'none':
        return 0
    if reduction == 'mean':
        return 1
    if reduction == 'elementwise_mean':
        warnings.warn("reduction='elementwise_mean' is deprecated, please use reduction='mean' instead.")
        return 1
    if reduction == 'sum':
        return 2
    raise ValueError("{} is not a valid value for reduction".format(reduction))


def legacy_get_string(size_average, reduce, emit_warning=True):
    """The reduction the deprecated size_average/reduce arguments meant."""
    warning = "size_average and reduce args will be deprecated, please use reduction='{}' instead."
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        ret = 'mean'
    elif reduce:
        ret = 'sum'
    else:
        ret = 'none'
    if emit_warning:
        warnings.warn(warning.format(ret))
    return ret


def legacy_get_enum(size_average, reduce, emit_warning=True):
    return get_enum(legacy_get_string(size_average, reduce, emit_warning))
