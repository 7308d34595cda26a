"""torch.save / torch.load in PyTorch's formats (torch/serialization.py), and tensor pickling.

The files under tests/data/serialization/ were recorded with PyTorch 1.13 by
tools/gen_serialization_data.py: ref/<case>.pt and ref/<case>.legacy.pt are the reference's own
files, and expected.json holds the reference's description of each case, what the reference found
in the files this project wrote (with their sha256, or the canonical form of a legacy file, so that
today's files can be checked to be those), all without needing the reference here.
"""
import collections
import copy
import hashlib
import io
import json
import os
import pathlib
import pickle
import struct
import zipfile

import pytest
import torch

import serialization_cases as cases

DATA = pathlib.Path(__file__).resolve().parents[1] / 'data' / 'serialization'
EXPECTED = json.loads((DATA / 'expected.json').read_text())['cases']


def saved(obj, **kwargs):
    b = io.BytesIO()
    torch.save(obj, b, **kwargs)
    return b.getvalue()


def roundtrip(obj, **kwargs):
    return torch.load(io.BytesIO(saved(obj, **kwargs)))


def shares(a, b):
    return a.storage().data_ptr() == b.storage().data_ptr()


def need(case):
    if not cases.available(torch, case):
        pytest.skip('this build lacks what case %s needs' % case)


def need_ours(case):
    # what the reference found in our files, recorded where the recording build could make the case
    need(case)
    if 'ours_zip_sha256' not in EXPECTED[case]:
        pytest.skip('the reference has not read our files of this case (run tools/gen_serialization_data.py)')


LEGACY = {'_use_new_zipfile_serialization': False}
FORMATS = pytest.mark.parametrize('fmt', [{}, LEGACY], ids=['zip', 'legacy'])


# ---- files from and for the reference ------------------------------------------------------------

@pytest.mark.parametrize('case', cases.CASES)
@pytest.mark.parametrize('suffix', ['.pt', '.legacy.pt'])
def test_loads_the_reference_files(case, suffix):
    need(case)
    loaded = torch.load(DATA / 'ref' / (case + suffix))
    assert cases.describe(torch, loaded) == EXPECTED[case]['object']


@pytest.mark.parametrize('case', cases.CASES)
def test_the_objects_are_what_the_reference_saved(case):
    need(case)
    assert cases.describe(torch, cases.make_case(torch, case)) == EXPECTED[case]['object']


def saved_as(obj, path, **kwargs):
    # the archive's folder is named after the file: save under the name the reference's file had
    torch.save(obj, path, **kwargs)
    return path.read_bytes()


@pytest.mark.parametrize('case', cases.CASES)
def test_zip_files_are_byte_identical_to_the_reference(case, tmp_path):
    need(case)
    reference = (DATA / 'ref' / (case + '.pt')).read_bytes()
    assert saved_as(cases.make_case(torch, case), tmp_path / (case + '.pt')) == reference


@pytest.mark.parametrize('case', cases.CASES)
def test_the_reference_reads_our_zip_files(case, tmp_path):
    # today's file is the one the reference read (same bytes), and the reference found the object in it
    need_ours(case)
    expected = EXPECTED[case]
    data = saved_as(cases.make_case(torch, case), tmp_path / (case + '.pt'))
    assert hashlib.sha256(data).hexdigest() == expected['ours_zip_sha256']
    assert expected['ours_zip_loaded_by_reference'] == expected['object']
    assert cases.describe(torch, torch.load(io.BytesIO(data))) == expected['object']


@pytest.mark.parametrize('case', cases.CASES)
def test_the_reference_reads_our_legacy_files(case):
    need_ours(case)
    expected = EXPECTED[case]
    data = saved(cases.make_case(torch, case), **LEGACY)
    assert cases.canonical_legacy(data) == expected['ours_legacy_canonical']
    assert expected['ours_legacy_loaded_by_reference'] == expected['object']
    assert cases.describe(torch, torch.load(io.BytesIO(data))) == expected['object']


@pytest.mark.parametrize('case', cases.CASES)
def test_legacy_files_match_the_reference_writer_up_to_storage_keys(case):
    need(case)
    ours = saved(cases.make_case(torch, case), **LEGACY)
    assert cases.canonical_legacy(ours) == cases.canonical_legacy((DATA / 'ref' / (case + '.legacy.pt')).read_bytes())


