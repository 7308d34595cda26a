/*
 * torch._C._TensorBase: the C type under torch.Tensor. Operators go straight to the core (one C
 * call per op, no Python-level dispatch); named ops come from the generated bindings.
 */
#include "tp.h"
#include "torch_core/tc_autograd.h"

#include <string.h>

#include "bindings.inc"

PyTypeObject *tp_tensor_class = &TPTensorBase_Type;

/* An instance of `type` owning t (the reference is released on failure too). A tensor has one
 * Python object while that object lives (t->frontend), so `x.grad is x.grad` and a grad_fn's
 * variable is the very tensor given. */
PyObject *tp_wrap_as(PyTypeObject *type, tc_tensor *t) {
    TPTensor *self = (TPTensor *)type->tp_alloc(type, 0);
    if (!self) {
        tc_tensor_release(t);
        return NULL;
    }
    self->t = t;
    if (!t->frontend) t->frontend = self;
    return (PyObject *)self;
}

PyObject *tp_wrap(tc_tensor *t) {
    if (!t) return tp_raise_core_error();
    if (t->frontend) {
        PyObject *o = Py_NewRef((PyObject *)t->frontend);
        tc_tensor_release(t);
        return o;
    }
    return tp_wrap_as(tp_tensor_class, t);
}

static void tensor_dealloc(PyObject *self) {
    tc_tensor *t = ((TPTensor *)self)->t;
    if (t && t->frontend == self) t->frontend = NULL;
    tc_tensor_release(t);
    Py_TYPE(self)->tp_free(self);
}

/* ---- operators ---- */

/* An operand of a Python operator: a tensor (borrowed) or a number (wrapped, owned). */
static int operand(PyObject *o, tc_tensor **t, tc_tensor **owned) {
    *owned = NULL;
    if (tp_is_tensor(o)) {
        *t = tp_unwrap(o);
        return 0;
    }
    if ((*owned = tp_wrap_number(o))) {
        *t = *owned;
        return 0;
    }
    if (PyErr_Occurred()) return -1;
    if (strcmp(Py_TYPE(o)->tp_name, "numpy.ndarray") == 0) {
        /* t + array is a tensor, as in PyTorch (numpy would otherwise turn t into an array) */
        PyObject *factories = PyImport_ImportModule("torch._factories");
        PyObject *converted = factories ? PyObject_CallMethod(factories, "from_numpy", "O", o) : NULL;
        Py_XDECREF(factories);
        if (!converted) return -1;
        *owned = *t = tp_unwrap(converted);
        tc_tensor_retain(*owned);
        Py_DECREF(converted);
        return 0;
    }
    return 1; /* not ours: NotImplemented */
}

typedef tc_tensor *(*binary_entry)(tc_tensor *a, tc_tensor *b);

/* Operators reach ops through their typed entries, like every other path. */
static PyObject *binary(binary_entry entry, PyObject *a, PyObject *b, int inplace) {
    tc_tensor *ta, *tb, *oa, *ob;
    int ra = operand(a, &ta, &oa);
    if (ra) return ra < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    int rb = operand(b, &tb, &ob);
    if (rb) {
        tc_tensor_release(oa);
        return rb < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    }
    tc_tensor *r = entry(ta, tb);
    tc_tensor_release(oa);
    tc_tensor_release(ob);
    if (inplace && r) {
        tc_tensor_release(r);
        return Py_NewRef(a);
    }
    return tp_wrap(r);
}

#define ALPHA_ENTRY(name, entry)                                                                   \
    static tc_tensor *name(tc_tensor *a, tc_tensor *b) { return entry(a, b, TC_SCALAR_OF_INT(1)); }
ALPHA_ENTRY(add, tc_add_Tensor)
ALPHA_ENTRY(add_, tc_add__Tensor)
ALPHA_ENTRY(sub, tc_sub_Tensor)
ALPHA_ENTRY(sub_, tc_sub__Tensor)

#define BINARY(name, entry, inplace_entry)                                                         \
    static PyObject *nb_##name(PyObject *a, PyObject *b) { return binary(entry, a, b, 0); }        \
    static PyObject *nb_inplace_##name(PyObject *a, PyObject *b) { return binary(inplace_entry, a, b, 1); }
