#!/usr/bin/python3
"""Records the reference PyTorch's side of tests/python/test_serialization.py.

Usage (the reference must be importable, so run it through reftorch):
    /work/shared/tools/reftorch /usr/bin/python3 tools/gen_serialization_data.py [--build build/release]

For every case of tests/python/serialization_cases.py it
  - saves the case with the reference, in the zip format and the legacy one, as
    tests/data/serialization/ref/<case>.pt and <case>.legacy.pt (this project's torch must load them);
  - saves the case with this project's torch (a subprocess with PYTHONPATH=<build>), loads both
    files with the reference and records what the reference found, with the sha256 of our zip file
    and the canonical form of our legacy file (so that the test, which runs without the reference,
    can check that today's files are the ones the reference read);
  - records the reference's description of each case, which every load must reproduce;
writing tests/data/serialization/expected.json. Run it again after changing the cases.
"""
import argparse
import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'python'))
import serialization_cases as cases  # noqa: E402

DATA = os.path.join(ROOT, 'tests', 'data', 'serialization')

OURS = '''
import io, os, sys
sys.path.insert(0, {tests!r})
import torch, serialization_cases as cases
out = sys.argv[1]
for name in cases.CASES:
    if not cases.available(torch, name):
        continue
    torch.save(cases.make_case(torch, name), os.path.join(out, name + '.pt'))
    torch.save(cases.make_case(torch, name), os.path.join(out, name + '.legacy.pt'),
               _use_new_zipfile_serialization=False)
'''


def write_unless_equivalent(path, data):
    """A legacy file keys storages by their addresses, which change from run to run: an existing file
    that differs only in its keys is kept, so that recording again changes nothing that did not change."""
    if os.path.exists(path):
        with open(path, 'rb') as f:
            if cases.canonical_legacy(f.read()) == cases.canonical_legacy(data):
                return
    with open(path, 'wb') as f:
        f.write(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    parser.add_argument('--build', default=os.path.join(ROOT, 'build', 'release'))
    args = parser.parse_args()
    import torch
    if os.path.abspath(torch.__file__).startswith(ROOT + os.sep):
        sys.exit('run this under the reference PyTorch: /work/shared/tools/reftorch /usr/bin/python3 %s'
                 % ' '.join(sys.argv))
    print('reference torch %s from %s' % (torch.__version__, torch.__file__))
    os.makedirs(os.path.join(DATA, 'ref'), exist_ok=True)
    expected = {'reference_version': torch.__version__, 'cases': {}}
    with tempfile.TemporaryDirectory() as ours:
        env = dict(os.environ, PYTHONPATH=os.path.abspath(args.build))
        subprocess.run([sys.executable, '-c', OURS.format(tests=os.path.join(ROOT, 'tests', 'python')), ours],
                       env=env, check=True, cwd=ROOT)
        for name in cases.CASES:
            obj = cases.make_case(torch, name)
            zip_path = os.path.join(DATA, 'ref', name + '.pt')
            torch.save(obj, zip_path)
            legacy = io.BytesIO()
            torch.save(obj, legacy, _use_new_zipfile_serialization=False)
            write_unless_equivalent(os.path.join(DATA, 'ref', name + '.legacy.pt'), legacy.getvalue())
            entry = {'object': cases.describe(torch, obj)}
            expected['cases'][name] = entry
            if not os.path.exists(os.path.join(ours, name + '.pt')):
                print('%-14s (this build cannot make it: only the reference side is recorded)' % name)
                continue
            our_zip = open(os.path.join(ours, name + '.pt'), 'rb').read()
            our_legacy = open(os.path.join(ours, name + '.legacy.pt'), 'rb').read()
            entry.update({
                'ours_zip_sha256': hashlib.sha256(our_zip).hexdigest(),
                'ours_zip_loaded_by_reference': cases.describe(torch, torch.load(io.BytesIO(our_zip))),
                'ours_legacy_canonical': cases.canonical_legacy(our_legacy),
                'ours_legacy_loaded_by_reference': cases.describe(torch, torch.load(io.BytesIO(our_legacy))),
                'zip_identical': our_zip == open(zip_path, 'rb').read(),
            })
            same = entry['ours_zip_loaded_by_reference'] == entry['object'] and \
                entry['ours_legacy_loaded_by_reference'] == entry['object']
            print('%-14s reference reads ours: %s, zip bytes identical: %s'
                  % (name, 'yes' if same else 'DIFFERENT', entry['zip_identical']))
    with open(os.path.join(DATA, 'expected.json'), 'w') as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write('\n')
    print('wrote', os.path.relpath(os.path.join(DATA, 'expected.json'), ROOT))


if __name__ == '__main__':
    main()