def test_storage_types_this_build_lacks_are_named():
    # complex storages load (this build has the dtypes); quantized ones are refused by name
    assert torch.storage._get_dtype_from_pickle_storage_type('ComplexFloatStorage') == torch.complex64
    with pytest.raises(RuntimeError, match='pickle storage type "QInt8Storage" holds qint8 elements, '
                       'which this build does not support'):
        torch.storage._get_dtype_from_pickle_storage_type('QInt8Storage')


def test_simple_tensor_zip_layout():
    data = saved(torch.arange(6.).view(2, 3))
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        infos = z.infolist()
        assert [i.filename for i in infos] == ['archive/data.pkl', 'archive/data/0', 'archive/version']
        assert z.read('archive/version') == b'3\n'
        assert z.read('archive/data/0') == struct.pack('<6f', 0, 1, 2, 3, 4, 5)
        assert all(i.compress_type == zipfile.ZIP_STORED for i in infos)
        assert z.testzip() is None  # CRCs are right
        pkl = z.read('archive/data.pkl')
    assert pkl.startswith(b'\x80\x02ctorch._utils\n_rebuild_tensor_v2\n')
    assert b'ctorch\nFloatStorage\n' in pkl and b'ccollections\nOrderedDict\n' in pkl
    for info in infos:  # every record's data starts on a 64-byte boundary
        name_len, extra_len = struct.unpack('<HH', data[info.header_offset + 26:info.header_offset + 30])
        assert (info.header_offset + 30 + name_len + extra_len) % 64 == 0
    assert data.endswith(b'\x00\x00')  # the end of central directory, no comment
    assert b'PK\x06\x06' in data and b'PK\x06\x07' in data  # zip64 end records, as PyTorch writes


# ---- round trips ---------------------------------------------------------------------------------

@FORMATS
@pytest.mark.parametrize('dtype', [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.bool,
                                   torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64])
def test_every_dtype_round_trips(fmt, dtype):
    x = torch.tensor([[0, 1, 1], [1, 0, 1]], dtype=dtype) if dtype in (torch.bool, torch.uint8) else \
        torch.tensor([[0, -1, 2], [3, 100, -7]], dtype=dtype)
    y = roundtrip(x, **fmt)
    assert y.dtype == dtype and y.shape == x.shape and y.tolist() == x.tolist()
    assert type(y) is torch.Tensor and not y.requires_grad and y.is_leaf and y._base is None


@FORMATS
def test_shared_storages_are_written_once_and_shared_again(fmt):
    x = torch.arange(12.).view(3, 4)
    views = {'x': x, 'row': x[1], 'tail': x.view(-1)[5:], 't': x.t(), 'other': torch.ones(2)}
    data = saved(views, **fmt)
    if not fmt:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            assert sorted(n for n in z.namelist() if '/data/' in n) == ['archive/data/0', 'archive/data/1']
    y = torch.load(io.BytesIO(data))
    assert shares(y['x'], y['row']) and shares(y['x'], y['tail']) and shares(y['x'], y['t'])
    assert not shares(y['x'], y['other']) and not shares(y['x'], x)
    assert y['tail'].storage_offset() == 5 and y['t'].stride() == (1, 4) and not y['t'].is_contiguous()
    for k in views:
        assert y[k].tolist() == views[k].tolist()
    y['x'][1, 1] = -1  # one memory, as before saving
    assert y['row'][1].item() == -1 and y['tail'][0].item() == -1 and y['t'][1, 1].item() == -1


@FORMATS
def test_storage_objects_round_trip_and_share(fmt):
    x = torch.arange(4, dtype=torch.int16)
    s, t = roundtrip([x.storage(), x[1:]], **fmt)
    assert isinstance(s, torch.storage.TypedStorage) and s.dtype == torch.int16 and s.tolist() == [0, 1, 2, 3]
    assert s.data_ptr() == t.storage().data_ptr() and t.tolist() == [1, 2, 3]
    u = roundtrip(torch.tensor([1.0]).storage().untyped(), **fmt)
    assert u.dtype == torch.uint8 and u.tolist() == [0, 0, 128, 63]