BINARY(add, add, add_)
BINARY(sub, sub, sub_)
BINARY(mul, tc_mul_Tensor, tc_mul__Tensor)
BINARY(truediv, tc_div_Tensor, tc_div__Tensor)
BINARY(floordiv, tc_floor_divide, tc_floor_divide_)
static PyObject *nb_matmul(PyObject *a, PyObject *b) { return binary(tc_matmul, a, b, 0); }
/* & | ^ << >> are PyTorch's __and__, __lshift__, ... ops (the reflected forms swap the operands) */
BINARY(and, tc___and___Tensor, tc___iand___Tensor)
BINARY(or, tc___or___Tensor, tc___ior___Tensor)
BINARY(xor, tc___xor___Tensor, tc___ixor___Tensor)
BINARY(lshift, tc___lshift___Tensor, tc___ilshift___Tensor)
BINARY(rshift, tc___rshift___Tensor, tc___irshift___Tensor)

/* A Python number operand (not a tensor, not a sequence): 1 with its value, 0 when o is none, -1 on error. */
static int number_operand(PyObject *o, tc_scalar *s) {
    if (tp_is_tensor(o) || PySequence_Check(o)) return 0;
    if (!(PyBool_Check(o) || tp_is_numpy_bool(o) || PyLong_Check(o) || PyFloat_Check(o) || PyIndex_Check(o) ||
          (PyNumber_Check(o) && PyObject_HasAttrString(o, "__float__"))))
        return 0;
    return tp_parse_scalar(o, s) ? -1 : 1;
}

typedef tc_tensor *(*scalar_entry)(tc_tensor *a, tc_scalar b);
typedef tc_tensor *(*scalar_first_entry)(tc_scalar a, tc_tensor *b);

/* PyTorch's __pow__ and __mod__ (and their in-place and reflected forms) call the op's Scalar
 * overload for a number operand (x ** 2 is pow.Tensor_Scalar, whose node is PowBackward0), the
 * Tensor one otherwise. */
static PyObject *binary_scalar(binary_entry entry, scalar_entry with_scalar, scalar_first_entry scalar_first,
                               PyObject *a, PyObject *b, int inplace) {
    tc_scalar s;
    if (tp_is_tensor(a) && with_scalar) {
        int rc = number_operand(b, &s);
        if (rc < 0) return NULL;
        if (rc) {
            tc_tensor *r = with_scalar(tp_unwrap(a), s);
            if (inplace && r) {
                tc_tensor_release(r);
                return Py_NewRef(a);
            }
            return tp_wrap(r);
        }
    } else if (tp_is_tensor(b) && scalar_first) {
        int rc = number_operand(a, &s);
        if (rc < 0) return NULL;
        if (rc) return tp_wrap(scalar_first(s, tp_unwrap(b)));
    }
    return binary(entry, a, b, inplace);
}

/* PyTorch's __rpow__: number ** x is torch.tensor(number, dtype=torch.result_type(number, x)) ** x, a
 * Tensor_Tensor pow whose base is a plain 0-dim tensor (PowBackward1, its log computed in that dtype). */
static tc_tensor *rpow_number(tc_scalar s, tc_tensor *x) {
    int rank_x = tc_dtype_is_floating(x->dtype) ? 2 : x->dtype == TC_BOOL ? 0 : 1;
    int rank_s = s.kind == TC_SCALAR_FLOAT ? 2 : s.kind == TC_SCALAR_BOOL ? 0 : 1;
    int32_t dtype = rank_s > rank_x ? (rank_s == 2 ? tc_default_dtype() : TC_INT64) : x->dtype;
    if (!tc_scalar_fits(s, dtype)) { /* torch.tensor(300, dtype=torch.int8) */
        tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow", tc_dtype_name(dtype));
        return NULL;
    }
    tc_tensor *base = tc_scalar_tensor(s, dtype);
    if (!base) return NULL;
    tc_tensor *r = tc_pow_Tensor_Tensor(base, x);
    tc_tensor_release(base);
    return r;
}

static PyObject *nb_pow(PyObject *a, PyObject *b, PyObject *mod) {
    if (mod != Py_None) return PyErr_Format(PyExc_TypeError, "pow() with a modulus is not supported for tensors");
    if (!tp_is_tensor(a) && tp_is_tensor(b)) {
        tc_scalar s;
        int rc = number_operand(a, &s);
        if (rc < 0) return NULL;
        if (rc) {
            tc_tensor *r = rpow_number(s, tp_unwrap(b));
            return tp_wrap(r);
        }
    }
    return binary_scalar(tc_pow_Tensor_Tensor, tc_pow_Tensor_Scalar, NULL, a, b, 0);
}

