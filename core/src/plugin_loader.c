/*
 * Plugin discovery and loading, once per process. Every candidate ends in exactly one state with a
 * reason (loaded / not supported / shadowed / disabled / failed); nothing a plugin does can make
 * loading the core fail.
 *
 * What a plugin hands back is untrusted: its file may be truncated (checked before dlopen, see
 * elf_check.c), its strings may lack a terminating NUL (read within their buffers only), and there may
 * be any number of candidate files (growable arrays, no cap).
 */
#include "core_internal.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REASON_LEN 1024

typedef struct candidate {
    tc_plugin_record record;
    char *path; /* realpath, owned */
    char name[128], kind[32], version[64];
    char reason[REASON_LEN];
    void *handle;
    const tc_plugin_desc *desc;
} candidate;

static candidate *plugins;
static int32_t n_plugins, cap_plugins;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = TC_OK;

static void set_state(candidate *c, int state, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_state(candidate *c, int state, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->reason, sizeof c->reason, fmt, ap);
    va_end(ap);
    c->record.state = state;
    if (state != TC_PLUGIN_LOADED && c->handle) {
        dlclose(c->handle);
        c->handle = NULL;
        c->desc = NULL;
    }
}

/* Copies at most len - 1 bytes of a plugin's string, never reading past them: the plugin may have
 * forgotten the NUL. */
static void copy_str(char *dst, size_t len, const char *src) {
    snprintf(dst, len, "%.*s", (int)(len - 1), src ? src : "");
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with_so(const char *name) {
    size_t n = strlen(name);
    return n > 3 && strcmp(name + n - 3, ".so") == 0;
}

/* Grows *array (of `size`-byte items) to hold at least `need` items; false when out of memory. */
static bool reserve(void **array, int32_t *cap, int32_t need, size_t size) {
    if (need <= *cap) return true;
    int32_t grown = *cap ? *cap : 16;
    while (grown < need) {
        if (grown > INT32_MAX / 2) return false;
        grown *= 2;
    }
    void *p = realloc(*array, (size_t)grown * size);
    if (!p) return false;
    *array = p;
    *cap = grown;
    return true;
}

static void add_candidate(const char *real) {
    for (int32_t j = 0; j < n_plugins; j++)
        if (strcmp(plugins[j].path, real) == 0) return; /* reached twice (symlinks, a folder listed twice) */
    char *path = strdup(real);
    if (!path || !reserve((void **)&plugins, &cap_plugins, n_plugins + 1, sizeof(candidate))) {
        free(path);
        load_status = tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory listing plugins");
        return;
    }
    candidate *c = &plugins[n_plugins++];
    memset(c, 0, sizeof *c);
    c->path = path;
    const char *base = strrchr(real, '/');
    copy_str(c->name, sizeof c->name, base ? base + 1 : real);
    copy_str(c->kind, sizeof c->kind, "unknown");
    c->record.state = TC_PLUGIN_FAILED;
}

/* Adds the .so files of one folder, in name order, so loading is deterministic. */
static void scan_folder(const char *folder) {
    DIR *dir = opendir(folder);
    if (!dir) return;
    char **names = NULL;
    int32_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (!ends_with_so(e->d_name)) continue;
        char *name = strdup(e->d_name);
        if (!name || !reserve((void **)&names, &cap, n + 1, sizeof(char *))) {
            free(name);
            break; /* out of memory: keep what was listed */
        }
        names[n++] = name;
    }
    closedir(dir);
    if (n) qsort(names, (size_t)n, sizeof(char *), compare_names);
    for (int32_t i = 0; i < n; i++) {
        char path[PATH_MAX], real[PATH_MAX];
        int len = snprintf(path, sizeof path, "%s/%s", folder, names[i]);
        if (len >= 0 && (size_t)len < sizeof path && realpath(path, real)) add_candidate(real);
        free(names[i]);
    }
    free(names);
}

static void package_plugin_folder(char *out, size_t len) {
    Dl_info info;
    out[0] = 0;
    if (!dladdr((void *)tc_plugins_load, &info) || !info.dli_fname) return;
    char lib[PATH_MAX];
    if (!realpath(info.dli_fname, lib)) return;
    char *slash = strrchr(lib, '/');
    if (!slash) return;
    *slash = 0; /* .../torch/lib */
    slash = strrchr(lib, '/');
    if (!slash) return;
    *slash = 0; /* .../torch */
    int n = snprintf(out, len, "%s/plugins", lib);
    if (n < 0 || (size_t)n >= len) out[0] = 0;
}

static bool is_disabled(const char *name) {
    const char *list = getenv("TORCH_PLUGINS_DISABLE");
    if (!list) return false;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return true;
        if (!end) break;
        p = end + 1;
    }
    return false;
}

