/*
 * tp.h - what the files of torch._C share. Prefix tp_ ("torch python"). Every function returning a
 * PyObject* returns a new reference or NULL with a Python exception set.
 */
#ifndef TP_H
#define TP_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "torch_core/tc_ops.h"
#include "torch_core/tc_core.h"

typedef struct {
    PyObject_HEAD
    tc_tensor *t; /* owned reference; never NULL once constructed */
} TPTensor;

typedef struct {
    PyObject_HEAD
    int32_t dtype;
} TPDtype;

extern PyTypeObject TPTensorBase_Type; /* torch._C._TensorBase */
extern PyTypeObject TPDtype_Type;      /* torch.dtype */
extern PyTypeObject TPSize_Type;       /* torch.Size */

/* Python class that tensors are created as (torch.Tensor, set by torch/__init__.py). */
extern PyTypeObject *tp_tensor_class;
extern PyObject *tp_device_class;

static inline int tp_is_tensor(PyObject *o) { return PyObject_TypeCheck(o, &TPTensorBase_Type); }
static inline tc_tensor *tp_unwrap(PyObject *o) { return ((TPTensor *)o)->t; }

/* Wraps a tensor as a torch.Tensor, taking over the caller's reference (released on failure too).
 * NULL input means the core failed: raises the core's error. */
PyObject *tp_wrap(tc_tensor *t);
/* The same as an instance of `type` (a subclass of _TensorBase), for a tensor without a Python object. */
PyObject *tp_wrap_as(PyTypeObject *type, tc_tensor *t);
/* Raises the pending core error as the matching Python exception; returns NULL. */
PyObject *tp_raise_core_error(void);

/* DLPack capsules (dlpack.c): _to_dlpack(tensor), _from_dlpack(capsule). */
PyObject *tp_to_dlpack(PyObject *m, PyObject *tensor);
PyObject *tp_from_dlpack(PyObject *m, PyObject *capsule);

/* The profiler's recording (profiler.c): _profiler_enable(record_shapes), _profiler_disable() -> events,
 * _profiler_range_push(name) -> token, _profiler_range_pop(token). */
PyObject *tp_profiler_enable(PyObject *m, PyObject *record_shapes);
PyObject *tp_profiler_disable(PyObject *m, PyObject *unused);
PyObject *tp_profiler_range_push(PyObject *m, PyObject *name);
PyObject *tp_profiler_range_pop(PyObject *m, PyObject *token);
/* Adds torch._C._LinAlgError to the module. */
int tp_errors_init(PyObject *module);
/* Turns the pending Python exception into a core error (TC_FAIL), keeping the exception to raise
 * again when that error comes back to Python. Call with the GIL held. */
int tp_fail_from_python(void);

/* dtypes */
PyObject *tp_dtype_object(int32_t dtype); /* borrowed */
int tp_dtype_init(PyObject *module);
int tp_size_init(PyObject *module);
PyObject *tp_size_new(int32_t ndim, const int64_t *sizes);

/* devices: None/str/torch.device/int -> tc_device; -1 with an exception on failure. */
int tp_parse_device(PyObject *o, tc_device *out);
PyObject *tp_device_object(tc_device d);

/* Python number (bool/int/float, or a 1-element tensor) -> scalar; -1 with TypeError if not one. */
int tp_parse_scalar(PyObject *o, tc_scalar *out);
int tp_is_numpy_bool(PyObject *o);
/* Python complex numbers and numpy's complex scalars. */
int tp_is_complex_number(PyObject *o);
/* Python number -> a 0-dim CPU tensor marked as a wrapped number (new reference), NULL otherwise
 * (no exception set when o is simply not a number). */
tc_tensor *tp_wrap_number(PyObject *o);
PyObject *tp_scalar_to_python(tc_scalar s, int32_t dtype);

/* The op binding (arg_parser.c): tries ops (a -1-terminated list of op ids, in order) against the
 * Python arguments, as PyTorch's parser tries overloads; `name` is the Python name for messages and
 * `self` the tensor of a method call (NULL for functions). */
