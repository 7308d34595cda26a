"""torch.hub: models published as a hubconf.py (a local folder, or a GitHub repository fetched into the
hub cache) and weights fetched by URL into <hub dir>/checkpoints.

Everything is cached under get_dir() (default $TORCH_HOME/hub, $TORCH_HOME defaulting to
$XDG_CACHE_HOME/torch or ~/.cache/torch): a cached checkpoint or repository is used without touching the
network; anything else is fetched with urllib, whose URLError/HTTPError reaches the caller unchanged.
Not done: checkpoints in the legacy (pre-1.6) zip wrapping."""
import hashlib
import importlib.util
import os
import re
import shutil
import sys
import tempfile
import warnings
import zipfile
from urllib.parse import urlparse
from urllib.request import Request, urlopen

import torch

try:  # the progress bar of downloads (torchvision imports it from torch.utils.model_zoo too)
    from tqdm.auto import tqdm
except ImportError:
    class tqdm:
        """A bare progress report on stderr where the tqdm package is absent."""

        def __init__(self, total=None, disable=False, unit=None, unit_scale=None, unit_divisor=None, **kwargs):
            self.total, self.disable, self.n = total, disable, 0

        def update(self, n):
            self.n += n
            if not self.disable:
                done = '%.1f%%' % (100.0 * self.n / self.total) if self.total else '%d bytes' % self.n
                sys.stderr.write('\r' + done)
                sys.stderr.flush()

        def close(self):
            if not self.disable:
                sys.stderr.write('\n')

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.close()

__all__ = ['download_url_to_file', 'get_dir', 'help', 'list', 'load', 'load_state_dict_from_url', 'set_dir']

ENV_TORCH_HOME = 'TORCH_HOME'
ENV_XDG_CACHE_HOME = 'XDG_CACHE_HOME'
DEFAULT_CACHE_DIR = '~/.cache'
MODULE_HUBCONF = 'hubconf.py'
VAR_DEPENDENCY = 'dependencies'
HASH_REGEX = re.compile(r'-([a-f0-9]*)\.')
READ_DATA_CHUNK = 8192
_TRUSTED_OWNERS = ('facebookresearch', 'facebookincubator', 'pytorch', 'fairinternal')
_hub_dir = None


def _get_torch_home():
    return os.path.expanduser(os.getenv(ENV_TORCH_HOME, os.path.join(
        os.getenv(ENV_XDG_CACHE_HOME, DEFAULT_CACHE_DIR), 'torch')))


def get_dir():
    """Where hub keeps repositories and checkpoints: set_dir's folder, else $TORCH_HOME/hub."""
    if os.getenv('TORCH_HUB'):
        warnings.warn('TORCH_HUB is deprecated, please use env TORCH_HOME instead')
    if _hub_dir is not None:
        return _hub_dir
    return os.path.join(_get_torch_home(), 'hub')


def set_dir(d):
    global _hub_dir
    _hub_dir = os.path.expanduser(d)


def download_url_to_file(url, dst, hash_prefix=None, progress=True):
    """Fetches url into dst (through a temporary file beside it, so dst is whole or absent); with
    hash_prefix, RuntimeError unless the file's SHA-256 starts with it."""
    dst = os.path.abspath(os.path.expanduser(dst))
    with urlopen(Request(url, headers={'User-Agent': 'torch.hub'})) as response:
        length = response.headers.get('Content-Length') if hasattr(response, 'headers') else None
        tmp = tempfile.NamedTemporaryFile(delete=False, dir=os.path.dirname(dst))
        try:
            digest = hashlib.sha256()
            with tmp, tqdm(total=int(length) if length else None, disable=not progress, unit='B', unit_scale=True,
                           unit_divisor=1024) as bar:
                while True:
                    chunk = response.read(READ_DATA_CHUNK)
                    if not chunk:
                        break
                    tmp.write(chunk)
                    digest.update(chunk)
                    bar.update(len(chunk))
            if hash_prefix is not None and not digest.hexdigest().startswith(hash_prefix):
                raise RuntimeError('invalid hash value (expected "%s", got "%s")' % (hash_prefix, digest.hexdigest()))
            shutil.move(tmp.name, dst)
        finally:
            if os.path.exists(tmp.name):
                os.remove(tmp.name)


def load_state_dict_from_url(url, model_dir=None, map_location=None, progress=True, check_hash=False,
                             file_name=None):
    """torch.load of the file at url, cached as <model_dir or hub dir/checkpoints>/<file name>. With
    check_hash, the file name's -<hex>. part must prefix the file's SHA-256."""
    if os.getenv('TORCH_MODEL_ZOO'):
        warnings.warn('TORCH_MODEL_ZOO is deprecated, please use env TORCH_HOME instead')
    if model_dir is None:
        model_dir = os.path.join(get_dir(), 'checkpoints')
    os.makedirs(model_dir, exist_ok=True)
    filename = file_name or os.path.basename(urlparse(url).path)
    cached_file = os.path.join(model_dir, filename)
    if not os.path.exists(cached_file):
        sys.stderr.write('Downloading: "%s" to %s\n' % (url, cached_file))
        hash_prefix = None
        if check_hash:
            m = HASH_REGEX.search(filename)
            hash_prefix = m.group(1) if m else None
        download_url_to_file(url, cached_file, hash_prefix, progress=progress)
    return torch.load(cached_file, map_location=map_location)


# ---- hubconf.py entry points ----

