/*
 * A kernel that calls back into Python: the runtime op gilrelay::relay(Tensor self) -> Tensor, whose
 * float32 CPU kernel runs the op gilrelay::py_side (defined and implemented in Python with
 * torch.library by the test) on its argument through call_op, and copies py_side's result into its
 * own output. On a large tensor the kernel runs with the GIL released (tc_set_long_kernel_hooks), so
 * the Python implementation must take the GIL back itself. tests/python/test_gil.py drives it.
 */
#include "torch_core/tc_abi.h"

#include <stdio.h>
#include <string.h>

static const tc_core_api *core;

static int64_t numel(const tc_view *v) {
    int64_t n = 1;
    for (int32_t d = 0; d < v->ndim; d++) n *= v->sizes[d];
    return n;
}

static bool contiguous(const tc_view *v) {
    int64_t expect = 1;
    for (int32_t d = v->ndim - 1; d >= 0; d--) {
        if (v->sizes[d] != 1 && v->strides[d] != expect) return false;
        expect *= v->sizes[d];
    }
    return true;
}

static int relay(const tc_kernel_args *args) {
    int32_t py_side = core->op_lookup("gilrelay::py_side");
    if (py_side < 0) return core->set_error(TC_ERR_RUNTIME, "gilrelay::py_side is not defined");
    const tc_view *o = &args->outputs[0];
    if (args->n_args != 1 || !contiguous(o) || o->dtype != TC_FLOAT32)
        return core->set_error(TC_ERR_RUNTIME, "gilrelay::relay: unexpected arguments");
    tc_value out;
    if (core->call_op(py_side, args->args, &out)) return TC_FAIL; /* the Python error passes through */
    tc_view r;
    int rc = out.tag == TC_VALUE_TENSOR && !core->tensor_view(out.v.tensor, &r) ? TC_OK : TC_FAIL;
    if (rc == TC_OK && (r.dtype != TC_FLOAT32 || numel(&r) != numel(o) || !contiguous(&r)))
        rc = core->set_error(TC_ERR_RUNTIME, "gilrelay::py_side returned another shape or dtype");
    else if (rc == TC_OK)
        memcpy(o->data, r.data, sizeof(float) * (size_t)numel(o));
    core->values_release(&out, 1);
    return rc;
}

static int init(const tc_core_api *c, char *err, size_t len) {
    core = c;
    static const tc_op_def def = {.struct_size = sizeof(tc_op_def), .schema = "gilrelay::relay(Tensor self) -> Tensor"};
    if (core->register_op(&def) < 0 ||
        core->register_kernel("gilrelay::relay", core->device_type_id("cpu"), TC_STRIDED, TC_FLOAT32, relay)) {
        snprintf(err, len, "could not register gilrelay::relay");
        return TC_FAIL;
    }
    return TC_OK;
}

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-gil-relay", .kind = TC_PLUGIN_KIND_EXTENSION, .version = "1.0",
    .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
