/*
 * The kernel registry: for each kernel name (ops.table's kernel= names, and runtime ops' names) a
 * row of per-backend dtype slots, so a lookup at run time is three array indexes. Rows and
 * per-backend slot arrays are allocated on first registration and never move or shrink, so readers
 * need no lock; a slot, once set by a committed plugin, only changes when that plugin's commit is
 * undone. Slot TC_NUM_DTYPES holds the any-dtype kernel; kernel row -1 is each backend's fallback.
 */
#include "core_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 256 /* kernel names per chunk of the name table */
#define MAX_CHUNKS 256

typedef struct kernel_row {
    _Atomic(tc_kernel_slot *) backends[TC_MAX_BACKENDS]; /* each TC_NUM_DTYPES + 1 slots */
} kernel_row;

typedef struct kernel_entry {
    const char *name;
    kernel_row row;
} kernel_entry;

static _Atomic(kernel_entry *) chunks[MAX_CHUNKS];
static atomic_int n_kernels;
static kernel_row fallbacks;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void ensure_builtin_names(void);

static kernel_entry *entry_at(int32_t k) {
    if (k < 0) return NULL;
    if (k >= atomic_load(&n_kernels)) {
        ensure_builtin_names(); /* the first lookup may come before any registration */
        if (k >= atomic_load(&n_kernels)) return NULL;
    }
    return &atomic_load(&chunks[k / CHUNK])[k % CHUNK];
}

/* Appends a name; called with the lock held. */
static int32_t append_name(const char *name) {
    int32_t k = atomic_load(&n_kernels);
    if (k == CHUNK * MAX_CHUNKS) return tc_set_error(TC_ERR_RUNTIME, "too many kernel names");
    if (!chunks[k / CHUNK]) {
        kernel_entry *c = calloc(CHUNK, sizeof(kernel_entry));
        if (!c) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        atomic_store(&chunks[k / CHUNK], c);
    }
    atomic_load(&chunks[k / CHUNK])[k % CHUNK].name = name;
    atomic_store(&n_kernels, k + 1);
    return k;
}

static void add_builtin_names(void) {
    pthread_mutex_lock(&lock);
    for (int32_t i = 0; i < TC_NUM_BUILTIN_KERNELS; i++) append_name(tc_builtin_kernel_names[i]);
    pthread_mutex_unlock(&lock);
}

/* Built-in kernel ids are the generated TC_KERNEL_* values: the names go in first, once. */
static void ensure_builtin_names(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, add_builtin_names);
}

int32_t tc_kernel_id(const char *name) {
    if (!name) return -1;
    ensure_builtin_names();
    int32_t n = atomic_load(&n_kernels);
    for (int32_t k = 0; k < n; k++)
        if (strcmp(entry_at(k)->name, name) == 0) return k;
    return -1;
}

int32_t tc_kernel_add_name(const char *name) {
    ensure_builtin_names();
    pthread_mutex_lock(&lock);
    int32_t k = -1;
    int32_t n = atomic_load(&n_kernels);
    for (int32_t i = 0; i < n && k < 0; i++)
        if (strcmp(entry_at(i)->name, name) == 0) k = i;
    char *copy = k < 0 ? strdup(name) : NULL;
    if (k < 0) k = copy ? append_name(copy) : tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    pthread_mutex_unlock(&lock);
    return k;
}

const char *tc_kernel_name(int32_t kernel) {
    kernel_entry *e = entry_at(kernel);
    return e ? e->name : kernel == -1 ? "(fallback)" : "(unknown kernel)";
}

static kernel_row *row_of(int32_t kernel) {
    if (kernel == -1) return &fallbacks;
    kernel_entry *e = entry_at(kernel);
    return e ? &e->row : NULL;
}

int32_t tc_kernel_check(const char *kernel, int32_t device_type, int32_t layout, int32_t dtype, tc_kernel_fn fn) {
    int32_t k = tc_kernel_id(kernel);
    if (k < 0)
        return tc_set_error(TC_ERR_VALUE, "register_kernel: the core has no op '%s'", kernel ? kernel : "(null)");
    if (device_type < 0 || device_type >= TC_MAX_DEVICE_TYPES || layout < 0 || layout >= TC_MAX_LAYOUTS)
        return tc_set_error(TC_ERR_VALUE, "register_kernel(%s): bad device type %d or layout %d", kernel,
                            device_type, layout);
    if (dtype != TC_ANY_DTYPE && (dtype < 0 || dtype >= TC_NUM_DTYPES))
        return tc_set_error(TC_ERR_VALUE, "register_kernel(%s): bad dtype %d", kernel, dtype);
    if (!fn) return tc_set_error(TC_ERR_VALUE, "register_kernel(%s): NULL kernel", kernel);
    return k;
}

static tc_kernel_slot *slot_of(int32_t kernel, int32_t backend, int32_t dtype, bool create) {
    kernel_row *row = row_of(kernel);
    if (!row || backend < 0 || backend >= TC_MAX_BACKENDS) return NULL;
    tc_kernel_slot *slots = atomic_load(&row->backends[backend]);
    if (!slots && create) {
        slots = calloc(TC_NUM_DTYPES + 1, sizeof(tc_kernel_slot));
        if (!slots) return NULL;
        atomic_store(&row->backends[backend], slots);
    }
    if (!slots) return NULL;
    return &slots[dtype == TC_ANY_DTYPE ? TC_NUM_DTYPES : dtype];
}

