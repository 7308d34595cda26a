"""Fashion-MNIST (and MNIST) from IDX files, as a torch.utils.data.Dataset.

Debian's dataset-fashion-mnist puts the four gzip'ed IDX files in /usr/share/datasets/fashion-mnist.
The images are read once into one uint8 tensor; items are (1x28x28 float32 image, normalised, label).
"""
import gzip
import os
import struct

import numpy

import torch
from torch.utils.data import Dataset

FASHION_MNIST = '/usr/share/datasets/fashion-mnist'
CLASSES = ('T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt', 'Sneaker', 'Bag',
           'Ankle boot')
# Fashion-MNIST's training-set pixel mean and standard deviation (of the 0..1 values)
MEAN, STD = 0.2860, 0.3530

# IDX element type codes
_NUMPY_TYPES = {0x08: 'uint8', 0x09: 'int8', 0x0B: 'int16', 0x0C: 'int32', 0x0D: 'float32', 0x0E: 'float64'}


def read_idx(path):
    """An IDX file (optionally gzip'ed) as a tensor of its dims and element type."""
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rb') as f:
        data = f.read()
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] not in _NUMPY_TYPES:
        raise ValueError('%s is not an IDX file' % path)
    ndim = data[3]
    dims = struct.unpack('>%dI' % ndim, data[4:4 + 4 * ndim])
    body = data[4 + 4 * ndim:]
    count = 1
    for d in dims:
        count *= d
    big_endian = numpy.dtype(_NUMPY_TYPES[data[2]]).newbyteorder('>')
    if len(body) != count * big_endian.itemsize:
        raise ValueError('%s: %d bytes of data for dims %s' % (path, len(body), dims))
    flat = torch.from_numpy(numpy.frombuffer(body, dtype=big_endian).astype(_NUMPY_TYPES[data[2]]))
    return flat.reshape(dims)


class FashionMNIST(Dataset):
    """train=True: the 60,000 training images; False: the 10,000 test images."""

    def __init__(self, root=FASHION_MNIST, train=True, normalize=True):
        kind = 'train' if train else 't10k'
        self.images = read_idx(os.path.join(root, '%s-images-idx3-ubyte.gz' % kind))
        self.labels = read_idx(os.path.join(root, '%s-labels-idx1-ubyte.gz' % kind)).long()
        if self.images.shape[0] != self.labels.shape[0]:
            raise ValueError('%d images but %d labels' % (self.images.shape[0], self.labels.shape[0]))
        # converted once: the loader then only slices
        x = self.images.float().div_(255.0)
        if normalize:
            x = x.sub_(MEAN).div_(STD)
        self.data = x.unsqueeze(1)

    def __len__(self):
        return self.labels.shape[0]

    def __getitem__(self, i):
        return self.data[i], self.labels[i]
