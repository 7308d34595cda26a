"""torch.utils.data: datasets, samplers and the DataLoader (batching, shuffling, worker processes)."""
from torch.utils.data.sampler import (  # noqa: F401
    BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler, WeightedRandomSampler)
from torch.utils.data.dataset import (  # noqa: F401
    ChainDataset, ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split)
from torch.utils.data.dataloader import (  # noqa: F401
    DataLoader, _DatasetKind, default_collate, default_convert, get_worker_info)

__all__ = ['BatchSampler', 'ChainDataset', 'ConcatDataset', 'DataLoader', 'Dataset', 'IterableDataset',
           'RandomSampler', 'Sampler', 'SequentialSampler', 'Subset', 'SubsetRandomSampler', 'TensorDataset',
           'WeightedRandomSampler', 'default_collate', 'default_convert', 'get_worker_info', 'random_split']
