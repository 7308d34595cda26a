"""torch.backends.mkl: Intel MKL is not used by this project (its BLAS plugins are BLIS and OpenBLAS,
see torch.backends.blas)."""


def is_available():
    return False
