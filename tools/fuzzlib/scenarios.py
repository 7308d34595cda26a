"""Process-level scenarios: what `import torch` meets before any op runs.

Plugin files: a folder on TORCH_PLUGIN_PATH holding files that are not plugins (truncated copies of real
plugins, empty files, random bytes, a bare ELF header, hundreds of junk files, a FIFO, a folder). The
import must survive every one (no signal, no hang, no sanitizer report), report each file as not
loaded, and still load the package's own plugins, so that ops run.

Settings: TORCH_CPU_CACHE_LIMIT_MB and TORCH_BLAS, valid and not. An invalid value must be reported on
stderr, not silently replaced; and under a small cache limit, freeing and reusing blocks of different
sizes must not grow the process (a reused block returned with the wrong size leaks the difference).
"""
import json
import os
import random

KINDS = [('truncated', 3), ('many', 2), ('empty', 1), ('random', 1), ('elf_header', 1), ('fifo', 1), ('folder', 1),
         ('cache_leak', 2), ('bad_env', 2)]

OPS = ('import json, torch; print(json.dumps({"plugins": torch.backends.plugins(), '
       '"sum": (torch.arange(5) + 1).tolist(), "mm": (torch.ones(8, 8) @ torch.ones(8, 8)).sum().item()}))')

LEAK = '''
import torch
def rss_mib():
    return [int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmRSS')][0] / 1024
def once():
    a = torch.zeros(%d * 2 ** 18); del a
    b = torch.zeros(%d * 2 ** 18); del b
for _ in range(3):
    once()
before = rss_mib()
for _ in range(30):
    once()
print(rss_mib() - before)
'''


def pick(rng):
    kind = rng.choice([k for k, w in KINDS for _ in range(w)])
    spec = {'kind': kind, 'seed': rng.randint(0, 2 ** 30)}
    if kind == 'truncated':
        spec['size'] = rng.choice([4096, 16384, 65536, 102400, 64, 200000][:rng.choice([4, 4, 4, 6])])
    elif kind == 'many':
        spec['count'] = rng.choice([129, 200, 300])
    elif kind == 'cache_leak':
        spec['limit_mb'], spec['blocks'] = rng.choice([(12, (12, 9)), (16, (16, 13)), (24, (24, 19)), (10, (8, 7))])
    elif kind == 'bad_env':
        spec['var'], spec['value'] = rng.choice([('TORCH_CPU_CACHE_LIMIT_MB', '-1'), ('TORCH_CPU_CACHE_LIMIT_MB', 'abc'),
                                                 ('TORCH_CPU_CACHE_LIMIT_MB', '12MB'), ('TORCH_CPU_CACHE_LIMIT_MB', ''),
                                                 ('TORCH_CPU_CACHE_LIMIT_MB', '99999999999999999999999'),
                                                 ('TORCH_BLAS', 'nonsense')])
    return spec


def _plugin_files(spec, folder, package_dir):
    rng = random.Random(spec['seed'])
    kind, names = spec['kind'], []

    def write(name, data):
        names.append(name)
        with open(os.path.join(folder, name), 'wb') as f:
            f.write(data)

    if kind == 'truncated':
        plugins = sorted(f for f in os.listdir(os.path.join(package_dir, 'plugins')) if f.endswith('.so'))
        real = open(os.path.join(package_dir, 'plugins', rng.choice(plugins)), 'rb').read()
        size = min(spec['size'], len(real) - 1)
        write('truncated_%d.so' % size, real[:size])
    elif kind == 'empty':
        write('empty.so', b'')
    elif kind == 'random':
        write('random.so', bytes(rng.randrange(256) for _ in range(rng.randint(1, 9000))))
    elif kind == 'elf_header':
        write('header_only.so', b'\x7fELF\x02\x01\x01' + bytes(9) + b'\x03\x00\x3e\x00' +
              bytes(rng.randrange(256) for _ in range(44)))
    elif kind == 'many':
        for i in range(spec['count']):
            write('junk_%04d.so' % i, b'junk %d' % i)
    elif kind == 'fifo':
        names.append('fifo.so')
        os.mkfifo(os.path.join(folder, 'fifo.so'))
    elif kind == 'folder':
        names.append('folder.so')
        os.mkdir(os.path.join(folder, 'folder.so'))
    return names


def prepare(spec, folder, package_dir):
    """(environment additions, program, names of the files that must not load) for a scenario."""
    kind = spec['kind']
    if kind == 'cache_leak':
        return {'TORCH_CPU_CACHE_LIMIT_MB': str(spec['limit_mb'])}, LEAK % tuple(spec['blocks']), []
    if kind == 'bad_env':
        return {spec['var']: spec['value']}, OPS, []
    return {'TORCH_PLUGIN_PATH': folder}, OPS, _plugin_files(spec, folder, package_dir)


def judge(spec, names, stdout, stderr, package_dir):
    """None when the process did what it must, else what went wrong."""
    lines = stdout.strip().splitlines()
    if spec['kind'] == 'cache_leak':
        try:
            growth = float(lines[-1])
        except (ValueError, IndexError):
            return 'no measurement: %r' % stdout[-500:]
        return None if growth < 8 else 'RSS grew by %.1f MiB over 30 allocate/free rounds' % growth
    try:
        report = json.loads(lines[-1])
    except (ValueError, IndexError):
        return 'no report from the import: %r' % stdout[-500:]
    if report['sum'] != [1, 2, 3, 4, 5] or report['mm'] != 512.0:
        return 'ops gave wrong results: %r' % report
    if spec['kind'] == 'bad_env':
        return None if spec['var'] in stderr else '%s=%r was accepted silently' % (spec['var'], spec['value'])
    own = os.path.realpath(os.path.join(package_dir, 'plugins'))
    loaded = {p['name'] for p in report['plugins'] if p['state'] == 'loaded' and p['path'].startswith(own)}
    if 'cpu' not in loaded:
        return "the package's own CPU plugin was not loaded (loaded: %s)" % sorted(loaded)
    states = {os.path.basename(p['path']): p['state'] for p in report['plugins']}
    wrong = [n for n in names if states.get(n, 'failed') == 'loaded']
    return 'reported as loaded: %s' % wrong if wrong else None
