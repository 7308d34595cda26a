"""python3 -m torch.plugins: list every plugin the core found, its state, and why."""
import sys

import torch


def report():
    rows = torch.backends.plugins()
    lines = []
    for p in rows:
        line = '%-14s %-9s %-22s %-13s %s' % (p['name'], p['kind'], p['version'] or '-', p['state'], p['path'])
        lines.append(line)
        if p['reason']:
            lines.append('%14s reason: %s' % ('', p['reason']))
    lines.append('')
    lines.append('BLAS provider: %s' % torch.backends.blas.describe())
    lines.append('threads: %d' % torch.get_num_threads())
    return '\n'.join(lines)


def main():
    print(report())
    return 0


if __name__ == '__main__':
    sys.exit(main())