def test_storages_of_one_memory_saved_as_two_dtypes_are_refused():
    x = torch.ones(2)
    with pytest.raises(RuntimeError, match='view the same data as different types'):
        saved([x, x.storage().untyped()])


@FORMATS
def test_requires_grad_and_leaves(fmt):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2  # not a leaf: saved with requires_grad, loaded as a leaf
    ya, yb, yc = roundtrip([a, b, torch.ones(1)], **fmt)
    assert ya.requires_grad and ya.is_leaf and yb.requires_grad and yb.is_leaf and not yc.requires_grad
    ya.sum().backward()
    assert ya.grad.tolist() == [1.0, 1.0]


@FORMATS
def test_python_values_round_trip(fmt):
    obj = collections.OrderedDict([
        ('size', torch.Size([2, 3])), ('dtypes', [torch.float16, torch.bfloat16, torch.bool]),
        ('devices', (torch.device('cpu'), torch.device('cpu'))), ('layout', torch.strided),
        ('numbers', [1, -2.5, 2 ** 80, True, None, 'text', b'\x00\xff']), ('nested', {'a': {'b': [(1, 2)]}}),
    ])
    y = roundtrip(obj, **fmt)
    assert type(y) is collections.OrderedDict and y == obj
    assert type(y['size']) is torch.Size and y['layout'] is torch.strided and y['dtypes'][1] is torch.bfloat16


@FORMATS
def test_empty_and_zero_dim_tensors(fmt):
    y = roundtrip([torch.empty(0), torch.zeros(3, 0), torch.tensor(4.5), torch.tensor(True)], **fmt)
    assert [t.shape for t in y] == [(0,), (3, 0), (), ()] and y[2].item() == 4.5 and y[3].item() is True


def test_meta_tensors_keep_their_geometry():
    m = torch.empty(2, 3, device='meta').t()
    y = roundtrip(m)
    assert y.device.type == 'meta' and y.shape == (3, 2) and y.stride() == (1, 3)


@FORMATS
def test_many_storages_keep_their_order(fmt):
    xs = [torch.full((i + 1,), float(i)) for i in range(13)]
    assert [t.tolist() for t in roundtrip(xs, **fmt)] == [t.tolist() for t in xs]


def test_paths_pathlikes_and_buffers(tmp_path):
    x = torch.arange(5)
    torch.save(x, str(tmp_path / 'a.pt'))
    torch.save(x, tmp_path / 'b.pth')
    with open(tmp_path / 'c.bin', 'wb') as f:
        torch.save(x, f)
    with zipfile.ZipFile(tmp_path / 'b.pth') as z:
        assert z.namelist()[0] == 'b/data.pkl'
    with zipfile.ZipFile(tmp_path / 'c.bin') as z:
        assert z.namelist()[0] == 'archive/data.pkl'
    for name in ('a.pt', 'b.pth', 'c.bin'):
        assert torch.load(tmp_path / name).tolist() == [0, 1, 2, 3, 4]
        assert torch.load(str(tmp_path / name)).tolist() == [0, 1, 2, 3, 4]
        with open(tmp_path / name, 'rb') as f:
            assert torch.load(f).tolist() == [0, 1, 2, 3, 4]
    torch.save(x, tmp_path / 'd.pt', _use_new_zipfile_serialization=False)
    with open(tmp_path / 'd.pt', 'rb') as f:
        assert torch.load(f).tolist() == [0, 1, 2, 3, 4]
        assert f.read() == b''  # the whole file was read, nothing more


class _StorageRef:
    """Stands for a storage in a hand-made legacy file: persistent_id gives its id tuple."""

    def __init__(self, saved_id):
        self.saved_id = saved_id


class _TensorOn:
    def __init__(self, storage, offset, size):
        self.args = (storage, offset, size, (1,) * len(size), False, collections.OrderedDict())

    def __reduce__(self):
        return (torch._utils._rebuild_tensor_v2, self.args)


