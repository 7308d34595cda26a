"""torch.utils.model_zoo: the old name of torch.hub's checkpoint download."""
from torch.hub import load_state_dict_from_url as load_url, tqdm  # noqa: F401