static PyObject *nb_inplace_pow(PyObject *a, PyObject *b, PyObject *mod) {
    if (mod != Py_None) return PyErr_Format(PyExc_TypeError, "pow() with a modulus is not supported for tensors");
    return binary_scalar(tc_pow__Tensor, tc_pow__Scalar, NULL, a, b, 1);
}

static PyObject *nb_mod(PyObject *a, PyObject *b) {
    return binary_scalar(tc_remainder_Tensor, tc_remainder_Scalar, tc_remainder_Scalar_Tensor, a, b, 0);
}

static PyObject *nb_inplace_mod(PyObject *a, PyObject *b) {
    return binary_scalar(tc_remainder__Tensor, tc_remainder__Scalar, NULL, a, b, 1);
}

static PyObject *nb_neg(PyObject *a) { return tp_wrap(tc_neg(tp_unwrap(a))); }
static PyObject *nb_abs(PyObject *a) { return tp_wrap(tc_abs(tp_unwrap(a))); }

/* +x is x itself (positive refuses bool) */
static PyObject *nb_pos(PyObject *a) {
    tc_tensor *r = tc_positive(tp_unwrap(a));
    if (r != tp_unwrap(a)) return tp_wrap(r);
    tc_tensor_release(r);
    return Py_NewRef(a);
}

/* ~x: PyTorch's __invert__ raises TypeError itself for floating tensors */
static PyObject *nb_invert(PyObject *a) {
    tc_tensor *t = tp_unwrap(a);
    if (tc_dtype_is_floating(t->dtype))
        return PyErr_Format(PyExc_TypeError, "~ (operator.invert) is only implemented on integer and Boolean-type "
                                             "tensors");
    return tp_wrap(tc_bitwise_not(t));
}

/* The single value of a one-element tensor, for bool(), int(), float() and operator.index(). */
static int single_value(PyObject *self, const char *what, tc_scalar *out) {
    tc_tensor *t = tp_unwrap(self);
    int64_t n = tc_tensor_numel(t);
    if (n != 1) { /* PyTorch's exception types: RuntimeError for bool(), ValueError for int()/float() */
        if (what[0] == 'B')
            PyErr_Format(PyExc_RuntimeError, "Boolean value of Tensor with %s is ambiguous",
                         n ? "more than one value" : "no values");
        else
            PyErr_Format(PyExc_ValueError, "only one element tensors can be converted to Python scalars "
                                           "(this one has %lld)", (long long)n);
        return -1;
    }
    if (tc__local_scalar_dense(t, out)) return tp_raise_core_error(), -1;
    return 0;
}

static int nb_bool(PyObject *self) {
    tc_scalar s;
    if (single_value(self, "Boolean", &s)) return -1;
    if (s.kind == TC_SCALAR_COMPLEX) return s.v.f != 0.0 || s.imag != 0.0;
    return s.kind == TC_SCALAR_FLOAT ? s.v.f != 0.0 : s.v.i != 0;
}

/* int() and float() of a complex value need a zero imaginary part (c10's checked conversion). */
static int real_part(tc_scalar *s, const char *type) {
    if (s->kind != TC_SCALAR_COMPLEX) return 0;
    if (s->imag != 0.0) {
        PyErr_Format(PyExc_RuntimeError, "value cannot be converted to type %s without overflow", type);
        return -1;
    }
    s->kind = TC_SCALAR_FLOAT;
    return 0;
}

static PyObject *nb_int(PyObject *self) {
    tc_scalar s;
    if (single_value(self, "int", &s) || real_part(&s, "int64_t")) return NULL;
    if (s.kind == TC_SCALAR_FLOAT) return PyLong_FromDouble(s.v.f);
    return PyLong_FromLongLong(s.v.i);
}

static PyObject *nb_float(PyObject *self) {
    tc_scalar s;
    if (single_value(self, "float", &s) || real_part(&s, "double")) return NULL;
    return PyFloat_FromDouble(s.kind == TC_SCALAR_FLOAT ? s.v.f : (double)s.v.i);
}

