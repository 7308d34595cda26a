/*
 * Tensor facts and the legacy in-place reshapers: is_floating_point, is_complex, numel; resize_ and
 * resize_as_, which give a tensor new sizes with contiguous strides over its own storage, grown in
 * place (contents kept, every view of the storage seeing the new memory) when it is too small.
 */
#include "core_internal.h"
#include "torch_core/tc_autograd.h"

int tc_impl_is_floating_point(tc_opcall *c) {
    c->outs[0] = (tc_value){.tag = TC_VALUE_BOOL, .v.b = tc_dtype_is_floating(tc_arg_tensor(c, 0)->dtype)};
    return TC_OK;
}

int tc_impl_is_complex(tc_opcall *c) {
    c->outs[0] = (tc_value){.tag = TC_VALUE_BOOL, .v.b = false}; /* no complex dtypes yet */
    return TC_OK;
}

int tc_impl_numel(tc_opcall *c) {
    c->outs[0] = (tc_value){.tag = TC_VALUE_INT, .v.i = tc_tensor_numel(tc_arg_tensor(c, 0))};
    return TC_OK;
}

static int resize(tc_opcall *c, tc_tensor *t, tc_int_list size, int32_t format) {
    /* PyTorch refuses before anything else, in grad mode or not (its autograd kernel of resize_) */
    if (tc_requires_grad(t)) return tc_set_error(TC_ERR_RUNTIME, "cannot resize variables that require grad");
    if (tc_shape_check_ndim(size.len)) return TC_FAIL;
    for (int64_t i = 0; i < size.len; i++)
        if (size.items[i] < 0) {
            char s[512];
            tc_shape_format((int32_t)size.len, size.items, s, sizeof s);
            return tc_set_error(TC_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld: %s",
                                (long long)size.items[i], s);
        }
    if (tc_tensor_resize(t, (int32_t)size.len, size.items)) return TC_FAIL;
    if (format == TC_MEMORY_FORMAT_CHANNELS_LAST && size.len == 4) { /* NHWC */
        t->strides[1] = 1;
        t->strides[3] = t->sizes[1] > 1 ? t->sizes[1] : 1;
        t->strides[2] = t->strides[3] * (t->sizes[3] > 1 ? t->sizes[3] : 1);
        t->strides[0] = t->strides[2] * (t->sizes[2] > 1 ? t->sizes[2] : 1);
    }
    tc_tensor_retain(t);
    return tc_return(c, t);
}

/* resize_(self, size, *, memory_format) */
int tc_impl_resize_(tc_opcall *c) { return resize(c, tc_arg_tensor(c, 0), tc_arg_ints(c, 1), tc_arg_enum(c, 2)); }

/* resize_as_(self, the_template, *, memory_format) */
int tc_impl_resize_as_(tc_opcall *c) {
    tc_tensor *like = tc_arg_tensor(c, 1);
    return resize(c, tc_arg_tensor(c, 0), (tc_int_list){like->sizes, like->ndim}, tc_arg_enum(c, 2));
}