PyObject *tp_call_ops(const int32_t *ops, const char *name, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                      PyObject *kwnames);
/* The same for bindings with as_tuple= (True runs tuple_ops instead). Ops marked varargs (PyTorch's
 * `*tensors`: einsum, meshgrid) need no binding of their own: tp_call_ops spreads their Tensor[]
 * argument over the positional tensors from its place on. */
PyObject *tp_call_ops_as_tuple(const int32_t *ops, const int32_t *tuple_ops, const char *name, PyObject *self,
                               PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *tp_set_enum_classes(PyObject *module, PyObject *args);
PyObject *tp_return_type_repr(PyObject *self);
/* Device type id of a name, or -1 with PyTorch's RuntimeError explaining why it cannot be used. */
int tp_device_type(const char *name, int32_t *out);
/* torch.library and torch.ops (library.c). */
extern PyMethodDef tp_library_functions[];
/* What torch.storage needs (storage.c). */
extern PyMethodDef tp_storage_functions[];
/* Python warnings for the core's tc_warn. */
void tp_install_warning_handler(void);
/* Releases the GIL around long kernels (tc_set_long_kernel_hooks). */
void tp_install_gil_hooks(void);

/* Autograd (autograd_module.c, autograd_node.c, tensor_autograd.c). */
typedef struct tc_node tc_node;
int tp_autograd_init(PyObject *module);
int tp_autograd_node_init(PyObject *module);
/* The Python object of a node (takes over the reference; NULL with an exception on failure). */
PyObject *tp_node_wrap(tc_node *n);
PyObject *tp_tensor_get_requires_grad(PyObject *self, void *unused);
int tp_tensor_set_requires_grad(PyObject *self, PyObject *value, void *unused);
PyObject *tp_tensor_requires_grad_(PyObject *self, PyObject *args, PyObject *kw);
PyObject *tp_tensor_get_is_leaf(PyObject *self, void *unused);
PyObject *tp_tensor_get_grad_fn(PyObject *self, void *unused);
PyObject *tp_tensor_get_grad(PyObject *self, void *unused);
int tp_tensor_set_grad(PyObject *self, PyObject *value, void *unused);
PyObject *tp_tensor_get_data(PyObject *self, void *unused);
int tp_tensor_set_data(PyObject *self, PyObject *value, void *unused);
PyObject *tp_tensor_get_base(PyObject *self, void *unused);
PyObject *tp_tensor_get_is_view(PyObject *self, PyObject *unused);
PyObject *tp_tensor_get_retains_grad(PyObject *self, void *unused);
PyObject *tp_tensor_get_output_nr(PyObject *self, void *unused);
PyObject *tp_tensor_retain_grad(PyObject *self, PyObject *unused);
PyObject *tp_tensor_detach_(PyObject *self, PyObject *unused);
PyObject *tp_tensor_is_inference(PyObject *self, PyObject *unused);
PyObject *tp_tensor_register_hook(PyObject *self, PyObject *fn);
PyObject *tp_tensor_remove_hook(PyObject *self, PyObject *id);
/* torch._C.Generator and torch._C.default_generator (generator.c). */
int tp_generator_init(PyObject *module);
/* _C._tensor_from_data(data, dtype or None): torch.tensor's conversion of nested data (tensor_data.c). */
PyObject *tp_tensor_from_data(PyObject *module, PyObject *args);

/* Tensor pieces defined in their own files. */
PyObject *tp_getitem(PyObject *self, PyObject *key);
int tp_setitem(PyObject *self, PyObject *key, PyObject *value);
PyObject *tp_tolist(PyObject *self, PyObject *unused);
PyObject *tp_item(PyObject *self, PyObject *unused);
extern PyNumberMethods tp_tensor_as_number;
PyObject *tp_richcompare(PyObject *a, PyObject *b, int op);
int tp_tensor_type_init(PyObject *module);
/* Tensor._make_subclass (tensor_subclass.c) and the pickled form's bytes (tensor_pickle.c). */
PyObject *tp_make_subclass(PyObject *unused, PyObject *args, PyObject *kw);
extern PyMethodDef tp_pickle_functions[];

#endif
