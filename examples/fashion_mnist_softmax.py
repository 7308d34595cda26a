"""The main job until torch.nn and autograd land: a softmax-regression classifier for Fashion-MNIST,
trained with hand-written gradients on this project's tensors (matmul through the BLAS plugin,
reductions, broadcasting, views). Reads Debian's dataset-fashion-mnist.

Run: PYTHONPATH=build/release /usr/bin/python3 examples/fashion_mnist_softmax.py [--epochs N]
"""
import argparse
import gzip
import os
import time

import numpy

import torch

DATA = '/usr/share/datasets/fashion-mnist'


def load(kind):
    with gzip.open(os.path.join(DATA, '%s-images-idx3-ubyte.gz' % kind)) as f:
        images = numpy.frombuffer(f.read(), dtype=numpy.uint8, offset=16)
    with gzip.open(os.path.join(DATA, '%s-labels-idx1-ubyte.gz' % kind)) as f:
        labels = numpy.frombuffer(f.read(), dtype=numpy.uint8, offset=8)
    x = torch.from_numpy(images.copy()).view(-1, 784).float() / 255.0
    y = torch.from_numpy(labels.copy()).long()
    return x, y


def softmax(logits):
    shifted = logits - logits.max(1, keepdim=True).values
    e = shifted.exp()
    return e / e.sum(1, keepdim=True)


def accuracy(w, b, x, y):
    return (x.mm(w).add(b).argmax(1) == y).float().mean().item()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--epochs', type=int, default=5)
    parser.add_argument('--batch', type=int, default=100)
    parser.add_argument('--lr', type=float, default=0.5)
    args = parser.parse_args()

    train_x, train_y = load('train')
    test_x, test_y = load('t10k')
    mean = train_x.mean()
    train_x, test_x = train_x - mean, test_x - mean
    classes = torch.arange(10).view(1, 10)
    w = torch.zeros(784, 10)
    b = torch.zeros(10)
    n = train_x.shape[0]
    print('torch from %s; BLAS: %s' % (torch.__file__, torch.backends.blas.describe()))
    print('train %s, test %s' % (tuple(train_x.shape), tuple(test_x.shape)))
    start = time.perf_counter()
    for epoch in range(args.epochs):
        loss_sum = 0.0
        for i in range(0, n, args.batch):
            x, y = train_x[i:i + args.batch], train_y[i:i + args.batch]
            onehot = (y.view(-1, 1) == classes).float()
            p = softmax(x @ w + b)
            loss_sum += -(p * onehot).sum(1).log().mean().item() * x.shape[0]
            grad = (p - onehot) / x.shape[0]
            w -= args.lr * (x.t() @ grad)
            b -= args.lr * grad.sum(0)
        print('epoch %d  loss %.4f  train acc %.4f  test acc %.4f  (%.1fs)' % (
            epoch + 1, loss_sum / n, accuracy(w, b, train_x, train_y), accuracy(w, b, test_x, test_y),
            time.perf_counter() - start))
    final = accuracy(w, b, test_x, test_y)
    print('final test accuracy: %.4f' % final)
    return 0 if final > 0.75 else 1


if __name__ == '__main__':
    raise SystemExit(main())