static PyObject *nb_index(PyObject *self) {
    tc_tensor *t = tp_unwrap(self);
    if (!(tc_dtype_is_integral(t->dtype) || t->dtype == TC_BOOL) || tc_tensor_numel(t) != 1)
        return PyErr_Format(PyExc_TypeError, "only integer tensors of a single element can be converted to an index");
    return nb_int(self);
}

PyNumberMethods tp_tensor_as_number = {
    .nb_add = nb_add,
    .nb_subtract = nb_sub,
    .nb_multiply = nb_mul,
    .nb_remainder = nb_mod,
    .nb_power = nb_pow,
    .nb_negative = nb_neg,
    .nb_positive = nb_pos,
    .nb_absolute = nb_abs,
    .nb_bool = nb_bool,
    .nb_int = nb_int,
    .nb_float = nb_float,
    .nb_inplace_add = nb_inplace_add,
    .nb_inplace_subtract = nb_inplace_sub,
    .nb_inplace_multiply = nb_inplace_mul,
    .nb_inplace_remainder = nb_inplace_mod,
    .nb_inplace_power = nb_inplace_pow,
    .nb_floor_divide = nb_floordiv,
    .nb_true_divide = nb_truediv,
    .nb_inplace_floor_divide = nb_inplace_floordiv,
    .nb_inplace_true_divide = nb_inplace_truediv,
    .nb_index = nb_index,
    .nb_matrix_multiply = nb_matmul,
    .nb_invert = nb_invert,
    .nb_and = nb_and,
    .nb_or = nb_or,
    .nb_xor = nb_xor,
    .nb_lshift = nb_lshift,
    .nb_rshift = nb_rshift,
    .nb_inplace_and = nb_inplace_and,
    .nb_inplace_or = nb_inplace_or,
    .nb_inplace_xor = nb_inplace_xor,
    .nb_inplace_lshift = nb_inplace_lshift,
    .nb_inplace_rshift = nb_inplace_rshift,
    /* no in-place matmul: `x @= y` rebinds x to x @ y, as in PyTorch (the product has its own shape) */
};

PyObject *tp_richcompare(PyObject *a, PyObject *b, int op) {
    static const binary_entry entries[] = {[Py_LT] = tc_lt_Tensor, [Py_LE] = tc_le_Tensor, [Py_EQ] = tc_eq_Tensor,
                                           [Py_NE] = tc_ne_Tensor, [Py_GT] = tc_gt_Tensor, [Py_GE] = tc_ge_Tensor};
    return binary(entries[op], a, b, 0);
}

static Py_hash_t tensor_hash(PyObject *self) { return _Py_HashPointer(self); }

/* ---- sequence and mapping ---- */

static Py_ssize_t tensor_length(PyObject *self) {
    tc_tensor *t = tp_unwrap(self);
    if (t->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of a 0-d tensor");
        return -1;
    }
    return (Py_ssize_t)t->sizes[0];
}

static PyMappingMethods tensor_as_mapping = {
    .mp_length = tensor_length,
    .mp_subscript = tp_getitem,
    .mp_ass_subscript = tp_setitem,
};

static PySequenceMethods tensor_as_sequence = {
    .sq_length = tensor_length,
};

/* ---- attributes ---- */

static PyObject *get_shape(PyObject *self, void *unused) {
    tc_tensor *t = tp_unwrap(self);
    return tp_size_new(t->ndim, t->sizes);
}

static PyObject *get_dtype(PyObject *self, void *unused) { return Py_NewRef(tp_dtype_object(tp_unwrap(self)->dtype)); }

static PyObject *get_device(PyObject *self, void *unused) { return tp_device_object(tp_unwrap(self)->device); }

static PyObject *get_ndim(PyObject *self, void *unused) { return PyLong_FromLong(tp_unwrap(self)->ndim); }

static PyObject *get_is_cuda(PyObject *self, void *unused) {
    return PyBool_FromLong(tp_unwrap(self)->device.type == tc_device_type_id("cuda"));
}

static PyObject *get_false(PyObject *self, void *unused) { Py_RETURN_FALSE; }

static PyObject *get_version(PyObject *self, void *unused) {
    return PyLong_FromUnsignedLongLong(*tp_unwrap(self)->version);
}

