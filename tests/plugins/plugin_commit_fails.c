/* Registers a wrong int8 add kernel, then a BLAS provider under a name already taken ("blis"), and
 * ignores that refusal: the commit must fail as a whole, leaving neither the kernel nor the provider
 * behind once the plugin is unloaded. */
#include "torch_core/tc_abi.h"

static int wrong_add(const tc_kernel_args *args) {
    int8_t *out = args->outputs[0].data;
    out[0] = 99;
    return TC_OK;
}

static void fake_gemm_f(int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                        const float *b, int64_t ldb, float beta, float *c, int64_t ldc) {}
static void fake_gemm_d(int ta, int tb, int64_t m, int64_t n, int64_t k, double alpha, const double *a,
                        int64_t lda, const double *b, int64_t ldb, double beta, double *c, int64_t ldc) {}

static const tc_blas_provider taken = {
    .struct_size = sizeof(tc_blas_provider), .name = "blis", .sgemm = fake_gemm_f, .dgemm = fake_gemm_d,
};

static int init(const tc_core_api *core, char *err, size_t len) {
    if (core->register_kernel("add", 0, TC_STRIDED, TC_INT8, wrong_add) != TC_OK) return TC_FAIL;
    (void)core->register_blas(&taken); /* refused; a careless plugin carries on */
    return TC_OK;
}

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-commit-fails", .kind = TC_PLUGIN_KIND_EXTENSION, .version = "0",
    .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
