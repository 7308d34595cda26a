/* The intra-op thread count asked for by torch.set_num_threads, shared with kernels and BLAS. */
#include "core_internal.h"

#include <stdlib.h>
#include <unistd.h>

static atomic_int num_threads;

static int default_threads(void) {
    const char *env = getenv("OMP_NUM_THREADS");
    int n = env ? atoi(env) : 0;
    if (n <= 0) n = (int)sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

int tc_get_num_threads(void) {
    int n = atomic_load(&num_threads);
    if (!n) {
        n = default_threads();
        atomic_store(&num_threads, n);
    }
    return n;
}

int tc_set_num_threads(int n) {
    if (n <= 0) return tc_set_error(TC_ERR_RUNTIME, "Number of threads must be positive, got %d", n);
    atomic_store(&num_threads, n);
    const tc_blas_provider *p = tc_blas_current();
    if (p && p->set_num_threads) p->set_num_threads(n);
    return TC_OK;
}