static PyGetSetDef tensor_getset[] = {
    {"shape", get_shape, NULL, NULL, NULL},
    {"dtype", get_dtype, NULL, NULL, NULL},
    {"device", get_device, NULL, NULL, NULL},
    {"ndim", get_ndim, NULL, NULL, NULL},
    {"is_cuda", get_is_cuda, NULL, NULL, NULL},
    {"is_sparse", get_false, NULL, NULL, NULL},
    {"requires_grad", tp_tensor_get_requires_grad, tp_tensor_set_requires_grad, NULL, NULL},
    {"is_leaf", tp_tensor_get_is_leaf, NULL, NULL, NULL},
    {"grad_fn", tp_tensor_get_grad_fn, NULL, NULL, NULL},
    {"grad", tp_tensor_get_grad, tp_tensor_set_grad, NULL, NULL},
    {"data", tp_tensor_get_data, tp_tensor_set_data, NULL, NULL},
    {"_base", tp_tensor_get_base, NULL, NULL, NULL},
    {"retains_grad", tp_tensor_get_retains_grad, NULL, NULL, NULL},
    {"output_nr", tp_tensor_get_output_nr, NULL, NULL, NULL},
    {"_version", get_version, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- methods ---- */

static int optional_dim(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *name,
                        int32_t ndim, int32_t *dim, int *given) {
    PyObject *arg = nargs > 0 ? args[0] : NULL;
    if (nargs > 1 || (kwnames && PyTuple_GET_SIZE(kwnames) > (arg ? 0 : 1))) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most one argument (dim)", name);
        return -1;
    }
    if (!arg && kwnames && PyTuple_GET_SIZE(kwnames) == 1) {
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "dim") != 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", name,
                         PyTuple_GET_ITEM(kwnames, 0));
            return -1;
        }
        arg = args[0];
    }
    *given = arg && arg != Py_None;
    if (!*given) return 0;
    if (!PyLong_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'dim' must be int, not %s", name, Py_TYPE(arg)->tp_name);
        return -1;
    }
    long long d = PyLong_AsLongLong(arg);
    if (d == -1 && PyErr_Occurred()) return -1;
    if (ndim == 0) { /* PyTorch: a 0-d tensor has no dim to ask about, not even 0 */
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions", d);
        return -1;
    }
    int32_t range = ndim;
    if (d < -range || d >= range) {
        PyErr_Format(PyExc_IndexError, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                     -range, range - 1, d);
        return -1;
    }
    *dim = (int32_t)(d < 0 ? d + range : d);
    return 0;
}

static PyObject *meth_size(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    tc_tensor *t = tp_unwrap(self);
    int32_t dim;
    int given;
    if (optional_dim(args, nargs, kwnames, "size", t->ndim, &dim, &given)) return NULL;
    if (!given) return tp_size_new(t->ndim, t->sizes);
    return PyLong_FromLongLong(t->sizes[dim]);
}

static PyObject *meth_stride(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    tc_tensor *t = tp_unwrap(self);
    int32_t dim;
    int given;
    if (optional_dim(args, nargs, kwnames, "stride", t->ndim, &dim, &given)) return NULL;
    if (given) return PyLong_FromLongLong(t->strides[dim]);
    PyObject *r = PyTuple_New(t->ndim);
    for (int32_t i = 0; r && i < t->ndim; i++) {
        PyObject *v = PyLong_FromLongLong(t->strides[i]);
        if (!v) {
            Py_CLEAR(r);
            break;
        }
        PyTuple_SET_ITEM(r, i, v);
    }
    return r;
}

static PyObject *meth_dim(PyObject *self, PyObject *unused) { return PyLong_FromLong(tp_unwrap(self)->ndim); }

static PyObject *meth_numel(PyObject *self, PyObject *unused) {
    return PyLong_FromLongLong(tc_tensor_numel(tp_unwrap(self)));
}

static PyObject *meth_is_contiguous(PyObject *self, PyObject *unused) {
    return PyBool_FromLong(tc_tensor_is_contiguous(tp_unwrap(self)));
}

static PyObject *meth_data_ptr(PyObject *self, PyObject *unused) {
    tc_tensor *t = tp_unwrap(self);
    return PyLong_FromVoidPtr(tc_tensor_data(t));
}

static PyObject *meth_element_size(PyObject *self, PyObject *unused) {
    return PyLong_FromSize_t(tc_dtype_size(tp_unwrap(self)->dtype));
}

