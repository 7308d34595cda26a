"""torch.optim: optimizers (each parameter updated by one fused C kernel pass, see _fused) and
learning-rate schedules."""
from torch.optim.optimizer import Optimizer
from torch.optim.sgd import SGD
from torch.optim.adam import Adam
from torch.optim.adamw import AdamW
from torch.optim.rmsprop import RMSprop
from torch.optim.adagrad import Adagrad
from torch.optim.adadelta import Adadelta
from torch.optim.adamax import Adamax
from torch.optim.asgd import ASGD
from torch.optim.rprop import Rprop
from torch.optim.nadam import NAdam
from torch.optim.radam import RAdam
from torch.optim.lbfgs import LBFGS
from torch.optim import lr_scheduler

__all__ = ['Optimizer', 'SGD', 'Adam', 'AdamW', 'RMSprop', 'Adagrad', 'Adadelta', 'Adamax', 'ASGD', 'Rprop', 'NAdam',
           'RAdam', 'LBFGS', 'lr_scheduler']
