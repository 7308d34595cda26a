/*
 * test_shm.c - shared-memory storages (core/src/shm.c) through the C API.
 *
 * Usage: test_shm <package_dir>   (links libtorch_core; the argument is unused)
 *
 * Checks that tc_storage_share moves a storage's bytes in place (same storage, same bytes, a new
 * address, nothing done a second time); that a forked child writing through the segment is seen by
 * the parent; that mapping a segment this process already holds gives the same storage back; that a
 * named segment's reference count unlinks its name at zero and not before; and that every failure
 * (a segment smaller than claimed, a name that is gone, too many open files, a request larger than
 * memory) is an error naming what went wrong, never a crash.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "torch_core/tc_core.h"

#include "check.h"

static const tc_device cpu = {TC_DEVICE_CPU, 0};

/* A CPU storage of n floats 0, 1, 2, ... made by the CPU allocator (through an empty tensor). */
static tc_storage *floats(int64_t n) {
    tc_tensor *t = tc_empty(1, &n, TC_FLOAT32, cpu);
    if (!t) {
        printf("  tc_empty: %s\n", tc_last_error_message());
        exit(1);
    }
    float *p = tc_tensor_data(t);
    for (int64_t i = 0; i < n; i++) p[i] = (float)i;
    tc_storage *s = t->storage;
    tc_storage_retain(s);
    tc_tensor_release(t);
    return s;
}

static int shm_exists(const char *name) {
    char path[128];
    snprintf(path, sizeof path, "/dev/shm%s", name);
    return access(path, F_OK) == 0;
}

static void test_share_in_place(void) {
    for (int kind = TC_SHM_FD; kind <= TC_SHM_NAMED; kind++) {
        tc_storage *s = floats(1000);
        CHECK(s && tc_storage_shm_kind(s) == -1, "a fresh storage is not shared");
        void *before = tc_storage_data(s);
        CHECK(tc_storage_share(s, kind) == TC_OK, "share: %s", tc_last_error_message());
        float *p = tc_storage_data(s);
        CHECK(p != before && tc_storage_nbytes(s) == 4000, "new address, same size");
        CHECK(((uintptr_t)p & 63) == 0, "64-byte aligned data");
        int same = 1;
        for (int i = 0; i < 1000; i++) same &= p[i] == (float)i;
        CHECK(same, "the bytes moved with the storage");
        CHECK(tc_storage_shm_kind(s) == kind, "kind %d", tc_storage_shm_kind(s));
        CHECK(tc_storage_share(s, kind) == TC_OK && tc_storage_data(s) == p, "sharing again moves nothing");
        CHECK((kind == TC_SHM_FD) == (tc_storage_shm_fd(s) >= 0), "a memfd keeps its fd");
        CHECK((kind == TC_SHM_NAMED) == (tc_storage_shm_name(s) != NULL), "a named segment has a name");
        tc_storage_release(s);
    }
}

