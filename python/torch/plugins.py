"""python3 -m torch.plugins: list every plugin the core found, its state, and why."""
import os
import re
import sys

import torch


def cpu_variant(rows):
    """The CPU plugin's loaded ISA variant, the variants this machine could run, and TORCH_CPU_ISA."""
    def level(p):
        found = re.search(r'x86-64-v(\d)', p['version'] or '')
        return found.group(1) if found else '?'
    variants = [p for p in rows if p['name'] == 'cpu']
    loaded = [level(p) for p in variants if p['state'] == 'loaded']
    runnable = sorted(level(p) for p in variants if p['state'] in ('loaded', 'shadowed'))
    return 'CPU variant: %s (runnable here: %s; TORCH_CPU_ISA=%s, one of 2|3|4 forces a variant)' % (
        'x86-64-v' + loaded[0] if loaded else 'none loaded', ', '.join('x86-64-v' + v for v in runnable) or 'none',
        os.environ.get('TORCH_CPU_ISA', '') or 'unset')


def report():
    rows = torch.backends.plugins()
    lines = []
    for p in rows:
        line = '%-14s %-9s %-22s %-13s %s' % (p['name'], p['kind'], p['version'] or '-', p['state'], p['path'])
        lines.append(line)
        if p['reason']:
            lines.append('%14s reason: %s' % ('', p['reason']))
    lines.append('')
    lines.append(cpu_variant(rows))
    lines.append('BLAS provider: %s' % torch.backends.blas.describe())
    lines.append('FFT provider: %s' % torch.backends.fft.describe())
    lines.append('threads: %d' % torch.get_num_threads())
    return '\n'.join(lines)


def main():
    print(report())
    return 0


if __name__ == '__main__':
    sys.exit(main())
