"""torch.backends.openmp: this project parallelises with its own thread pool (torch.set_num_threads
sizes it), not OpenMP."""


def is_available():
    return False
