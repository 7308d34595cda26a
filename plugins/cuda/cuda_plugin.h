/*
 * cuda_plugin.h - what the CUDA plugin's C files share (plugin.c, allocator.c, blas.c).
 */
#ifndef TORCH_CUDA_PLUGIN_H
#define TORCH_CUDA_PLUGIN_H

#include <cuda_runtime_api.h>

#include "torch_core/tc_abi.h"

extern const tc_core_api *cuda_core;
extern int32_t cuda_device_type;
extern int32_t cuda_num_devices;

/* Raise a CUDA error through the core: "CUDA error: <text> (<name>) in <what>". Returns TC_FAIL. */
int cuda_fail(cudaError_t err, const char *what);
/* Make `index` the calling thread's current device (cheap when it already is). */
int cuda_use_device(int32_t index);

/* This thread's current stream on a device (a cudaStream_t; NULL: the legacy default stream). */
void *cuda_current_stream(int32_t index);

/* The caching allocator (allocator.c). */
extern const tc_allocator cuda_allocator;
void *cuda_cache_alloc(size_t nbytes, int32_t device_index);
void cuda_cache_free(void *ptr, size_t nbytes, int32_t device_index);
void cuda_cache_empty(void);
void cuda_cache_reset_peak(void);

/* cuBLAS products (blas.c): the "mm" and "bmm" kernels, and the handles' release at shutdown. */
int cuda_mm(const tc_kernel_args *args);
int cuda_bmm(const tc_kernel_args *args);
void cuda_blas_shutdown(void);

#endif
