"""Instance normalisation: each sample's channels normalised over their own spatial extent
(F.instance_norm); no affine parameters and no running statistics unless asked for."""
from torch.nn import functional as F
from torch.nn.modules.batchnorm import _NormBase

__all__ = ['InstanceNorm1d', 'InstanceNorm2d', 'InstanceNorm3d']


class _InstanceNorm(_NormBase):
    # the dims of an unbatched input, set by each subclass
    _no_batch_dim = None

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device=device, dtype=dtype)

    def _check_input_dim(self, input):
        n = self._no_batch_dim
        if input.dim() not in (n, n + 1):
            raise ValueError('expected {}D or {}D input (got {}D input)'.format(n, n + 1, input.dim()))

    def _get_no_batch_dim(self):
        return self._no_batch_dim

    def _handle_no_batch_input(self, input):
        return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)

    def _apply_instance_norm(self, input):
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                               self.training or not self.track_running_stats, self.momentum, self.eps)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        version = local_metadata.get('version', None)
        if version is None and not self.track_running_stats:
            # checkpoints from before 0.4.0, when instance norm tracked running stats by default
            keys = [prefix + name for name in ('running_mean', 'running_var') if prefix + name in state_dict]
            if keys:
                error_msgs.append(
                    'Unexpected running stats buffer(s) {names} for {klass} with track_running_stats=False. If '
                    'state_dict is a checkpoint saved before 0.4.0, this may be expected because {klass} does not '
                    'track running stats by default since 0.4.0. Please remove these keys from state_dict. If the '
                    'running stats are actually needed, instead set track_running_stats=True in {klass} to enable '
                    'them. See the documentation of {klass} for details.'.format(
                        names=' and '.join('"{}"'.format(k) for k in keys), klass=self.__class__.__name__))
                for key in keys:
                    state_dict.pop(key)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

    def forward(self, input):
        self._check_input_dim(input)
        if input.dim() == self._get_no_batch_dim():
            return self._handle_no_batch_input(input)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of (N, C, L) or (C, L) inputs."""

    _no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of (N, C, H, W) or (C, H, W) inputs."""

    _no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of (N, C, D, H, W) or (C, D, H, W) inputs."""

    _no_batch_dim = 4