static void test_fork_sees_writes(void) {
    tc_storage *s = floats(16);
    CHECK(tc_storage_share(s, TC_SHM_FD) == TC_OK, "share");
    float *p = tc_storage_data(s);
    pid_t pid = fork();
    if (pid == 0) {
        /* the child maps the segment anew from its fd, as a receiving process would */
        tc_storage *mine = tc_storage_from_shm_fd(tc_storage_shm_fd(s), 64);
        if (!mine) _exit(2);
        ((float *)tc_storage_data(mine))[3] = 42.0f;
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    CHECK(p[3] == 42.0f, "the parent sees the child's write (%g)", p[3]);
    tc_storage_release(s);
}

static void test_mapping_again_is_the_same_storage(void) {
    tc_storage *s = floats(8);
    CHECK(tc_storage_share(s, TC_SHM_FD) == TC_OK, "share");
    tc_storage *again = tc_storage_from_shm_fd(tc_storage_shm_fd(s), 32);
    CHECK(again == s, "the process's own segment maps to its storage");
    tc_storage_release(again);
    CHECK(tc_storage_share(s, TC_SHM_NAMED) == TC_OK, "move to a named segment");
    const char *name = tc_storage_shm_name(s);
    tc_storage *by_name = name ? tc_storage_from_shm_name(name, 32) : NULL;
    CHECK(by_name == s, "by name too");
    if (by_name) tc_storage_release(by_name);
    tc_storage_release(s);
}

static void test_named_refcount_unlinks_at_zero(void) {
    tc_storage *s = tc_storage_new_shared(100, TC_SHM_NAMED);
    CHECK(s != NULL, "new shared: %s", tc_last_error_message());
    if (!s) return;
    char name[64];
    snprintf(name, sizeof name, "%s", tc_storage_shm_name(s));
    CHECK(shm_exists(name), "%s exists", name);
    CHECK(tc_storage_shm_ref(s, 1) == TC_OK, "a reference in flight");
    tc_storage_release(s);
    CHECK(shm_exists(name), "the reference in flight keeps the name");
    pid_t pid = fork();
    if (pid == 0) { /* another process maps it, then drops the in-flight reference */
        tc_storage *r = tc_storage_from_shm_name(name, 100);
        if (!r) _exit(2);
        tc_storage_shm_ref(r, -1);
        tc_storage_release(r);
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    CHECK(!shm_exists(name), "the last reference unlinked %s", name);
    CHECK(tc_storage_from_shm_name(name, 100) == NULL && strstr(tc_last_error_message(), "is gone"),
          "a gone segment: %s", tc_last_error_message());
}

static void test_errors(void) {
    tc_storage *s = tc_storage_new_shared(64, TC_SHM_FD);
    CHECK(s != NULL, "new shared");
    CHECK(tc_storage_from_shm_fd(tc_storage_shm_fd(s), 1 << 20) == NULL &&
              strstr(tc_last_error_message(), "expected at least"),
          "a segment smaller than claimed: %s", tc_last_error_message());
    CHECK(tc_storage_from_shm_fd(-1, 8) == NULL, "a bad fd");
    tc_storage_release(s);
    CHECK(tc_storage_new_shared((size_t)1 << 52, TC_SHM_FD) == NULL &&
              strstr(tc_last_error_message(), "set_sharing_strategy('file_system')"),
          "too large: %s", tc_last_error_message());
    CHECK(tc_storage_new_shared((size_t)1 << 52, TC_SHM_NAMED) == NULL &&
              strstr(tc_last_error_message(), "/dev/shm"),
          "too large for /dev/shm: %s", tc_last_error_message());
    CHECK(tc_storage_new_shared(8, 7) == NULL && tc_last_error_kind() == TC_ERR_VALUE, "unknown kind");

    struct rlimit old;
    getrlimit(RLIMIT_NOFILE, &old);
    struct rlimit low = {8, old.rlim_max};
    tc_storage *held[16];
    int n = 0;
    setrlimit(RLIMIT_NOFILE, &low);
    while (n < 16 && (held[n] = tc_storage_new_shared(8, TC_SHM_FD)) != NULL) n++;
    setrlimit(RLIMIT_NOFILE, &old);
    CHECK(n < 16 && strstr(tc_last_error_message(), "RLIMIT_NOFILE"), "out of fds: %s", tc_last_error_message());
    while (n > 0) tc_storage_release(held[--n]);
}

int main(int argc, char **argv) {
    if (tc_plugins_load()) {
        printf("FAIL loading plugins: %s\n", tc_last_error_message());
        return 1;
    }
    run("share_in_place", test_share_in_place);
    run("fork_sees_writes", test_fork_sees_writes);
    run("mapping_again_is_the_same_storage", test_mapping_again_is_the_same_storage);
    run("named_refcount_unlinks_at_zero", test_named_refcount_unlinks_at_zero);
    run("errors", test_errors);
    printf("%d passed, %d failed\n", n_passed, n_failed);
    return n_failed != 0;
}
