"""Recurrent layers: RNN, LSTM, GRU over whole sequences, and their cells.

RNNBase keeps PyTorch's parameters and names: for each layer l and direction (suffix '_reverse'),
weight_ih_l{l}, weight_hh_l{l}, bias_ih_l{l}, bias_hh_l{l} and, for an LSTM with proj_size,
weight_hr_l{l}; _flat_weights lists them in that order (what the sequence ops take), all drawn from
U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)) in registration order. Padded inputs run through the
sequence ops torch.rnn_tanh/rnn_relu/lstm/gru; PackedSequence inputs and LSTM projections run step by
step (_rnn_steps.py), as PyTorch's packed CPU path does. flatten_parameters is a no-op (it packs
cuDNN's weight buffer in PyTorch).
"""
import math
import numbers
import warnings

import torch
from torch.nn import init
from torch.nn.modules import _rnn_steps
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter
from torch.nn.utils.rnn import PackedSequence, _select

__all__ = ['RNNBase', 'RNN', 'LSTM', 'GRU', 'RNNCellBase', 'RNNCell', 'LSTMCell', 'GRUCell']

_GATES = {'LSTM': 4, 'GRU': 3, 'RNN_TANH': 1, 'RNN_RELU': 1}


def _apply_permutation(tensor, permutation, dim=1):
    # tensor.index_select(dim, permutation), by slice copies (differentiable through CopySlices)
    return _select(tensor, dim, permutation.tolist())


def apply_permutation(tensor, permutation, dim=1):
    warnings.warn("apply_permutation is deprecated, please use tensor.index_select(dim, permutation) instead")
    return _apply_permutation(tensor, permutation, dim)


def _weight_names(layer, direction, bias, proj_size):
    suffix = '_reverse' if direction == 1 else ''
    names = ['weight_ih_l{}{}', 'weight_hh_l{}{}']
    if bias:
        names += ['bias_ih_l{}{}', 'bias_hh_l{}{}']
    if proj_size > 0:
        names += ['weight_hr_l{}{}']
    return [n.format(layer, suffix) for n in names]


