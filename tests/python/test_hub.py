"""torch.hub and torch.utils.model_zoo: local hubconf repositories, the hub cache, file:// downloads.
Nothing here reaches the network."""
import hashlib
import os
import urllib.error

import pytest

import torch
import torch.hub
import torch.utils.model_zoo

HUBCONF = '''dependencies = ["torch"]
import torch


def mlp(n=2, bias=True):
    """A linear layer of n features."""
    return torch.nn.Linear(n, n, bias=bias)


_private = lambda: 0
not_callable = 3
'''


@pytest.fixture
def hub_dir(tmp_path):
    old = torch.hub._hub_dir
    torch.hub.set_dir(str(tmp_path / 'hub'))
    yield tmp_path / 'hub'
    torch.hub._hub_dir = old


@pytest.fixture
def repo(tmp_path):
    d = tmp_path / 'repo'
    d.mkdir()
    (d / 'hubconf.py').write_text(HUBCONF)
    return d


def test_dirs(monkeypatch, tmp_path):
    monkeypatch.setenv('TORCH_HOME', str(tmp_path / 'th'))
    assert torch.hub._get_torch_home() == str(tmp_path / 'th')
    monkeypatch.delenv('TORCH_HOME')
    monkeypatch.setenv('XDG_CACHE_HOME', str(tmp_path / 'xdg'))
    assert torch.hub._get_torch_home() == str(tmp_path / 'xdg' / 'torch')
    old = torch.hub._hub_dir
    torch.hub._hub_dir = None
    try:
        assert torch.hub.get_dir() == str(tmp_path / 'xdg' / 'torch' / 'hub')
        torch.hub.set_dir(str(tmp_path / 'elsewhere'))
        assert torch.hub.get_dir() == str(tmp_path / 'elsewhere')
    finally:
        torch.hub._hub_dir = old


def test_load_local(repo):
    m = torch.hub.load(str(repo), 'mlp', 3, source='local', bias=False)
    assert isinstance(m, torch.nn.Linear) and m.in_features == 3 and m.bias is None
    with pytest.raises(RuntimeError, match='Cannot find callable nope in hubconf'):
        torch.hub.load(str(repo), 'nope', source='local')
    with pytest.raises(RuntimeError, match='Cannot find callable not_callable'):
        torch.hub.load(str(repo), 'not_callable', source='local')
    with pytest.raises(ValueError, match='Unknown source: "bad"'):
        torch.hub.load(str(repo), 'mlp', source='bad')
    with pytest.raises(FileNotFoundError):
        torch.hub.load(str(repo / 'missing'), 'mlp', source='local')


def test_missing_dependencies(repo):
    (repo / 'hubconf.py').write_text('dependencies = ["no_such_module_xyz"]\ndef m():\n    return 1\n')
    with pytest.raises(RuntimeError, match='Missing dependencies: no_such_module_xyz'):
        torch.hub.load(str(repo), 'm', source='local')


def test_list_and_help_local(repo):
    assert torch.hub.list(str(repo), source='local') == ['mlp']
    assert torch.hub.help(str(repo), 'mlp', source='local') == 'A linear layer of n features.'


def test_github_repo_from_the_cache(hub_dir, repo):
    # a repository already in the cache is used without the network
    cached = hub_dir / 'someone_models_main'
    cached.parent.mkdir(parents=True)
    os.rename(repo, cached)
    m = torch.hub.load('someone/models', 'mlp', 4, trust_repo=True)
    assert m.out_features == 4
    assert (hub_dir / 'trusted_list').read_text().split() == ['someone_models']
    assert torch.hub.list('someone/models:main', trust_repo='check') == ['mlp']
    with pytest.raises(ValueError, match='Invalid repo_or_dir'):
        torch.hub.load('not-a-repo', 'mlp', trust_repo=True)


def test_load_state_dict_from_the_cache(hub_dir):
    sd = {'w': torch.arange(4.)}
    ckpt = hub_dir / 'checkpoints'
    ckpt.mkdir(parents=True)
    torch.save(sd, str(ckpt / 'weights-0123.pth'))
    # cached: the URL is never opened
    got = torch.hub.load_state_dict_from_url('https://example.invalid/models/weights-0123.pth')
    assert got['w'].tolist() == [0.0, 1.0, 2.0, 3.0]
    got = torch.utils.model_zoo.load_url('https://example.invalid/x/y.pth', file_name='weights-0123.pth',
                                         map_location='cpu')
    assert got['w'].tolist() == [0.0, 1.0, 2.0, 3.0]


def test_download_from_a_file_url(hub_dir, tmp_path):
    src = tmp_path / 'src.pth'
    torch.save({'b': torch.ones(2)}, str(src))
    digest = hashlib.sha256(src.read_bytes()).hexdigest()
    named = tmp_path / ('model-%s.pth' % digest[:8])
    named.write_bytes(src.read_bytes())
    got = torch.hub.load_state_dict_from_url(named.as_uri(), model_dir=str(tmp_path / 'md'), check_hash=True)
    assert got['b'].tolist() == [1.0, 1.0]
    assert (tmp_path / 'md' / named.name).exists()
    bad = tmp_path / 'model-deadbeef.pth'
    bad.write_bytes(src.read_bytes())
    with pytest.raises(RuntimeError, match='invalid hash value'):
        torch.hub.load_state_dict_from_url(bad.as_uri(), model_dir=str(tmp_path / 'md2'), check_hash=True)
    assert not (tmp_path / 'md2' / bad.name).exists() and os.listdir(tmp_path / 'md2') == []
    dst = tmp_path / 'copy.bin'
    torch.hub.download_url_to_file(src.as_uri(), str(dst), hash_prefix=digest[:6])
    assert dst.read_bytes() == src.read_bytes()


def test_uncached_unreachable_url_raises_urlerror(hub_dir, tmp_path):
    with pytest.raises(urllib.error.URLError):
        torch.hub.load_state_dict_from_url((tmp_path / 'absent.pth').as_uri(), model_dir=str(tmp_path / 'm'))
