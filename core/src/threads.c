/*
 * The intra-op thread count: what torch.set_num_threads asked for, and what is actually used. Any
 * positive int is accepted and reported back (as in PyTorch), but the pool, the kernels and the BLAS
 * providers are handed at most TC_THREADS_MAX: a request for 65536 threads must not make anyone try
 * to create them.
 */
#include "core_internal.h"

#include <stdlib.h>
#include <unistd.h>

static atomic_int num_threads;

static int default_threads(void) {
    const char *env = getenv("OMP_NUM_THREADS");
    long n = env ? strtol(env, NULL, 10) : 0;
    if (n <= 0 || n > TC_THREADS_MAX) n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)(n < TC_THREADS_MAX ? n : TC_THREADS_MAX) : 1;
}

int tc_get_num_threads(void) {
    int n = atomic_load(&num_threads);
    if (!n) {
        n = default_threads();
        atomic_store(&num_threads, n);
    }
    return n;
}

int tc_threads_effective(void) {
    const int n = tc_get_num_threads();
    return n < TC_THREADS_MAX ? n : TC_THREADS_MAX;
}

int tc_set_num_threads(int n) {
    if (n <= 0) return tc_set_error(TC_ERR_RUNTIME, "set_num_threads expects a positive integer");
    atomic_store(&num_threads, n);
    const tc_blas_provider *p = tc_blas_current();
    if (p && p->set_num_threads) p->set_num_threads(tc_threads_effective());
    return TC_OK;
}