def test_legacy_files_with_storage_views_load():
    # files from PyTorch before 1.0 may name part of a storage: (view key, offset, size) in the id
    root = ('storage', torch.FloatStorage, 'root', 'cpu', 4, None)
    view = ('storage', torch.FloatStorage, 'root', 'cpu', 4, ('part', 1, 2))
    f = io.BytesIO()
    for header in (torch.serialization.MAGIC_NUMBER, torch.serialization.PROTOCOL_VERSION, {'little_endian': True}):
        pickle.dump(header, f, protocol=2)
    pickler = pickle.Pickler(f, protocol=2)
    pickler.persistent_id = lambda obj: obj.saved_id if isinstance(obj, _StorageRef) else None
    pickler.dump([_TensorOn(_StorageRef(root), 0, (4,)), _TensorOn(_StorageRef(view), 1, (1,))])
    pickle.dump(['root'], f, protocol=2)
    f.write(struct.pack('<q4f', 4, 1, 2, 3, 4))
    whole, part = torch.load(io.BytesIO(f.getvalue()))
    assert whole.tolist() == [1, 2, 3, 4] and part.tolist() == [3.0]
    whole[2] = 30  # the view's storage is part of the root's memory
    assert part.item() == 30


def test_a_buffer_holding_two_saves_loads_both():
    b = io.BytesIO()
    torch.save(torch.ones(2), b, _use_new_zipfile_serialization=False)
    torch.save(torch.zeros(3), b, _use_new_zipfile_serialization=False)
    b.seek(0)
    assert torch.load(b).tolist() == [1, 1] and torch.load(b).tolist() == [0, 0, 0]


def test_pickle_protocols_and_modules():
    x = torch.arange(3.)
    for protocol in (2, 3, 4, 5):
        assert roundtrip({'x': x}, pickle_protocol=protocol)['x'].tolist() == [0, 1, 2]
    assert torch.load(io.BytesIO(saved(x, pickle_module=pickle)), pickle_module=pickle).tolist() == [0, 1, 2]


def test_encoding_is_passed_to_pickle():
    data = saved({'k': 'v'})
    assert torch.load(io.BytesIO(data), encoding='latin1') == {'k': 'v'}


# ---- map_location --------------------------------------------------------------------------------

def test_map_location_forms():
    data = saved({'a': torch.arange(3.), 'b': torch.ones(1)})
    for ml in (None, 'cpu', torch.device('cpu'), {'cpu': 'cpu'}, {'cuda:0': 'cpu'}, lambda s, loc: s,
               lambda s, loc: None):
        y = torch.load(io.BytesIO(data), map_location=ml)
        assert y['a'].tolist() == [0, 1, 2] and y['a'].device.type == 'cpu'
    seen = []
    torch.load(io.BytesIO(data), map_location=lambda s, loc: seen.append((type(s), loc, s.nbytes())))
    assert seen == [(torch.storage.UntypedStorage, 'cpu', 12), (torch.storage.UntypedStorage, 'cpu', 4)]
    y = torch.load(io.BytesIO(data), map_location='meta')
    assert y['a'].device.type == 'meta' and y['a'].shape == (3,)


@FORMATS
def test_map_location_to_a_missing_device_raises_pytorchs_error(fmt):
    data = saved(torch.ones(2), **fmt)
    if not torch.cuda.is_available():
        for ml in ('cuda', 'cuda:1', torch.device('cuda'), {'cpu': 'cuda:0'}):
            with pytest.raises(RuntimeError, match=r'Attempting to deserialize object on a CUDA device but '
                               r'torch.cuda.is_available\(\) is False'):
                torch.load(io.BytesIO(data), map_location=ml)
    with pytest.raises(RuntimeError, match=r"don't know how to restore data location of "
                       r"torch.storage.UntypedStorage \(tagged with xyz\)"):
        torch.load(io.BytesIO(data), map_location='xyz')
    with pytest.raises(RuntimeError, match="Invalid device string: 'cuda:x'"):
        torch.load(io.BytesIO(data), map_location='cuda:x')


@pytest.mark.skipif(not torch.cuda.is_available(), reason='no CUDA device')
def test_map_location_to_cuda_and_saving_cuda_tensors():
    y = torch.load(io.BytesIO(saved(torch.arange(3.))), map_location='cuda:0')
    assert y.device == torch.device('cuda', 0) and y.cpu().tolist() == [0, 1, 2]
    data = saved(y)
    assert b'cuda:0' in data
    assert torch.load(io.BytesIO(data), map_location='cpu').tolist() == [0, 1, 2]


