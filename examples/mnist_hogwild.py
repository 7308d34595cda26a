"""Hogwild training (PyTorch's mnist_hogwild example, on Fashion-MNIST): one small convnet whose
parameters live in shared memory (model.share_memory()), trained at once by several processes
(torch.multiprocessing), each with its own optimizer and data order, none taking a lock.

It trains the same network single-process first (the same epochs, seed and batch size), then with
--num-processes workers, and compares the test accuracies: the run succeeds (exit 0) when hogwild
comes within --tolerance points of the single process.

Run: PYTHONPATH=build/release /usr/bin/python3 examples/mnist_hogwild.py [--num-processes 2] [--epochs 1]
(`scons hogwild` does that.)
"""
import argparse
import os
import sys
import time

import torch
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from idx_dataset import FashionMNIST  # noqa: E402


class Net(nn.Module):
    """The network of PyTorch's hogwild example: two 5x5 convolutions, two linear layers."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 320)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        return F.log_softmax(self.fc2(x), dim=1)


def train(rank, args, model, dataset):
    """One process's share of the work: every epoch over the whole training set in its own order,
    stepping the shared parameters in place."""
    torch.manual_seed(args.seed + rank)
    torch.set_num_threads(args.threads)
    loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=True)
    optimizer = optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)
    model.train()
    for epoch in range(1, args.epochs + 1):
        for i, (data, target) in enumerate(loader):
            optimizer.zero_grad()
            loss = F.nll_loss(model(data), target)
            loss.backward()
            optimizer.step()
            if i % args.log_interval == 0:
                print('process %d epoch %d [%5d/%d] loss %.4f' % (rank, epoch, i * len(data), len(dataset),
                                                                   loss.item()), flush=True)


def evaluate(model, dataset):
    model.eval()
    correct = 0
    with torch.no_grad():
        for data, target in DataLoader(dataset, batch_size=1000):
            correct += (model(data).argmax(dim=1) == target).sum().item()
    return correct / len(dataset)


def run(args, num_processes, train_set, test_set):
    torch.manual_seed(args.seed)
    model = Net()
    t0 = time.perf_counter()
    if num_processes == 1:
        torch.set_num_threads(args.threads * args.num_processes)
        train(0, args, model, train_set)
    else:
        model.share_memory()  # gradients are allocated per process; the parameters are one for all
        ctx = mp.get_context(args.start_method)
        processes = [ctx.Process(target=train, args=(rank, args, model, train_set)) for rank in range(num_processes)]
        for p in processes:
            p.start()
        for p in processes:
            p.join()
        failed = [p.exitcode for p in processes if p.exitcode != 0]
        if failed:
            raise RuntimeError('hogwild workers failed with exit codes %s' % failed)
    seconds = time.perf_counter() - t0
    return evaluate(model, test_set), seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--num-processes', type=int, default=2)
    parser.add_argument('--epochs', type=int, default=1)
    parser.add_argument('--batch-size', type=int, default=64)
    parser.add_argument('--lr', type=float, default=0.01)
    parser.add_argument('--momentum', type=float, default=0.5)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--log-interval', type=int, default=200)
    parser.add_argument('--start-method', default='fork', choices=mp.get_all_start_methods())
    parser.add_argument('--tolerance', type=float, default=2.0, help='accuracy points hogwild may lose')
    parser.add_argument('--skip-single', action='store_true', help='train only the hogwild model')
    args = parser.parse_args()
    args.threads = max(1, (os.cpu_count() or 1) // args.num_processes)

    train_set, test_set = FashionMNIST(train=True), FashionMNIST(train=False)
    single = None
    if not args.skip_single:
        single, seconds = run(args, 1, train_set, test_set)
        print('single process: test accuracy %.2f%% (%.1f s)' % (100 * single, seconds), flush=True)
    hogwild, seconds = run(args, args.num_processes, train_set, test_set)
    print('hogwild, %d processes: test accuracy %.2f%% (%.1f s)' % (args.num_processes, 100 * hogwild, seconds))
    if single is None:
        return 0
    ok = hogwild >= single - args.tolerance / 100
    print('hogwild is %s single-process accuracy (tolerance %.1f points)' % ('within' if ok else 'NOT within',
                                                                          args.tolerance))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
