"""Recurrent layers run step by step in Python, for the cases the sequence ops (torch.lstm, torch.gru,
torch.rnn_tanh, torch.rnn_relu) do not take: packed sequences, whose batch shrinks from step to step,
and LSTMs with projections (proj_size > 0).

The algorithm is PyTorch's CPU one for packed inputs: each layer and direction first projects all its
inputs at once (linear(data, w_ih, b_ih)); then each step takes the next batch_sizes[t] rows, the
running hidden state loses the rows of sequences that ended (kept as their final states) - or, going
backwards, gains the initial states of sequences that start - and goes through the cell. The two
directions' outputs are concatenated along the features, and dropout (the op, so its draws are
PyTorch's) follows every layer but the last in training.

A padded (T, B, *) sequence runs as a packed one of T steps of B rows. Results are joined by slice
copies (differentiable through CopySlices) where PyTorch calls cat and stack.
"""
import torch
from torch.nn import functional as F


def _concat(tensors, dim=0):
    """cat(tensors, dim), by slice copies into one new tensor."""
    if len(tensors) == 1:
        return tensors[0]
    shape = list(tensors[0].shape)
    shape[dim] = sum(t.size(dim) for t in tensors)
    out = tensors[0].new_empty(shape)
    offset = 0
    for t in tensors:
        out.narrow(dim, offset, t.size(dim)).copy_(t)
        offset += t.size(dim)
    return out


def _stack(tensors):
    return _concat([t.unsqueeze(0) for t in tensors], 0)


def _cell(mode, x_proj, hidden, w_hh, b_hh, w_hr):
    """One step: x_proj is the step's input projection, hidden the state (h, c for LSTM)."""
    if mode == 'LSTM':
        hx, cx = hidden
        gates = F.linear(hx, w_hh, b_hh) + x_proj
        ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
        cy = forgetgate.sigmoid() * cx + ingate.sigmoid() * cellgate.tanh()
        hy = outgate.sigmoid() * cy.tanh()
        if w_hr is not None:
            hy = torch.matmul(hy, w_hr.t())
        return hy, cy
    if mode == 'GRU':
        i_r, i_z, i_n = x_proj.chunk(3, 1)
        h_r, h_z, h_n = F.linear(hidden, w_hh, b_hh).chunk(3, 1)
        reset = (h_r + i_r).sigmoid()
        update = (h_z + i_z).sigmoid()
        new = (i_n + h_n * reset).tanh()
        return (hidden - new) * update + new
    pre = F.linear(hidden, w_hh, b_hh) + x_proj
    return pre.tanh() if mode == 'RNN_TANH' else pre.relu()


def _rows(hidden, start, end):
    if isinstance(hidden, tuple):
        return tuple(h[start:end] for h in hidden)
    return hidden[start:end]


def _join(parts):
    if isinstance(parts[0], tuple):
        return tuple(_concat([p[i] for p in parts], 0) for i in range(len(parts[0])))
    return _concat(parts, 0)


def _output(hidden):
    return hidden[0] if isinstance(hidden, tuple) else hidden


def _forward_layer(mode, x_proj, batch_sizes, h0, weights):
    """One direction forwards: (packed outputs, final hidden state of every sequence)."""
    _, w_hh, _, b_hh, w_hr = weights
    outputs, finals = [], []
    offset, last, hidden = 0, batch_sizes[0], h0
    for batch in batch_sizes:
        step = x_proj.narrow(0, offset, batch)
        offset += batch
        if batch < last:  # the sequences past `batch` have ended: their states are final
            finals.append(_rows(hidden, batch, last))
            hidden = _rows(hidden, 0, batch)
        last = batch
        hidden = _cell(mode, step, hidden, w_hh, b_hh, w_hr)
        outputs.append(_output(hidden))
    finals.append(hidden)
    finals.reverse()
    return _concat(outputs, 0), _join(finals)


def _reverse_layer(mode, x_proj, batch_sizes, h0, weights):
    """One direction backwards, from the last step; sequences join as their last steps come."""
    _, w_hh, _, b_hh, w_hr = weights
    outputs = []
    offset, last = x_proj.size(0), batch_sizes[-1]
    hidden = _rows(h0, 0, last)
    for batch in reversed(batch_sizes):
        if batch > last:
            hidden = _join([hidden, _rows(h0, last, batch)])
        step = x_proj.narrow(0, offset - batch, batch)
        offset -= batch
        last = batch
        hidden = _cell(mode, step, hidden, w_hh, b_hh, w_hr)
        outputs.append(_output(hidden))
    outputs.reverse()
    return _concat(outputs, 0), hidden


def run_packed(mode, data, batch_sizes, hx, flat_weights, has_biases, num_layers, dropout, train, bidirectional,
               has_projections):
    """The stacked layers over packed `data` (sum(batch_sizes), features): (output data, h_n) or, for
    LSTM (hx a pair), (output data, h_n, c_n)."""
    batch_sizes = [int(b) for b in batch_sizes]
    directions = 2 if bidirectional else 1
    per = (4 if has_biases else 2) + (1 if has_projections else 0)
    finals = []
    x = data
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            w = list(flat_weights[index * per:(index + 1) * per])
            w_ih, w_hh = w[0], w[1]
            b_ih, b_hh = (w[2], w[3]) if has_biases else (None, None)
            w_hr = w[-1] if has_projections else None
            h0 = (hx[0][index], hx[1][index]) if mode == 'LSTM' else hx[index]
            run = _reverse_layer if direction == 1 else _forward_layer
            out, final = run(mode, F.linear(x, w_ih, b_ih), batch_sizes, h0, (w_ih, w_hh, b_ih, b_hh, w_hr))
            outputs.append(out)
            finals.append(final)
        x = _concat(outputs, -1)
        if dropout != 0 and train and layer < num_layers - 1:
            x = torch.dropout(x, dropout, True)
    if mode == 'LSTM':
        return x, _stack([f[0] for f in finals]), _stack([f[1] for f in finals])
    return x, _stack(finals)


def run_padded(mode, input, hx, flat_weights, has_biases, num_layers, dropout, train, bidirectional,
               batch_first, has_projections):
    """run_packed for a (T, B, features) input ((B, T, features) with batch_first)."""
    if batch_first:
        input = input.transpose(0, 1)
    steps, batch = input.size(0), input.size(1)
    result = run_packed(mode, input.reshape(steps * batch, input.size(2)), [batch] * steps, hx, flat_weights,
                        has_biases, num_layers, dropout, train, bidirectional, has_projections)
    output = result[0].reshape(steps, batch, result[0].size(-1))
    if batch_first:
        output = output.transpose(0, 1)
    return (output,) + tuple(result[1:])
