/*
 * profiler.c - the recording side of torch.autograd.profiler and torch.profiler: an op observer
 * (tc_op_observer, core/src/dispatch.c) that appends an event per op call to one buffer, and the
 * user ranges of record_function in the same buffer. An event is the op's name, its thread, its start
 * and end on CLOCK_MONOTONIC in nanoseconds, its nesting depth on its thread, and with record_shapes
 * the sizes of its tensor arguments (as JSON). Events refer to each other by index, never by address,
 * so the buffer may grow while ops on other threads are still running.
 */
#include "tp.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef struct prof_event {
    char *name; /* owned */
    int64_t start_ns, end_ns;
    long thread;
    int32_t depth;
    char *shapes; /* owned, NULL without record_shapes */
} prof_event;

static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;
static prof_event *prof_events;
static size_t prof_count, prof_capacity;
static bool prof_shapes;
static atomic_bool prof_on;
static _Thread_local int32_t prof_depth;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The sizes of the tensor arguments as JSON: [[2, 3], [], [3]] (a non-tensor argument: []). */
static char *shapes_json(const tc_value *args, int32_t n) {
    size_t cap = 64, len = 0;
    char *s = malloc(cap);
    if (!s) return NULL;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        int k = snprintf(s + len, cap - len, __VA_ARGS__);                                         \
        while (k >= 0 && (size_t)k >= cap - len) {                                                 \
            char *grown = realloc(s, cap * 2);                                                     \
            if (!grown) {                                                                          \
                free(s);                                                                           \
                return NULL;                                                                       \
            }                                                                                      \
            s = grown;                                                                             \
            cap *= 2;                                                                              \
            k = snprintf(s + len, cap - len, __VA_ARGS__);                                         \
        }                                                                                          \
        len += (size_t)k;                                                                          \
    } while (0)
    PUT("[");
    for (int32_t i = 0; i < n; i++) {
        PUT("%s[", i ? ", " : "");
        if (args[i].tag == TC_VALUE_TENSOR && args[i].v.tensor) {
            const tc_tensor *t = args[i].v.tensor;
            for (int32_t d = 0; d < t->ndim; d++) PUT("%s%lld", d ? ", " : "", (long long)t->sizes[d]);
        }
        PUT("]");
    }
    PUT("]");
#undef PUT
    return s;
}

/* Appends an event (its end still open) and returns its index + 1, or 0 when out of memory. */
static size_t push_event(const char *name, char *shapes) {
    char *copy = strdup(name);
    if (!copy) {
        free(shapes);
        return 0;
    }
    const int64_t start = now_ns();
    pthread_mutex_lock(&prof_lock);
    if (prof_count == prof_capacity) {
        size_t cap = prof_capacity ? prof_capacity * 2 : 4096;
        prof_event *grown = realloc(prof_events, cap * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&prof_lock);
            free(copy);
            free(shapes);
            return 0;
        }
        prof_events = grown;
        prof_capacity = cap;
    }
    prof_events[prof_count] = (prof_event){copy, start, -1, syscall(SYS_gettid), prof_depth, shapes};
    size_t token = ++prof_count;
    pthread_mutex_unlock(&prof_lock);
    prof_depth++;
    return token;
}

static void close_event(size_t token) {
    const int64_t end = now_ns();
    if (!token) return;
    prof_depth--;
    pthread_mutex_lock(&prof_lock);
    if (token <= prof_count) prof_events[token - 1].end_ns = end;
    pthread_mutex_unlock(&prof_lock);
}

static void *observe_begin(void *ctx, const char *name, const struct tc_value *args, int32_t n_args) {
    char full[256];
    snprintf(full, sizeof full, "aten::%s", name);
    return (void *)(uintptr_t)push_event(full, prof_shapes ? shapes_json(args, n_args) : NULL);
}

static void observe_end(void *ctx, void *token) { close_event((size_t)(uintptr_t)token); }

static const tc_op_observer observer = {NULL, observe_begin, observe_end};

static void clear_events(void) {
    for (size_t i = 0; i < prof_count; i++) {
        free(prof_events[i].name);
        free(prof_events[i].shapes);
    }
    free(prof_events);
    prof_events = NULL;
    prof_count = prof_capacity = 0;
}

/* _profiler_enable(record_shapes) */
PyObject *tp_profiler_enable(PyObject *m, PyObject *arg) {
    int shapes = PyObject_IsTrue(arg);
    if (shapes < 0) return NULL;
    if (atomic_exchange(&prof_on, true)) return PyErr_Format(PyExc_RuntimeError, "Profiler is already enabled");
    pthread_mutex_lock(&prof_lock);
    clear_events();
    prof_shapes = shapes;
    pthread_mutex_unlock(&prof_lock);
    tc_set_op_observer(&observer);
    Py_RETURN_NONE;
}

/* _profiler_disable() -> [(name, start_ns, end_ns, thread, depth, shapes_json or None), ...] */
PyObject *tp_profiler_disable(PyObject *m, PyObject *unused) {
    if (!atomic_exchange(&prof_on, false)) return PyErr_Format(PyExc_RuntimeError, "Profiler is not enabled");
    tc_set_op_observer(NULL);
    /* an op running on another thread when the observer went may still close its event: take the
     * events under the lock, and leave the buffer empty for the next session */
    pthread_mutex_lock(&prof_lock);
    prof_event *events = prof_events;
    size_t count = prof_count;
    prof_events = NULL;
    prof_count = prof_capacity = 0;
    pthread_mutex_unlock(&prof_lock);
    PyObject *list = PyList_New((Py_ssize_t)count);
    for (size_t i = 0; list && i < count; i++) {
        const prof_event *e = &events[i];
        PyObject *item = Py_BuildValue("(sLLliz)", e->name, (long long)e->start_ns,
                                       (long long)(e->end_ns < 0 ? e->start_ns : e->end_ns), e->thread, e->depth,
                                       e->shapes);
        if (!item) Py_CLEAR(list);
        else PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    for (size_t i = 0; i < count; i++) {
        free(events[i].name);
        free(events[i].shapes);
    }
    free(events);
    return list;
}

/* _profiler_range_push(name) -> token (0 when not profiling) */
PyObject *tp_profiler_range_push(PyObject *m, PyObject *arg) {
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    return PyLong_FromSize_t(atomic_load(&prof_on) ? push_event(name, NULL) : 0);
}

/* _profiler_range_pop(token) */
PyObject *tp_profiler_range_pop(PyObject *m, PyObject *arg) {
    size_t token = PyLong_AsSize_t(arg);
    if (token == (size_t)-1 && PyErr_Occurred()) return NULL;
    if (atomic_load(&prof_on)) close_event(token);
    Py_RETURN_NONE;
}