static PyObject *meth_storage_offset(PyObject *self, PyObject *unused) {
    return PyLong_FromLongLong(tp_unwrap(self)->offset);
}

/* (data pointer, shape, strides in bytes, typestr) for __array_interface__ on the Python side. */
static PyObject *meth_array_parts(PyObject *self, PyObject *unused) {
    static const char *typestr[TC_NUM_DTYPES] = {"|b1", "|u1", "|i1", "<i2", "<i4", "<i8", "<f2", NULL, "<f4", "<f8",
                                                 [TC_COMPLEX64] = "<c8", [TC_COMPLEX128] = "<c16"};
    tc_tensor *t = tp_unwrap(self);
    if (t->device.type != TC_DEVICE_CPU)
        return PyErr_Format(PyExc_TypeError, "can't convert %s device type tensor to numpy. Use Tensor.cpu() to "
                                             "copy the tensor to host memory first.", tc_device_type_name(t->device.type));
    if (!typestr[t->dtype])
        return PyErr_Format(PyExc_TypeError, "Got unsupported ScalarType %s", tc_dtype_scalar_name(t->dtype));
    if (tc_requires_grad(t))
        return PyErr_Format(PyExc_RuntimeError, "Can't call numpy() on Tensor that requires grad. Use "
                                                "tensor.detach().numpy() instead.");
    if (t->flags & TC_TENSOR_CONJ)
        return PyErr_Format(PyExc_RuntimeError, "Can't call numpy() on Tensor that has conjugate bit set. Use "
                                                "tensor.resolve_conj().numpy() instead.");
    if (t->flags & TC_TENSOR_NEG)
        return PyErr_Format(PyExc_RuntimeError, "Can't call numpy() on Tensor that has negative bit set. Use "
                                                "tensor.resolve_neg().numpy() instead.");
    PyObject *shape = tp_size_new(t->ndim, t->sizes);
    PyObject *strides = PyTuple_New(t->ndim);
    for (int32_t i = 0; strides && i < t->ndim; i++)
        PyTuple_SET_ITEM(strides, i, PyLong_FromLongLong(t->strides[i] * (int64_t)tc_dtype_size(t->dtype)));
    if (!shape || !strides) {
        Py_XDECREF(shape);
        Py_XDECREF(strides);
        return NULL;
    }
    return Py_BuildValue("(NNNs)", PyLong_FromVoidPtr(tc_tensor_data(t)), shape, strides, typestr[t->dtype]);
}

static PyMethodDef tensor_methods[] = {
    {"size", (PyCFunction)(void (*)(void))meth_size, METH_FASTCALL | METH_KEYWORDS, NULL},
    {"stride", (PyCFunction)(void (*)(void))meth_stride, METH_FASTCALL | METH_KEYWORDS, NULL},
    {"dim", meth_dim, METH_NOARGS, NULL},
    {"ndimension", meth_dim, METH_NOARGS, NULL},
    {"numel", meth_numel, METH_NOARGS, NULL},
    {"nelement", meth_numel, METH_NOARGS, NULL},
    {"is_contiguous", meth_is_contiguous, METH_NOARGS, NULL},
    {"data_ptr", meth_data_ptr, METH_NOARGS, NULL},
    {"element_size", meth_element_size, METH_NOARGS, NULL},
    {"storage_offset", meth_storage_offset, METH_NOARGS, NULL},
    {"item", tp_item, METH_NOARGS, NULL},
    {"tolist", tp_tolist, METH_NOARGS, NULL},
    {"_array_parts", meth_array_parts, METH_NOARGS, NULL},
    {"requires_grad_", (PyCFunction)(void (*)(void))tp_tensor_requires_grad_, METH_VARARGS | METH_KEYWORDS, NULL},
    {"retain_grad", tp_tensor_retain_grad, METH_NOARGS, NULL},
    {"detach_", tp_tensor_detach_, METH_NOARGS, NULL},
    {"is_inference", tp_tensor_is_inference, METH_NOARGS, NULL},
    {"_is_view", tp_tensor_get_is_view, METH_NOARGS, NULL},
    {"_register_hook", tp_tensor_register_hook, METH_O, NULL},
    {"_remove_hook", tp_tensor_remove_hook, METH_O, NULL},
    {"_make_subclass", (PyCFunction)(void (*)(void))tp_make_subclass, METH_VARARGS | METH_KEYWORDS | METH_STATIC, NULL},
    TP_GENERATED_METHODS
    {NULL, NULL, 0, NULL},
};