class RNNBase(Module):
    """The parameters, checks and bookkeeping RNN, LSTM and GRU share; `mode` is 'LSTM', 'GRU',
    'RNN_TANH' or 'RNN_RELU'."""

    __constants__ = ['mode', 'input_size', 'hidden_size', 'num_layers', 'bias', 'batch_first', 'dropout',
                     'bidirectional', 'proj_size']
    __jit_unused_properties__ = ['all_weights']

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        factory_kwargs = {'device': device, 'dtype': dtype}
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element "
                             "being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          "expects num_layers greater than 1, but got dropout={} and num_layers={}".format(
                              dropout, num_layers))
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                # all four are made (and the biases dropped when bias=False), as PyTorch does
                w_ih = Parameter(torch.empty((gate_size, layer_input_size), **factory_kwargs))
                w_hh = Parameter(torch.empty((gate_size, real_hidden_size), **factory_kwargs))
                b_ih = Parameter(torch.empty(gate_size, **factory_kwargs))
                b_hh = Parameter(torch.empty(gate_size, **factory_kwargs))
                params = [w_ih, w_hh] + ([b_ih, b_hh] if bias else [])
                if proj_size > 0:
                    params.append(Parameter(torch.empty((proj_size, hidden_size), **factory_kwargs)))
                names = _weight_names(layer, direction, bias, proj_size)
                for name, param in zip(names, params):
                    setattr(self, name, param)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self._init_flat_weights()
        self.flatten_parameters()
        self.reset_parameters()

    def _init_flat_weights(self):
        self._flat_weights = [getattr(self, wn) if hasattr(self, wn) else None for wn in self._flat_weights_names]

    def __setattr__(self, attr, value):
        if hasattr(self, '_flat_weights_names') and attr in self._flat_weights_names:
            # keep _flat_weights current when a weight is replaced
            self._flat_weights[self._flat_weights_names.index(attr)] = value
        super().__setattr__(attr, value)

    def flatten_parameters(self):
        """Packs the weights into cuDNN's one buffer in PyTorch; nothing to do here."""
        return None

    def _apply(self, fn):
        ret = super()._apply(fn)
        self._init_flat_weights()
        self.flatten_parameters()
        return ret

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input, batch_sizes):
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError('input must have {} dimensions, got {}'.format(expected_input_dim, input.dim()))
        if self.input_size != input.size(-1):
            raise RuntimeError('input.size(-1) must be equal to input_size. Expected {}, got {}'.format(
                self.input_size, input.size(-1)))

    def get_expected_hidden_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, size)

    def check_hidden_size(self, hx, expected_hidden_size, msg='Expected hidden size {}, got {}'):
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return _apply_permutation(hx, permutation)

    def extra_repr(self):
        s = '{input_size}, {hidden_size}'
        if self.proj_size != 0:
            s += ', proj_size={proj_size}'
        if self.num_layers != 1:
            s += ', num_layers={num_layers}'
        if self.bias is not True:
            s += ', bias={bias}'
        if self.batch_first is not False:
            s += ', batch_first={batch_first}'
        if self.dropout != 0:
            s += ', dropout={dropout}'
        if self.bidirectional is not False:
            s += ', bidirectional={bidirectional}'
        return s.format(**self.__dict__)

    def __setstate__(self, d):
        super().__setstate__(d)
        if 'all_weights' in d:
            self._all_weights = d['all_weights']
        if 'proj_size' not in d:  # pickled before PyTorch 1.8
            self.proj_size = 0
        if isinstance(self._all_weights[0][0], str):
            return
        # very old pickles kept the weights themselves in _all_weights
        num_directions = 2 if self.bidirectional else 1
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(self.num_layers):
            for direction in range(num_directions):
                names = _weight_names(layer, direction, self.bias, self.proj_size)
                self._all_weights.append(names)
                self._flat_weights_names.extend(names)
        self._init_flat_weights()

    @property
    def all_weights(self):
        return [[getattr(self, weight) for weight in weights] for weights in self._all_weights]

    # ---- forward, shared by the three: unbatched inputs, default states, packed sequences ----

    def _state_sizes(self):
        """The feature sizes of the hidden states: (h,) or, for LSTM, (h, c)."""
        return (self.hidden_size,)

    def _check_batched_hx(self, hx, is_batched):
        """hx with a batch dim (an unbatched input's hx gets one), or PyTorch's error."""
        if is_batched:
            if hx.dim() != 3:
                raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
            return hx
        if hx.dim() != 2:
            raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
        return hx.unsqueeze(1)

    def _squeeze_hidden(self, hidden):
        return hidden.squeeze(1)

    def _run(self, input, hx, batch_sizes):
        """(output, hidden) of the sequence op (or of the step-by-step path)."""
        raise NotImplementedError

    def forward(self, input, hx=None):
        orig_input = input
        if isinstance(orig_input, PackedSequence):
            input, batch_sizes, sorted_indices, unsorted_indices = input
            max_batch_size = int(batch_sizes[0])
        else:
            batch_sizes = None
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
            if hx is not None:
                hx = self._check_batched_hx(hx, is_batched)
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            sorted_indices = None
            unsorted_indices = None
        if hx is None:
            num_directions = 2 if self.bidirectional else 1
            zeros = [torch.zeros(self.num_layers * num_directions, max_batch_size, size, dtype=input.dtype,
                                 device=input.device) for size in self._state_sizes()]
            hx = zeros[0] if len(zeros) == 1 else tuple(zeros)
        else:
            # the states follow their sequences into the length-sorted order
            hx = self.permute_hidden(hx, sorted_indices)
        self.check_forward_args(input, hx, batch_sizes)
        output, hidden = self._run(input, hx, batch_sizes)
        if isinstance(orig_input, PackedSequence):
            return PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices), \
                self.permute_hidden(hidden, unsorted_indices)
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = self._squeeze_hidden(hidden)
        return output, self.permute_hidden(hidden, unsorted_indices)

    def _step_by_step(self, input, hx, batch_sizes):
        args = (self._flat_weights, self.bias, self.num_layers, self.dropout, self.training, self.bidirectional)
        if batch_sizes is not None:
            return _rnn_steps.run_packed(self.mode, input, batch_sizes, hx, *args, self.proj_size > 0)
        return _rnn_steps.run_padded(self.mode, input, hx, *args, self.batch_first, self.proj_size > 0)


class RNN(RNNBase):
    """Elman RNN: h_t = tanh (or relu) of x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh, stacked num_layers
    deep. Arguments: input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True,
    batch_first=False, dropout=0, bidirectional=False."""

    def __init__(self, *args, **kwargs):
        if 'proj_size' in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        self.nonlinearity = kwargs.pop('nonlinearity', 'tanh')
        if self.nonlinearity == 'tanh':
            mode = 'RNN_TANH'
        elif self.nonlinearity == 'relu':
            mode = 'RNN_RELU'
        else:
            raise ValueError("Unknown nonlinearity '{}'".format(self.nonlinearity))
        super().__init__(mode, *args, **kwargs)

    def _run(self, input, hx, batch_sizes):
        if batch_sizes is not None:
            return self._step_by_step(input, hx, batch_sizes)
        op = torch.rnn_tanh if self.mode == 'RNN_TANH' else torch.rnn_relu
        return op(input, hx, self._flat_weights, self.bias, self.num_layers, self.dropout, self.training,
                  self.bidirectional, self.batch_first)


