"""python3 -m torch.utils.bottleneck script.py [args...]: runs the script twice, under Python's cProfile
and under the autograd profiler, and prints the environment and the top entries of both."""
import argparse
import cProfile
import pstats
import io
import os
import platform
import runpy
import sys

import torch
from torch.autograd import profiler


def environment():
    return '\n'.join(['PyTorch {} (this project: torch in C), Python {}, {}'.format(
        torch.__version__, platform.python_version(), platform.platform()),
        'CUDA available: {}; threads: {}'.format(torch.cuda.is_available(), torch.get_num_threads())])


def run_script(path, args):
    sys.argv = [path] + list(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    runpy.run_path(path, run_name='__main__')


def main():
    parser = argparse.ArgumentParser(description='Profile a Python script: cProfile, then the autograd profiler.')
    parser.add_argument('scriptfile', help='the script to run')
    parser.add_argument('args', nargs=argparse.REMAINDER, help="the script's own arguments")
    parser.add_argument('--top', type=int, default=15)
    opts = parser.parse_args()
    print('-' * 79 + '\n  Environment Summary\n' + '-' * 79)
    print(environment())
    print('-' * 79 + '\n  cProfile output\n' + '-' * 79)
    stats_out = io.StringIO()
    prof = cProfile.Profile()
    prof.enable()
    run_script(opts.scriptfile, opts.args)
    prof.disable()
    pstats.Stats(prof, stream=stats_out).sort_stats('tottime').print_stats(opts.top)
    print(stats_out.getvalue())
    print('-' * 79 + '\n  autograd profiler output (CPU mode)\n' + '-' * 79)
    with profiler.profile() as autograd_prof:
        run_script(opts.scriptfile, opts.args)
    print(autograd_prof.key_averages().table(sort_by='cpu_time_total', row_limit=opts.top))
    return 0


if __name__ == '__main__':
    sys.exit(main())