# ---- weights_only --------------------------------------------------------------------------------

class NotAllowed:
    pass


@FORMATS
def test_weights_only_loads_state_dicts(fmt):
    sd = collections.OrderedDict([('w', torch.arange(4.).view(2, 2)), ('n', torch.tensor(3)),
                                  ('meta', {'sizes': [torch.Size([2])], 'name': 'x', 'rate': 0.5})])
    y = torch.load(io.BytesIO(saved(sd, **fmt)), weights_only=True)
    assert type(y) is collections.OrderedDict and y['w'].tolist() == [[0, 1], [2, 3]] and y['n'].item() == 3
    assert y['meta'] == {'sizes': [torch.Size([2])], 'name': 'x', 'rate': 0.5}
    assert torch.load(DATA / 'ref' / 'state_dict.pt', weights_only=True)['bn.num_batches_tracked'].item() == 5


@FORMATS
@pytest.mark.parametrize('obj, name', [(NotAllowed(), __name__ + '.NotAllowed'), (torch.device('cpu'), 'torch.device'),
                                       ({1, 2}, '__builtin__.set'), (os.system, 'posix.system')])
def test_weights_only_refuses_other_globals(fmt, obj, name):
    data = saved([torch.ones(1), obj], **fmt)
    with pytest.raises(pickle.UnpicklingError) as info:
        torch.load(io.BytesIO(data), weights_only=True)
    assert str(info.value) == (
        'Weights only load failed. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, '
        'but it can result in arbitrary code execution.Do it only if you get the file from a trusted source. '
        'WeightsUnpickler error: Unsupported class ' + name)


def test_weights_only_refuses_a_pickle_module_and_can_be_forced(monkeypatch):
    data = saved([NotAllowed()])
    with pytest.raises(RuntimeError, match='Can not safely load weights when expiclit picke_module is specified'):
        torch.load(io.BytesIO(data), weights_only=True, pickle_module=pickle)
    monkeypatch.setenv('TORCH_FORCE_WEIGHTS_ONLY_LOAD', '1')
    with pytest.raises(pickle.UnpicklingError, match='Unsupported class'):
        torch.load(io.BytesIO(data))


# ---- errors --------------------------------------------------------------------------------------

def test_missing_files_and_folders(tmp_path):
    with pytest.raises(FileNotFoundError):
        torch.load(tmp_path / 'missing.pt')
    with pytest.raises(RuntimeError, match='Parent directory .*nodir does not exist'):
        torch.save(torch.ones(1), tmp_path / 'nodir' / 'x.pt')
    with pytest.raises(FileNotFoundError):
        torch.save(torch.ones(1), tmp_path / 'nodir' / 'x.pt', _use_new_zipfile_serialization=False)
    with pytest.raises(RuntimeError, match='invalid file name: .*\\.hidden'):
        torch.save(torch.ones(1), tmp_path / '.hidden')


def test_corrupt_and_truncated_files():
    data = saved(torch.arange(10.))
    for bad in (data[:-10], data[:200], b'PK\x03\x04' + b'x' * 100):
        with pytest.raises(RuntimeError, match='PytorchStreamReader failed reading zip archive: failed finding '
                           'central directory'):
            torch.load(io.BytesIO(bad))
    with pytest.raises(EOFError):
        torch.load(io.BytesIO(b''))
    with pytest.raises(pickle.UnpicklingError):
        torch.load(io.BytesIO(b'hello world' * 10))
    legacy = saved(torch.arange(10.), **LEGACY)
    with pytest.raises(RuntimeError, match='unexpected EOF'):
        torch.load(io.BytesIO(legacy[:-8]))
    with pytest.raises(RuntimeError, match='Invalid magic number; corrupt file?'):
        torch.load(io.BytesIO(pickle.dumps(123, protocol=2)))


def rewritten(data, drop=None, version=None, compress=zipfile.ZIP_STORED):
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, 'w', compression=compress) as z:
        for name in src.namelist():
            if name != drop:
                z.writestr(name, version if version is not None and name.endswith('/version') else src.read(name))
    return out.getvalue()