class LSTM(RNNBase):
    """Long short-term memory, stacked num_layers deep; proj_size > 0 projects each hidden state
    (h_t = W_hr h_t) to proj_size features. The state is a pair (h, c)."""

    def __init__(self, *args, **kwargs):
        super().__init__('LSTM', *args, **kwargs)

    def _state_sizes(self):
        return (self.proj_size if self.proj_size > 0 else self.hidden_size, self.hidden_size)

    def get_expected_cell_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               'Expected hidden[0] size {}, got {}')
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               'Expected hidden[1] size {}, got {}')

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return _apply_permutation(hx[0], permutation), _apply_permutation(hx[1], permutation)

    def _check_batched_hx(self, hx, is_batched):
        if is_batched:
            if hx[0].dim() != 3 or hx[1].dim() != 3:
                raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but got ({}-D, {}-D) tensors"
                                   .format(hx[0].dim(), hx[1].dim()))
            return hx
        if hx[0].dim() != 2 or hx[1].dim() != 2:
            raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D but got ({}-D, {}-D) tensors"
                               .format(hx[0].dim(), hx[1].dim()))
        return hx[0].unsqueeze(1), hx[1].unsqueeze(1)

    def _squeeze_hidden(self, hidden):
        return hidden[0].squeeze(1), hidden[1].squeeze(1)

    def _run(self, input, hx, batch_sizes):
        if batch_sizes is not None or self.proj_size > 0:
            result = self._step_by_step(input, hx, batch_sizes)
        else:
            result = torch.lstm(input, hx, self._flat_weights, self.bias, self.num_layers, self.dropout,
                                self.training, self.bidirectional, self.batch_first)
        return result[0], tuple(result[1:])


class GRU(RNNBase):
    """Gated recurrent unit, stacked num_layers deep."""

    def __init__(self, *args, **kwargs):
        if 'proj_size' in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__('GRU', *args, **kwargs)

    def _run(self, input, hx, batch_sizes):
        if batch_sizes is not None:
            return self._step_by_step(input, hx, batch_sizes)
        return torch.gru(input, hx, self._flat_weights, self.bias, self.num_layers, self.dropout, self.training,
                         self.bidirectional, self.batch_first)


class RNNCellBase(Module):
    """weight_ih (num_chunks hidden_size, input_size), weight_hh (num_chunks hidden_size, hidden_size)
    and their biases, drawn from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""

    __constants__ = ['input_size', 'hidden_size', 'bias']

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        factory_kwargs = {'device': device, 'dtype': dtype}
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(torch.empty((num_chunks * hidden_size, input_size), **factory_kwargs))
        self.weight_hh = Parameter(torch.empty((num_chunks * hidden_size, hidden_size), **factory_kwargs))
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
        else:
            self.register_parameter('bias_ih', None)
            self.register_parameter('bias_hh', None)
        self.reset_parameters()

    def extra_repr(self):
        s = '{input_size}, {hidden_size}'
        if 'bias' in self.__dict__ and self.bias is not True:
            s += ', bias={bias}'
        if 'nonlinearity' in self.__dict__ and self.nonlinearity != "tanh":
            s += ', nonlinearity={nonlinearity}'
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batched(self, input):
        assert input.dim() in (1, 2), \
            f"{type(self).__name__}: Expected input to be 1-D or 2-D but received {input.dim()}-D tensor"
        is_batched = input.dim() == 2
        return (input if is_batched else input.unsqueeze(0)), is_batched

    def _zeros(self, input):
        return torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: h' = tanh (or relu) of x W_ih^T + b_ih + h W_hh^T + b_hh."""

    __constants__ = ['input_size', 'hidden_size', 'bias', 'nonlinearity']

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, is_batched = self._batched(input)
        hx = self._zeros(input) if hx is None else (hx if is_batched else hx.unsqueeze(0))
        if self.nonlinearity == "tanh":
            ret = torch.rnn_tanh_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        elif self.nonlinearity == "relu":
            ret = torch.rnn_relu_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        else:
            raise RuntimeError("Unknown nonlinearity: {}".format(self.nonlinearity))
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: (h, c) -> (h', c')."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, is_batched = self._batched(input)
        if hx is None:
            zeros = self._zeros(input)
            hx = (zeros, zeros)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        ret = torch.lstm_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if is_batched else (ret[0].squeeze(0), ret[1].squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step: h -> h'."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, is_batched = self._batched(input)
        hx = self._zeros(input) if hx is None else (hx if is_batched else hx.unsqueeze(0))
        ret = torch.gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)
