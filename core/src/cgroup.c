/*
 * The memory limit of the process's control group, which a container sets and which the CPU block
 * cache's default bound follows (cpu_allocator.c). cgroup v2: `memory.max` ("max" or bytes); v1: the
 * memory controller's `memory.limit_in_bytes`. The process's cgroup comes from /proc/self/cgroup, the
 * folder where its hierarchy is mounted from /proc/self/mountinfo (with the mount's own root, which a
 * container's mount namespace may set below the hierarchy's top), and every ancestor up to the mount
 * point is read too, since a parent's limit binds its children. Everything is read under a root
 * folder ("" for the system) so that tests can hand it a fake tree.
 */
#include "core_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATH_LEN 4096

/* At or above this a limit means "none": v1 reports no limit as PAGE_COUNTER_MAX pages, ~2^63 bytes. */
#define UNLIMITED ((uint64_t)1 << 62)

typedef struct hierarchy {
    char cgroup[PATH_LEN];     /* the process's cgroup in it, as /proc/self/cgroup says */
    char mount_root[PATH_LEN]; /* the cgroup the mount shows at its mount point */
    char mount_point[PATH_LEN];
    bool in_use, mounted;
} hierarchy;

/* A decimal byte count, optionally followed by a newline; false for anything else. */
static bool parse_bytes(const char *s, uint64_t *out) {
    uint64_t v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++)
        if (__builtin_mul_overflow(v, (uint64_t)10, &v) || __builtin_add_overflow(v, (uint64_t)(*p - '0'), &v))
            return false;
    if (p == s || (*p && strcmp(p, "\n") != 0)) return false;
    *out = v;
    return true;
}

/* Copies a mountinfo field, decoding the kernel's octal escapes (\040 for a space); false when it
 * does not fit. */
static bool unescape(const char *s, size_t n, char *out, size_t cap) {
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\\' && n - i > 3 && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' && s[i + 2] <= '7' &&
            s[i + 3] >= '0' && s[i + 3] <= '7') {
            c = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
            i += 3;
        }
        if (o + 1 >= cap) return false;
        out[o++] = c;
    }
    out[o] = 0;
    return true;
}

static bool copy_str(char *dst, size_t cap, const char *src, size_t n) {
    if (n >= cap) return false;
    memcpy(dst, src, n);
    dst[n] = 0;
    return true;
}

/* Whether a comma-separated list holds `item`. */
static bool list_has(const char *list, size_t n, const char *item) {
    size_t len = strlen(item);
    for (size_t i = 0; i <= n;) {
        size_t j = i;
        while (j < n && list[j] != ',') j++;
        if (j - i == len && memcmp(list + i, item, len) == 0) return true;
        i = j + 1;
    }
    return false;
}

static FILE *open_under(const char *root, const char *path) {
    char full[PATH_LEN];
    int n = snprintf(full, sizeof full, "%s%s", root, path);
    return n > 0 && (size_t)n < sizeof full ? fopen(full, "re") : NULL;
}

/* /proc/self/cgroup: "0::/path" for v2, "N:controller,...:/path" for v1. */
static void read_cgroups(const char *root, hierarchy *v2, hierarchy *v1) {
    FILE *f = open_under(root, "/proc/self/cgroup");
    if (!f) return;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] == '\n') line[--len] = 0;
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2) continue;
        const char *path = c2 + 1;
        size_t controllers = (size_t)(c2 - c1 - 1);
        if (c1 - line == 1 && line[0] == '0' && controllers == 0)
            v2->in_use = copy_str(v2->cgroup, sizeof v2->cgroup, path, strlen(path));
        else if (list_has(c1 + 1, controllers, "memory"))
            v1->in_use = copy_str(v1->cgroup, sizeof v1->cgroup, path, strlen(path));
    }
    free(line);
    fclose(f);
}

/* /proc/self/mountinfo: "id parent major:minor root mount-point options [optional...] - type source
 * super-options". The first cgroup2 mount, and the first cgroup (v1) mount with the memory
 * controller. */