def test_archives_with_missing_records():
    data = saved(torch.arange(3.))
    with pytest.raises(RuntimeError, match=r'Expected hasRecord\("version"\) to be true'):
        torch.load(io.BytesIO(rewritten(data, drop='archive/version')))
    with pytest.raises(RuntimeError, match='PytorchStreamReader failed locating file data/0: file not found'):
        torch.load(io.BytesIO(rewritten(data, drop='archive/data/0')))
    with pytest.raises(RuntimeError, match='PytorchStreamReader failed locating file data.pkl: file not found'):
        torch.load(io.BytesIO(rewritten(data, drop='archive/data.pkl')))
    with pytest.raises(RuntimeError, match="Couldn't parse the version x"):
        torch.load(io.BytesIO(rewritten(data, version=b'x\n')))


def test_archives_other_zip_writers_made_load_too():
    # Python's zipfile (no alignment, no data descriptors), and compressed records, as miniz reads them
    data = saved({'a': torch.arange(300.), 'b': torch.ones(2, dtype=torch.int64)})
    for compress in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        y = torch.load(io.BytesIO(rewritten(data, compress=compress)))
        assert y['a'].tolist() == list(range(300)) and y['b'].tolist() == [1, 1]


def test_a_non_seekable_file_is_refused():
    class Stream:
        def read(self, n=-1):
            return b''

        def readline(self):
            return b''

    with pytest.raises(AttributeError, match='You can only torch.load from a file that is seekable'):
        torch.load(Stream())


def test_rebuilding_out_of_bounds_is_refused():
    with pytest.raises(RuntimeError, match=r'setStorage: sizes \[6\], strides \[1\], storage offset 2, and itemsize 4 '
                       r'requiring a storage size of 32 are out of bounds for storage of size 24'):
        torch._utils._rebuild_tensor(torch.arange(6.).storage(), 2, (6,), (1,))


# ---- pickle, copy, deepcopy ----------------------------------------------------------------------

def test_pickling_a_tensor_goes_through_rebuild_tensor_v2():
    x = torch.arange(12.).view(3, 4).t()[1:]
    data = pickle.dumps(x)
    assert b'_rebuild_tensor_v2' in data and b'_load_from_bytes' in data
    y = pickle.loads(data)
    assert y.tolist() == x.tolist() and y.stride() == x.stride() and y.storage_offset() == x.storage_offset()
    r = pickle.loads(pickle.dumps(torch.ones(2, requires_grad=True)))
    assert r.requires_grad and r.is_leaf


def test_pickled_storages_carry_a_legacy_file():
    s = torch.tensor([1, 2], dtype=torch.int32).storage()
    reduced = s.__reduce__()
    assert reduced[0] is torch.storage._load_from_bytes
    assert torch.load(io.BytesIO(reduced[1][0])).tolist() == [1, 2]
    assert pickle.loads(pickle.dumps(s)).tolist() == [1, 2]


def test_deepcopy_copies_storages_once_and_keeps_requires_grad():
    x = torch.arange(6.).view(2, 3)
    w = torch.ones(2, requires_grad=True)
    w.grad = torch.full((2,), 3.0)
    a, b, c = copy.deepcopy([x, x[1:], w])
    assert shares(a, b) and not shares(a, x) and b.storage_offset() == 3
    a[1, 0] = 100
    assert b[0, 0].item() == 100 and x[1, 0].item() == 3
    assert c.requires_grad and c.is_leaf and c.grad.tolist() == [3.0, 3.0] and not shares(c, w)
    with pytest.raises(RuntimeError, match='Only Tensors created explicitly by the user'):
        copy.deepcopy(w * 2)
    s = copy.deepcopy(x.storage())
    assert s.tolist() == x.storage().tolist() and s.data_ptr() != x.data_ptr()


def test_copy_shares_the_storage():
    x = torch.arange(3.)
    assert shares(copy.copy(x), x)