/* Check the file, dlopen, find the entry point, read and check the descriptor, probe. */
static void open_candidate(candidate *c) {
    char why[512];
    if (tc_elf_check(c->path, why, sizeof why) != TC_OK) {
        set_state(c, TC_PLUGIN_FAILED, "truncated or malformed ELF file: %s", why);
        return;
    }
    dlerror();
    c->handle = dlopen(c->path, RTLD_NOW | RTLD_LOCAL);
    if (!c->handle) {
        const char *err = dlerror();
        set_state(c, TC_PLUGIN_FAILED, "dlopen failed: %s", err ? err : "unknown error");
        return;
    }
    tc_plugin_entry_fn entry = (tc_plugin_entry_fn)dlsym(c->handle, TC_PLUGIN_ENTRY_NAME);
    if (!entry) {
        set_state(c, TC_PLUGIN_FAILED, "no entry point '%s' (not a torch plugin?)", TC_PLUGIN_ENTRY_NAME);
        return;
    }
    const tc_plugin_desc *d = entry();
    if (!d || d->struct_size < offsetof(tc_plugin_desc, shutdown)) {
        set_state(c, TC_PLUGIN_FAILED, "'%s' returned %s", TC_PLUGIN_ENTRY_NAME,
                  d ? "a descriptor too small to read" : "no descriptor");
        return;
    }
    copy_str(c->name, sizeof c->name, d->name);
    copy_str(c->kind, sizeof c->kind, d->kind);
    copy_str(c->version, sizeof c->version, d->version);
    if (!d->name || !d->name[0] || !d->init) {
        set_state(c, TC_PLUGIN_FAILED, "descriptor has no name or no init function");
        return;
    }
    if (d->abi_major != TC_ABI_MAJOR || d->abi_minor > TC_ABI_MINOR) {
        set_state(c, TC_PLUGIN_FAILED, "built for plugin ABI %u.%u, but this core provides ABI %d.%d",
                  d->abi_major, d->abi_minor, TC_ABI_MAJOR, TC_ABI_MINOR);
        return;
    }
    c->desc = d;
    if (is_disabled(c->name)) {
        set_state(c, TC_PLUGIN_DISABLED, "disabled by TORCH_PLUGINS_DISABLE");
        return;
    }
    int score = 1;
    if (d->probe) {
        char reason[512] = "";
        tc_error_clear();
        score = d->probe(tc_core_api_table(), reason, sizeof reason);
        reason[sizeof reason - 1] = 0; /* the plugin may have filled the whole buffer */
        if (score <= 0) {
            set_state(c, TC_PLUGIN_NOT_SUPPORTED, "%s", reason[0] ? reason : "the plugin's probe declined this machine");
            return;
        }
    }
    c->record.score = score;
    c->record.state = TC_PLUGIN_LOADED; /* provisional: may still be shadowed or fail init */
}

/* Among supported candidates with one name, the highest score wins; on a tie, the first found. */
static void choose_among_duplicates(void) {
    for (int32_t i = 0; i < n_plugins; i++) {
        candidate *a = &plugins[i];
        if (a->record.state != TC_PLUGIN_LOADED) continue;
        for (int32_t j = i + 1; j < n_plugins; j++) {
            candidate *b = &plugins[j];
            if (b->record.state != TC_PLUGIN_LOADED || strcmp(a->name, b->name) != 0) continue;
            candidate *loser = b->record.score > a->record.score ? a : b;
            candidate *winner = loser == a ? b : a;
            set_state(loser, TC_PLUGIN_SHADOWED, "shadowed by %s (probe score %d over %d)", winner->path,
                      winner->record.score, loser->record.score);
            if (loser == a) break;
        }
    }
}

/* A plugin's registrations take effect only if its init succeeds and all of them can be committed;
 * otherwise none do, and the plugin is unloaded with nothing left pointing into it. */
static void init_candidate(candidate *c) {
    char err[REASON_LEN] = "";
    tc_error_clear();
    tc_api_begin(c->name, c->desc->abi_minor);
    int rc = c->desc->init(tc_core_api_table(), err, sizeof err);
    err[sizeof err - 1] = 0; /* the plugin may have filled the whole buffer */
    if (rc != TC_OK) {
        tc_api_abort();
        if (!err[0] && tc_last_error_kind()) copy_str(err, sizeof err, tc_last_error_message());
        set_state(c, TC_PLUGIN_FAILED, "init failed: %s", err[0] ? err : "(no message)");
        return;
    }
    if (tc_api_commit() != TC_OK) {
        set_state(c, TC_PLUGIN_FAILED, "registration failed: %s", tc_last_error_message());
        return;
    }
    c->reason[0] = 0;
}