static void read_mounts(const char *root, hierarchy *v2, hierarchy *v1) {
    FILE *f = open_under(root, "/proc/self/mountinfo");
    if (!f) return;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] == '\n') line[--len] = 0;
        const char *field[6] = {0};
        size_t flen[6] = {0};
        const char *p = line;
        int n = 0;
        for (; n < 6 && *p; n++) { /* id, parent, dev, root, mount point, options */
            while (*p == ' ') p++;
            field[n] = p;
            while (*p && *p != ' ') p++;
            flen[n] = (size_t)(p - field[n]);
        }
        const char *dash = strstr(p, " - ");
        if (n < 6 || !dash) continue;
        const char *type = dash + 3, *type_end = strchr(type, ' ');
        const char *source = type_end ? type_end + 1 : NULL, *source_end = source ? strchr(source, ' ') : NULL;
        const char *opts = source_end ? source_end + 1 : "";
        size_t type_len = type_end ? (size_t)(type_end - type) : strlen(type);
        hierarchy *h = NULL;
        if (type_len == 7 && memcmp(type, "cgroup2", 7) == 0) h = v2;
        else if (type_len == 6 && memcmp(type, "cgroup", 6) == 0 && list_has(opts, strlen(opts), "memory")) h = v1;
        if (!h || !h->in_use || h->mounted) continue;
        h->mounted = unescape(field[3], flen[3], h->mount_root, sizeof h->mount_root) &&
                     unescape(field[4], flen[4], h->mount_point, sizeof h->mount_point);
    }
    free(line);
    fclose(f);
}

/* The smallest limit in `file` along the process's cgroup and its ancestors within the mount;
 * UINT64_MAX when none is set ("max") or nothing could be read. */
static uint64_t walk(const char *root, const hierarchy *h, const char *file) {
    if (!h->in_use || !h->mounted) return UINT64_MAX;
    /* the process's cgroup relative to the mount's root; a cgroup outside what the mount shows has
     * no folder here */
    const char *rel = h->cgroup;
    size_t rn = strlen(h->mount_root);
    if (strcmp(h->mount_root, "/") != 0) {
        if (strncmp(h->cgroup, h->mount_root, rn) != 0 || (h->cgroup[rn] != 0 && h->cgroup[rn] != '/'))
            return UINT64_MAX;
        rel = h->cgroup + rn;
    }
    char dir[PATH_LEN];
    int top = snprintf(dir, sizeof dir, "%s%s", root, h->mount_point);
    int n = snprintf(dir, sizeof dir, "%s%s%s", root, h->mount_point, rel);
    if (top <= 0 || n <= 0 || (size_t)n >= sizeof dir || top > n) return UINT64_MAX;
    uint64_t best = UINT64_MAX;
    size_t end = (size_t)n;
    for (;;) {
        while (end > (size_t)top && dir[end - 1] == '/') end--; /* "a/b/", "a//b", the root "/" */
        dir[end] = 0;
        char path[PATH_LEN + 32];
        int m = snprintf(path, sizeof path, "%s/%s", dir, file);
        FILE *f = m > 0 && (size_t)m < sizeof path ? fopen(path, "re") : NULL;
        if (f) {
            char text[64];
            uint64_t v;
            if (fgets(text, sizeof text, f) && parse_bytes(text, &v) && v < best) best = v; /* "max": none */
            fclose(f);
        }
        if (end <= (size_t)top) break;
        while (end > (size_t)top && dir[end - 1] != '/') end--; /* up one level */
    }
    return best;
}

uint64_t tc_cgroup_memory_limit(const char *root) {
    if (!root) root = "";
    hierarchy *h = calloc(2, sizeof(hierarchy));
    if (!h) return 0;
    read_cgroups(root, &h[0], &h[1]);
    if (h[0].in_use || h[1].in_use) read_mounts(root, &h[0], &h[1]);
    uint64_t v2 = walk(root, &h[0], "memory.max"), v1 = walk(root, &h[1], "memory.limit_in_bytes");
    free(h);
    uint64_t limit = v2 < v1 ? v2 : v1;
    return limit >= UNLIMITED ? 0 : limit;
}