def test_pickled_python_objects_match_pytorchs_bytes():
    assert pickle.dumps(torch.Size([2, 3]), protocol=2) == \
        b'\x80\x02ctorch\nSize\nq\x00K\x02K\x03\x86q\x01\x85q\x02Rq\x03.'
    assert pickle.dumps(torch.float32, protocol=2) == b'\x80\x02ctorch\nfloat32\nq\x00.'
    assert pickle.dumps(torch.device('cpu'), protocol=2) == \
        b'\x80\x02ctorch\ndevice\nq\x00X\x03\x00\x00\x00cpuq\x01\x85q\x02Rq\x03.'
    assert pickle.dumps(torch.device('cuda', 1), protocol=2) == \
        b'\x80\x02ctorch\ndevice\nq\x00X\x04\x00\x00\x00cudaq\x01K\x01\x86q\x02Rq\x03.'
    assert pickle.dumps(torch.strided, protocol=2) == \
        b'\x80\x02ctorch.serialization\n_get_layout\nq\x00X\r\x00\x00\x00torch.stridedq\x01\x85q\x02Rq\x03.'


# ---- storages ------------------------------------------------------------------------------------

def test_legacy_storage_classes():
    s = torch.FloatStorage(3)
    assert type(s) is torch.FloatStorage and s.dtype == torch.float32 and s.size() == 3 and s.device.type == 'cpu'
    assert torch.LongStorage([1, 2]).tolist() == [1, 2] and torch.FloatStorage.dtype == torch.float32
    assert isinstance(torch.ones(2).storage(), torch.FloatStorage)
    assert not isinstance(torch.ones(2).storage(), torch.LongStorage)
    assert torch.FloatStorage.__module__ == 'torch' and torch.is_storage(s)
    u = torch.UntypedStorage(4)
    assert u.nbytes() == 4 and torch.is_storage(u)
    assert torch.IntStorage(wrap_storage=u).size() == 1
    x = torch.arange(3.)
    assert x.storage()._cdata == x[1:].storage()._cdata == x.storage().untyped()._cdata
    assert x.storage()._cdata != torch.arange(3.).storage()._cdata


# ---- nn.Parameter (when this build has it) -------------------------------------------------------

def parameter_class():
    return getattr(torch.nn, 'Parameter', None)


@pytest.mark.skipif(parameter_class() is None, reason='torch.nn has no Parameter in this build')
@FORMATS
def test_parameters_round_trip(fmt):
    Parameter = parameter_class()
    p = Parameter(torch.arange(4.).view(2, 2))
    data = saved({'p': p, 'view': p.data[1]}, **fmt)
    if not fmt:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            assert b'ctorch._utils\n_rebuild_parameter\n' in z.read('archive/data.pkl')  # PyTorch's global
    y = torch.load(io.BytesIO(data))
    assert type(y['p']) is Parameter and y['p'].requires_grad and y['p'].tolist() == [[0, 1], [2, 3]]
    assert y['p'].storage().data_ptr() == y['view'].storage().data_ptr()
    frozen = roundtrip(Parameter(torch.ones(1), requires_grad=False), **fmt)
    assert type(frozen) is Parameter and not frozen.requires_grad
    assert type(torch.load(io.BytesIO(data), weights_only=True)['p']) is Parameter


def test_load_mmap_maps_the_file_copy_on_write(tmp_path):
    # torch.load(path, mmap=True) (PyTorch 2.1's option): storages lie in a private mapping of the file
    path = str(tmp_path / 'model.pt')
    x = torch.arange(10.)
    torch.save({'x': x, 'v': x[2:5], 'w': torch.ones(3, dtype=torch.int64)}, path)
    loaded = torch.load(path, mmap=True)
    assert torch.equal(loaded['x'], x) and torch.equal(loaded['v'], x[2:5]) and loaded['w'].tolist() == [1, 1, 1]
    assert shares(loaded['x'], loaded['v'])
    regions = [line.split() for line in open('/proc/self/maps') if line.rstrip().endswith(path)]
    spans = [tuple(int(a, 16) for a in r[0].split('-')) for r in regions]
    assert any(lo <= loaded['x'].data_ptr() < hi for lo, hi in spans)  # the bytes are the file's
    loaded['x'][0] = 100  # copy-on-write: the file keeps its bytes
    assert torch.load(path)['x'][0].item() == 0
    with pytest.raises(ValueError, match='f must be a file path in order to use the mmap argument'):
        torch.load(io.BytesIO(open(path, 'rb').read()), mmap=True)
    torch.save(x, path, _use_new_zipfile_serialization=False)
    with pytest.raises(RuntimeError, match='mmap can only be used with files saved with'):
        torch.load(path, mmap=True)
