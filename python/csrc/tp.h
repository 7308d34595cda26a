/*
 * tp.h - what the files of torch._C share. Prefix tp_ ("torch python"). Every function returning a
 * PyObject* returns a new reference or NULL with a Python exception set.
 */
#ifndef TP_H
#define TP_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "tc_ops_gen.h"
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
/* Raises the pending core error as the matching Python exception; returns NULL. */
PyObject *tp_raise_core_error(void);

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
/* Python number -> a 0-dim CPU tensor marked as a wrapped number (new reference), NULL otherwise
 * (no exception set when o is simply not a number). */
tc_tensor *tp_wrap_number(PyObject *o);
PyObject *tp_scalar_to_python(tc_scalar s, int32_t dtype);

/* Generic op binding driven by the generated signatures (arg_parser.c). */
typedef enum { TP_TENSOR, TP_SCALAR, TP_INT, TP_INTLIST, TP_BOOL, TP_DTYPE, TP_FLOAT } tp_arg_kind;
#define TP_OPTIONAL 1
#define TP_KWONLY 2
typedef struct {
    const char *name;
    int kind;
    int flags;
    int has_default;
    const char *default_text;
} tp_arg;
typedef struct {
    int32_t op;
    int n_args;
    const tp_arg *args;
    int n_returns;
    const char *text;
} tp_signature;
PyObject *tp_dispatch(const tp_signature *const *overloads, PyObject *self, PyObject *const *args,
                      Py_ssize_t nargs, PyObject *kwnames, int inplace);

/* Tensor pieces defined in their own files. */
PyObject *tp_getitem(PyObject *self, PyObject *key);
int tp_setitem(PyObject *self, PyObject *key, PyObject *value);
PyObject *tp_tolist(PyObject *self, PyObject *unused);
PyObject *tp_item(PyObject *self, PyObject *unused);
extern PyNumberMethods tp_tensor_as_number;
PyObject *tp_richcompare(PyObject *a, PyObject *b, int op);
int tp_tensor_type_init(PyObject *module);

#endif