def _import_hubconf(repo_dir):
    path = os.path.join(repo_dir, MODULE_HUBCONF)
    if not os.path.exists(path):
        raise FileNotFoundError(2, 'No such file or directory', path)
    sys.path.insert(0, repo_dir)
    try:
        spec = importlib.util.spec_from_file_location('hubconf', path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(repo_dir)
    missing = [d for d in getattr(module, VAR_DEPENDENCY, []) if importlib.util.find_spec(d) is None]
    if missing:
        raise RuntimeError('Missing dependencies: %s' % ', '.join(missing))
    return module


def _entry(module, model):
    if not isinstance(model, str):
        raise ValueError('Invalid input: model should be a string of function name')
    fn = getattr(module, model, None)
    if fn is None or not callable(fn):
        raise RuntimeError('Cannot find callable %s in hubconf' % model)
    return fn


def _parse_repo(github):
    repo, _, ref = github.partition(':')
    owner, _, name = repo.partition('/')
    if not owner or not name or '/' in name:
        raise ValueError('Invalid repo_or_dir: "%s"; expected "repo_owner/repo_name[:ref]"' % github)
    return owner, name, ref or None


def _check_trust(owner, name, trust_repo, hub_dir):
    if trust_repo is None:
        warnings.warn('You are about to download and run code from an untrusted repository. In a future release, '
                      "this won't be allowed. To add the repository to your trusted list, change the command to "
                      "{calling_fn}(..., trust_repo=False) and a command prompt will appear asking for an explicit "
                      "confirmation of trust, or load(..., trust_repo=True), which will assume that the prompt is "
                      "to be answered with 'yes'. You can also use load(..., trust_repo='check') which will only "
                      'prompt for confirmation if the repo is not already trusted. This will eventually be the '
                      'default behaviour')
        return
    trusted_file = os.path.join(hub_dir, 'trusted_list')
    trusted = set()
    if os.path.exists(trusted_file):
        with open(trusted_file) as f:
            trusted = {line.strip() for line in f}
    key = '%s_%s' % (owner, name)
    if key in trusted or owner in _TRUSTED_OWNERS:
        return
    if trust_repo is not True:
        answer = input('The repository %s does not belong to the list of trusted repositories and as such cannot '
                       'be downloaded. Do you trust this repository and wish to add it to the trusted list of '
                       'repositories (y/N)?' % key)
        if answer.lower() not in ('y', 'yes'):
            raise Exception('Untrusted repository.')
    os.makedirs(hub_dir, exist_ok=True)
    with open(trusted_file, 'a') as f:
        f.write(key + '\n')


def _github_repo_dir(github, force_reload, trust_repo, verbose=True):
    """The repository's folder in the hub cache, fetched from GitHub when absent (or force_reload).
    Without a ref, a cached main or master is used before asking the network."""
    hub_dir = get_dir()
    owner, name, ref = _parse_repo(github)
    if ref is None:
        cached = [r for r in ('main', 'master') if os.path.isdir(os.path.join(hub_dir, '%s_%s_%s' % (owner, name, r)))]
        ref = cached[0] if cached and not force_reload else 'main'
    repo_dir = os.path.join(hub_dir, '_'.join([owner, name, ref.replace('/', '_')]))
    _check_trust(owner, name, trust_repo, hub_dir)
    if os.path.isdir(repo_dir) and not force_reload:
        if verbose:
            sys.stderr.write('Using cache found in %s\n' % repo_dir)
        return repo_dir
    os.makedirs(hub_dir, exist_ok=True)
    archive = os.path.join(hub_dir, ref.replace('/', '_') + '.zip')
    url = 'https://github.com/%s/%s/zipball/%s' % (owner, name, ref)
    sys.stderr.write('Downloading: "%s" to %s\n' % (url, archive))
    download_url_to_file(url, archive, progress=False)
    with zipfile.ZipFile(archive) as z:
        top = z.namelist()[0].split('/')[0]
        shutil.rmtree(os.path.join(hub_dir, top), ignore_errors=True)
        z.extractall(hub_dir)
    os.remove(archive)
    shutil.rmtree(repo_dir, ignore_errors=True)
    shutil.move(os.path.join(hub_dir, top), repo_dir)
    return repo_dir


def _repo_dir(repo_or_dir, source, force_reload, trust_repo, verbose=True):
    if source not in ('github', 'local'):
        raise ValueError('Unknown source: "%s". Allowed values: "github" | "local".' % source)
    if source == 'local':
        return repo_or_dir
    return _github_repo_dir(repo_or_dir, force_reload, trust_repo, verbose)


def list(github, force_reload=False, skip_validation=False, trust_repo=None, source='github'):
    """The names of the repository's entry points (its hubconf's public callables)."""
    module = _import_hubconf(_repo_dir(github, source, force_reload, trust_repo))
    return [n for n in dir(module) if callable(getattr(module, n)) and not n.startswith('_')]


def help(github, model, force_reload=False, skip_validation=False, trust_repo=None, source='github'):
    """The docstring of entry point `model`."""
    return _entry(_import_hubconf(_repo_dir(github, source, force_reload, trust_repo)), model).__doc__


def load(repo_or_dir, model, *args, source='github', trust_repo=None, force_reload=False, verbose=True,
         skip_validation=False, **kwargs):
    """The result of calling entry point `model` of repo_or_dir's hubconf.py with *args and **kwargs;
    source='local' takes repo_or_dir as a folder, 'github' as owner/name[:ref]."""
    source = source.lower()
    repo_dir = _repo_dir(repo_or_dir, source, force_reload, trust_repo, verbose)
    return _load_local(repo_dir, model, *args, **kwargs)


def _load_local(hubconf_dir, model, *args, **kwargs):
    return _entry(_import_hubconf(hubconf_dir), model)(*args, **kwargs)