static void slot_describe(int32_t kernel, int32_t backend, int32_t dtype, char *buf, size_t len) {
    char where[64];
    tc_backend_format(backend, where, sizeof where);
    snprintf(buf, len, "kernel '%s' for %s/%s", tc_kernel_name(kernel), where,
             dtype == TC_ANY_DTYPE ? "any dtype" : tc_dtype_name(dtype));
}

int tc_kernel_slot_free(int32_t kernel, int32_t backend, int32_t dtype, const char *owner) {
    pthread_mutex_lock(&lock);
    tc_kernel_slot *s = slot_of(kernel, backend, dtype, false);
    char holder[64] = "";
    if (s && s->fn) snprintf(holder, sizeof holder, "%s", s->owner);
    pthread_mutex_unlock(&lock);
    if (!holder[0]) return TC_OK;
    char what[160];
    slot_describe(kernel, backend, dtype, what, sizeof what);
    return tc_set_error(TC_ERR_RUNTIME, "%s is already registered by plugin '%s'; plugin '%s' cannot register it "
                                        "again", what, holder, owner);
}

int tc_kernel_set(int32_t kernel, int32_t backend, int32_t dtype, tc_kernel_fn fn, int32_t abi_minor,
                  uint32_t flags, const char *owner) {
    pthread_mutex_lock(&lock);
    tc_kernel_slot *s = slot_of(kernel, backend, dtype, true);
    int rc = TC_OK;
    if (!s) {
        rc = tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory registering a kernel");
    } else if (s->fn) {
        pthread_mutex_unlock(&lock);
        return tc_kernel_slot_free(kernel, backend, dtype, owner);
    } else {
        snprintf(s->owner, sizeof s->owner, "%s", owner ? owner : "core");
        s->abi_minor = abi_minor;
        s->flags = flags;
        __atomic_store_n(&s->fn, fn, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

void tc_kernel_unset(int32_t kernel, int32_t backend, int32_t dtype) {
    pthread_mutex_lock(&lock);
    tc_kernel_slot *s = slot_of(kernel, backend, dtype, false);
    if (s) memset(s, 0, sizeof *s);
    pthread_mutex_unlock(&lock);
}

static void list_registered(int32_t kernel, char *buf, size_t len) {
    size_t used = 0;
    buf[0] = 0;
    kernel_row *row = row_of(kernel);
    for (int32_t b = 0; row && b < TC_MAX_BACKENDS; b++) {
        tc_kernel_slot *slots = atomic_load(&row->backends[b]);
        for (int d = 0; slots && d <= TC_NUM_DTYPES && used < len; d++) {
            if (!slots[d].fn) continue;
            char where[64];
            tc_backend_format(b, where, sizeof where);
            used += (size_t)snprintf(buf + used, len - used, "%s%s/%s", used ? ", " : "", where,
                                     d == TC_NUM_DTYPES ? "any" : tc_dtype_name(d));
        }
    }
    if (!used) snprintf(buf, len, "nothing (is the device plugin loaded? see torch.backends.plugins())");
}

const tc_kernel_slot *tc_kernel_find(int32_t kernel, int32_t backend, int32_t dtype) {
    kernel_row *row = row_of(kernel);
    tc_kernel_slot *slots = row && backend >= 0 && backend < TC_MAX_BACKENDS ? atomic_load(&row->backends[backend])
                                                                                : NULL;
    if (slots) {
        if (dtype >= 0 && dtype < TC_NUM_DTYPES && __atomic_load_n(&slots[dtype].fn, __ATOMIC_ACQUIRE))
            return &slots[dtype];
        if (__atomic_load_n(&slots[TC_NUM_DTYPES].fn, __ATOMIC_ACQUIRE)) return &slots[TC_NUM_DTYPES];
    }
    tc_kernel_slot *fb = backend >= 0 && backend < TC_MAX_BACKENDS ? atomic_load(&fallbacks.backends[backend]) : NULL;
    if (fb && __atomic_load_n(&fb[TC_NUM_DTYPES].fn, __ATOMIC_ACQUIRE)) return &fb[TC_NUM_DTYPES];
    char registered[1024], where[64];
    list_registered(kernel, registered, sizeof registered);
    tc_backend_format(backend, where, sizeof where);
    const char *reason = tc_device_unavailable_reason(tc_device_type_name(backend / TC_MAX_LAYOUTS));
    /* the backend has the kernel, not for this dtype: PyTorch's dtype dispatch raises RuntimeError */
    tc_set_error(slots ? TC_ERR_RUNTIME : TC_ERR_NOT_IMPLEMENTED,
                 "\"%s\" not implemented for '%s' on %s%s%s%s; registered: %s",
                 tc_kernel_name(kernel), tc_dtype_name(dtype), where, reason ? " (" : "", reason ? reason : "",
                 reason ? ")" : "", registered);
    return NULL;
}

bool tc_kernel_registered(const char *kernel, int32_t device_type, int32_t layout, int32_t dtype) {
    int32_t k = tc_kernel_id(kernel);
    if (k < 0 || device_type < 0 || device_type >= TC_MAX_DEVICE_TYPES || layout < 0 || layout >= TC_MAX_LAYOUTS ||
        (dtype != TC_ANY_DTYPE && (dtype < 0 || dtype >= TC_NUM_DTYPES)))
        return false;
    tc_kernel_slot *s = slot_of(k, tc_backend_of(device_type, layout), dtype, false);
    return s && __atomic_load_n(&s->fn, __ATOMIC_ACQUIRE) != NULL;
}