static PyObject *tensor_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    /* torch.Tensor(2, 3): an uninitialised tensor of the default dtype. Data arguments are handled
     * by torch.Tensor.__new__ in Python, which calls torch.tensor. */
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    int64_t sizes[TC_MAX_DIMS];
    if (n > TC_MAX_DIMS)
        return PyErr_Format(PyExc_RuntimeError, "tensors may have at most %d dimensions, got %zd", TC_MAX_DIMS, n);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyTuple_GET_ITEM(args, i);
        if (!PyLong_Check(a)) return PyErr_Format(PyExc_TypeError, "new(): argument 'size' must be tuple of ints");
        sizes[i] = PyLong_AsLongLong(a);
        if (sizes[i] == -1 && PyErr_Occurred()) return NULL;
    }
    int64_t zero = 0;
    tc_tensor *t = tc_empty_memory_format(n ? (tc_int_list){sizes, n} : (tc_int_list){&zero, 1}, tc_default_dtype(),
                                          -1, NULL, NULL, -1);
    if (!t) return tp_raise_core_error();
    return tp_wrap_as(type, t);
}

PyTypeObject TPTensorBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "torch._C._TensorBase",
    .tp_basicsize = sizeof(TPTensor),
    .tp_dealloc = tensor_dealloc,
    .tp_as_number = &tp_tensor_as_number,
    .tp_as_sequence = &tensor_as_sequence,
    .tp_as_mapping = &tensor_as_mapping,
    .tp_hash = tensor_hash,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_richcompare = tp_richcompare,
    .tp_methods = tensor_methods,
    .tp_getset = tensor_getset,
    .tp_new = tensor_new,
};

static PyMethodDef generated_functions[] = {
    TP_GENERATED_FUNCTIONS
    {NULL, NULL, 0, NULL},
};

/* torch._C._linalg: the ops of the table's module=linalg, under their torch.linalg names */
static PyMethodDef generated_linalg_functions[] = {
    TP_GENERATED_LINALG_FUNCTIONS
    {NULL, NULL, 0, NULL},
};
static struct PyModuleDef linalg_module_def = {PyModuleDef_HEAD_INIT, "torch._C._linalg", NULL, -1,
                                               generated_linalg_functions};

/* torch._C._fft: the ops of the table's module=fft, under their torch.fft names */
static PyMethodDef generated_fft_functions[] = {
    TP_GENERATED_FFT_FUNCTIONS
    {NULL, NULL, 0, NULL},
};
static struct PyModuleDef fft_module_def = {PyModuleDef_HEAD_INIT, "torch._C._fft", NULL, -1, generated_fft_functions};

static PyMethodDef generated_nn_functions[] = {
    TP_GENERATED_NN_FUNCTIONS
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef nn_module_def = {PyModuleDef_HEAD_INIT, "torch._C._nn", NULL, -1, generated_nn_functions};

/* torch._C._nn: the ops PyTorch keeps out of torch.* (its python_module: nn), which
 * torch.nn.functional calls. */
static int nn_module_init(PyObject *module) {
    PyObject *nn = PyModule_Create(&nn_module_def);
    if (!nn) return -1;
    int rc = PyModule_AddObjectRef(module, "_nn", nn);
    Py_DECREF(nn);
    return rc;
}

int tp_tensor_type_init(PyObject *module) {
    if (PyType_Ready(&TPTensorBase_Type) < 0) return -1;
    if (PyModule_AddObjectRef(module, "_TensorBase", (PyObject *)&TPTensorBase_Type) < 0) return -1;
    PyObject *linalg = PyModule_Create(&linalg_module_def);
    if (!linalg || PyModule_AddObject(module, "_linalg", linalg) < 0) {
        Py_XDECREF(linalg);
        return -1;
    }
    PyObject *fft = PyModule_Create(&fft_module_def);
    if (!fft || PyModule_AddObject(module, "_fft", fft) < 0) {
        Py_XDECREF(fft);
        return -1;
    }
    if (nn_module_init(module) < 0) return -1;
    return PyModule_AddFunctions(module, generated_functions);
}
