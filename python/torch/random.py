"""torch.random: seeding and saving the default CPU generator (torch.default_generator), with
PyTorch's functions. Generators of their own are torch.Generator objects."""
import contextlib

from torch._C import default_generator


def manual_seed(seed):
    """Seeds the default generator (any int of 64 bits, or what int() takes) and returns it."""
    return default_generator.manual_seed(int(seed))


def seed():
    """Seeds the default generator from the operating system's entropy and returns that seed."""
    return default_generator.seed()


def initial_seed():
    """The seed the default generator was last seeded with."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state, a torch.ByteTensor in PyTorch's layout."""
    return default_generator.get_state()


def set_rng_state(new_state):
    """Restores a state that get_rng_state (here or in PyTorch) returned."""
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller='fork_rng', _devices_kw='devices'):
    """Restores the default generator's state when the block ends (no CUDA generators exist here)."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
