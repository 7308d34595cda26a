"""The main job: PyTorch's MNIST example network (two conv layers, dropout, two linear layers,
log-softmax) trained on Fashion-MNIST from Debian's dataset-fashion-mnist, with this project's torch.

Run: PYTHONPATH=build/release /usr/bin/python3 examples/fashion_mnist.py [--epochs 1] [--threads N]
It prints a progress bar (loss, images/s), the test accuracy after each epoch, and saves a checkpoint.
"""
import argparse
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from idx_dataset import FashionMNIST  # noqa: E402

try:
    from tqdm import tqdm
except ImportError:  # a plain line per 100 steps instead
    tqdm = None


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


def train(model, loader, optimizer, epoch):
    model.train()
    steps = len(loader)
    bar = tqdm(total=steps, desc='epoch %d' % epoch, unit='batch') if tqdm else None
    t0, seen = time.perf_counter(), 0
    for i, (data, target) in enumerate(loader):
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
        seen += data.shape[0]
        rate = seen / (time.perf_counter() - t0)
        if bar:
            bar.set_postfix(loss='%.4f' % loss.item(), img_per_s='%.0f' % rate)
            bar.update(1)
        elif i % 100 == 0 or i == steps - 1:
            print('epoch %d [%5d/%d] loss %.4f  %.0f images/s' % (epoch, seen, len(loader.dataset), loss.item(), rate))
    if bar:
        bar.close()
    return time.perf_counter() - t0


def test(model, loader):
    model.eval()
    loss, correct = 0.0, 0
    with torch.no_grad():
        for data, target in loader:
            output = model(data)
            loss += F.nll_loss(output, target, reduction='sum').item()
            correct += (output.argmax(dim=1) == target).sum().item()
    n = len(loader.dataset)
    return loss / n, correct / n


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--epochs', type=int, default=1)
    parser.add_argument('--batch-size', type=int, default=64)
    parser.add_argument('--test-batch-size', type=int, default=1000)
    parser.add_argument('--lr', type=float, default=1.0)
    parser.add_argument('--gamma', type=float, default=0.7)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--threads', type=int, default=0, help='intra-op threads (0: the default)')
    parser.add_argument('--workers', type=int, default=0, help='DataLoader worker processes')
    parser.add_argument('--save', default='fashion_mnist_cnn.pt', help='checkpoint path ("" to skip)')
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    if args.threads:
        torch.set_num_threads(args.threads)
    train_set, test_set = FashionMNIST(train=True), FashionMNIST(train=False)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, num_workers=args.workers)
    test_loader = DataLoader(test_set, batch_size=args.test_batch_size, num_workers=args.workers)

    model = Net()
    optimizer = optim.Adadelta(model.parameters(), lr=args.lr)
    scheduler = StepLR(optimizer, step_size=1, gamma=args.gamma)
    for epoch in range(1, args.epochs + 1):
        seconds = train(model, train_loader, optimizer, epoch)
        loss, accuracy = test(model, test_loader)
        print('epoch %d: %.1f s, test loss %.4f, test accuracy %.2f%%' % (epoch, seconds, loss, 100 * accuracy))
        scheduler.step()
    if args.save:
        torch.save(model.state_dict(), args.save)
        print('saved', args.save)
    return 0 if accuracy >= 0.85 else 1


if __name__ == '__main__':
    sys.exit(main())