static int kind_rank(const char *kind) {
    static const char *order[] = {TC_PLUGIN_KIND_DEVICE, TC_PLUGIN_KIND_LAYOUT, TC_PLUGIN_KIND_BLAS,
                                  TC_PLUGIN_KIND_FFT, TC_PLUGIN_KIND_EXTENSION};
    const int n = (int)(sizeof order / sizeof order[0]);
    for (int i = 0; i < n; i++)
        if (strcmp(kind, order[i]) == 0) return i;
    return n - 1; /* unknown kinds initialise last, with the extensions */
}

/* Points each record at its candidate's strings (again after the array has grown and moved). */
static void link_records(void) {
    for (int32_t i = 0; i < n_plugins; i++) {
        candidate *c = &plugins[i];
        c->record.name = c->name;
        c->record.kind = c->kind;
        c->record.version = c->version;
        c->record.path = c->path;
        c->record.reason = c->reason;
    }
}

static void load_all(void) {
    tc_alloc_cpu_configure();
    tc_thread_pool_configure();
    const char *env = getenv("TORCH_PLUGIN_PATH");
    if (env) {
        char *copy = strdup(env);
        for (char *save = NULL, *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir; dir = strtok_r(NULL, ":", &save))
            scan_folder(dir);
        free(copy);
    }
    char folder[PATH_MAX];
    package_plugin_folder(folder, sizeof folder);
    if (folder[0]) scan_folder(folder);

    for (int32_t i = 0; i < n_plugins; i++) open_candidate(&plugins[i]);
    choose_among_duplicates();
    for (int rank = 0; rank <= 4; rank++) /* the ranks kind_rank gives */
        for (int32_t i = 0; i < n_plugins; i++)
            if (plugins[i].record.state == TC_PLUGIN_LOADED && kind_rank(plugins[i].kind) == rank)
                init_candidate(&plugins[i]);
    link_records();
    tc_blas_select_default();
    tc_fft_select_default();
    tc_error_clear();
}

int tc_plugins_load(void) {
    if (tc_op_registry_init()) return TC_FAIL;
    pthread_once(&load_once, load_all);
    return load_status;
}

/* One more plugin after start-up: the same steps as at import, for one file, under a lock so two
 * threads loading libraries do not interleave their staging. Callers hold no record across it: the
 * list may move (torch._C holds the GIL throughout, so no Python thread reads it meanwhile). */
int tc_plugin_load_path(const char *path) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    if (tc_plugins_load()) return TC_FAIL;
    char real[PATH_MAX];
    if (!path || !realpath(path, real))
        return tc_set_error(TC_ERR_RUNTIME, "could not load library %s: no such file", path ? path : "(null)");
    pthread_mutex_lock(&lock);
    int32_t found = -1;
    for (int32_t i = 0; i < n_plugins && found < 0; i++)
        if (strcmp(plugins[i].path, real) == 0) found = i;
    int rc = TC_OK;
    if (found < 0) {
        add_candidate(real);
        if (n_plugins == 0 || strcmp(plugins[n_plugins - 1].path, real) != 0) {
            pthread_mutex_unlock(&lock);
            return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory loading %s", real);
        }
        candidate *c = &plugins[n_plugins - 1];
        open_candidate(c);
        for (int32_t i = 0; i < n_plugins - 1 && c->record.state == TC_PLUGIN_LOADED; i++)
            if (plugins[i].record.state == TC_PLUGIN_LOADED && strcmp(plugins[i].name, c->name) == 0)
                set_state(c, TC_PLUGIN_FAILED, "a plugin named '%s' is already loaded from %s", c->name,
                          plugins[i].path);
        if (c->record.state == TC_PLUGIN_LOADED) init_candidate(c);
        link_records();
        found = n_plugins - 1;
    }
    candidate *c = &plugins[found];
    if (c->record.state != TC_PLUGIN_LOADED)
        rc = tc_set_error(TC_ERR_RUNTIME, "could not load library %s: %s", real, c->reason);
    pthread_mutex_unlock(&lock);
    return rc;
}

int32_t tc_plugin_count(void) {
    tc_plugins_load();
    return n_plugins;
}

const tc_plugin_record *tc_plugin_get(int32_t i) {
    tc_plugins_load();
    return i >= 0 && i < n_plugins ? &plugins[i].record : NULL;
}

const char *tc_device_unavailable_reason(const char *device_name) {
    if (!plugins) return NULL;
    const char *reason = NULL;
    for (int32_t i = 0; i < n_plugins; i++) {
        candidate *c = &plugins[i];
        if (strcmp(c->name, device_name) != 0) continue;
        if (c->record.state == TC_PLUGIN_LOADED) return NULL;
        if (c->record.state != TC_PLUGIN_SHADOWED) reason = c->reason;
    }
    return reason;
}
