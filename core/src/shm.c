/*
 * Shared-memory storages (torch.multiprocessing): a CPU storage whose bytes live in a shared segment
 * mapped with mmap, released by its own deleter (munmap, close). Two kinds, PyTorch's two sharing
 * strategies on Linux:
 *   - TC_SHM_FD: an anonymous memfd. It has no name; another process gets it by receiving the fd
 *     (SCM_RIGHTS), and the kernel frees it when the last fd and mapping go, however processes end.
 *   - TC_SHM_NAMED: a POSIX shm_open segment, "/torch_<pid>_<n>_<random>" under /dev/shm, reached by
 *     name. Its first 64 bytes hold a reference count (mappings plus references in flight); whoever
 *     drops it to zero unlinks the name.
 * Either way the mapping starts with that 64-byte header, so the data keeps the CPU allocator's
 * 64-byte alignment and an empty storage still maps one page.
 * A process maps a segment once: every segment it holds is listed by its file's identity (device,
 * inode), so a storage sent back, or twice, is the same storage again (PyTorch's shared cache).
 */
#include "core_internal.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#define SHM_HEADER 64

typedef struct shm_segment {
    void *map; /* header, then the storage's bytes */
    size_t map_bytes;
    int kind;     /* TC_SHM_FD or TC_SHM_NAMED */
    int fd;       /* the memfd (kept, to send it again); -1 for a named segment */
    char name[64];
    dev_t dev; /* the file's identity */
    ino_t ino;
    tc_storage *storage;       /* the storage over it (not a reference) */
    struct shm_segment *next;  /* in `segments` */
} shm_segment;

/* The segments this process has mapped, each under one storage. The list holds no references: a
 * storage leaves it in its deleter, under the lock, and a lookup only takes a storage whose count is
 * still above zero. */
static pthread_mutex_t segments_lock = PTHREAD_MUTEX_INITIALIZER;
static shm_segment *segments;

static void segments_add(shm_segment *seg, tc_storage *s) {
    pthread_mutex_lock(&segments_lock);
    seg->storage = s;
    seg->next = segments;
    segments = seg;
    pthread_mutex_unlock(&segments_lock);
}

/* A new reference to the storage this process already has over the file (dev, ino), or NULL. */
static tc_storage *segments_find(dev_t dev, ino_t ino) {
    tc_storage *found = NULL;
    pthread_mutex_lock(&segments_lock);
    for (shm_segment *seg = segments; seg && !found; seg = seg->next) {
        if (seg->dev != dev || seg->ino != ino || !seg->storage) continue;
        atomic_int_fast64_t *rc = &seg->storage->refcount;
        int_fast64_t n = atomic_load(rc);
        while (n > 0 && !atomic_compare_exchange_weak(rc, &n, n + 1)) {
        }
        if (n > 0) found = seg->storage;
    }
    pthread_mutex_unlock(&segments_lock);
    return found;
}

static void segments_remove(shm_segment *seg) {
    pthread_mutex_lock(&segments_lock);
    for (shm_segment **p = &segments; *p; p = &(*p)->next) {
        if (*p == seg) {
            *p = seg->next;
            break;
        }
    }
    pthread_mutex_unlock(&segments_lock);
}

static atomic_int_fast64_t *shm_refcount(shm_segment *seg) { return (atomic_int_fast64_t *)seg->map; }

/* Drops one reference of a named segment; the last one unlinks its name. */
static void shm_unref(shm_segment *seg) {
    if (atomic_fetch_sub_explicit(shm_refcount(seg), 1, memory_order_acq_rel) == 1) shm_unlink(seg->name);
}

static void shm_deleter(void *ctx, void *data, size_t nbytes) {
    shm_segment *seg = ctx;
    segments_remove(seg);
    if (seg->kind == TC_SHM_NAMED) shm_unref(seg);
    munmap(seg->map, seg->map_bytes);
    if (seg->fd >= 0) close(seg->fd);
    free(seg);
}

/* Sets the error for a failed system call, naming the limit it ran into and the other strategy. */
static void shm_error(int err, int kind, const char *what, size_t nbytes) {
    const char *other = kind == TC_SHM_FD ? "file_system" : "file_descriptor";
    if (err == EMFILE || err == ENFILE) {
        struct rlimit rl = {0, 0};
        getrlimit(RLIMIT_NOFILE, &rl);
        tc_set_error(TC_ERR_RUNTIME,
                     "%s: too many open files (%s; RLIMIT_NOFILE is %llu): each tensor shared with the "
                     "'file_descriptor' strategy holds a file descriptor; raise the limit (ulimit -n) or call "
                     "torch.multiprocessing.set_sharing_strategy('%s')",
                     what, strerror(err), (unsigned long long)rl.rlim_cur, other);
    } else if ((err == ENOSPC || err == ENOMEM) && kind == TC_SHM_NAMED) {
        struct statvfs st;
        unsigned long long avail = statvfs("/dev/shm", &st) == 0 ? (unsigned long long)st.f_bavail * st.f_frsize : 0;
        tc_set_error(TC_ERR_RUNTIME,
                     "%s: no space in /dev/shm for a shared-memory segment of %zu bytes (%s; /dev/shm has %llu "
                     "bytes free): free or enlarge /dev/shm, or call "
                     "torch.multiprocessing.set_sharing_strategy('%s')",
                     what, nbytes, strerror(err), avail, other);
    } else if (err == ENOSPC || err == ENOMEM) {
        struct sysinfo si;
        unsigned long long room = sysinfo(&si) == 0 ? ((unsigned long long)si.totalram + si.totalswap) * si.mem_unit : 0;
        tc_set_error(TC_ERR_RUNTIME,
                     "%s: no space for a shared-memory segment of %zu bytes (%s; memory and swap hold %llu bytes): "
                     "free memory, or call torch.multiprocessing.set_sharing_strategy('%s') to use /dev/shm",
                     what, nbytes, strerror(err), room, other);
    } else {
        tc_set_error(TC_ERR_RUNTIME, "%s: %s (shared-memory segment of %zu bytes)", what, strerror(err), nbytes);
    }
}

/* Maps map_bytes of fd and fills a segment record; NULL with the error set. fd is not closed. */
static shm_segment *shm_map(int fd, size_t map_bytes, int kind, const char *name) {
    struct stat st;
    if (fstat(fd, &st)) return shm_error(errno, kind, "fstat", map_bytes), NULL;
    shm_segment *seg = malloc(sizeof *seg);
    if (!seg) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory mapping a shared-memory segment"), NULL;
    seg->dev = st.st_dev;
    seg->ino = st.st_ino;
    seg->storage = NULL;
    seg->next = NULL;
    seg->map = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (seg->map == MAP_FAILED) {
        shm_error(errno, kind, "mmap", map_bytes);
        free(seg);
        return NULL;
    }
    seg->map_bytes = map_bytes;
    seg->kind = kind;
    seg->fd = -1;
    snprintf(seg->name, sizeof seg->name, "%s", name ? name : "");
    return seg;
}

static int shm_total(size_t nbytes, size_t *total) {
    if (nbytes > (size_t)INT64_MAX - SHM_HEADER)
        return tc_set_error(TC_ERR_RUNTIME, "shared-memory segment of %zu bytes is too large", nbytes);
    *total = nbytes + SHM_HEADER;
    return TC_OK;
}

/* ENOSPC when /dev/shm (a named segment) or the machine's memory and swap (a memfd, which has no other
 * bound) cannot hold `total` bytes, so that reserving them fails at once instead of filling memory. */
static int shm_room(size_t total, int kind) {
    if (kind == TC_SHM_NAMED) {
        struct statvfs st;
        if (statvfs("/dev/shm", &st) == 0 && (unsigned long long)st.f_bavail * st.f_frsize < total) return ENOSPC;
        return 0;
    }
    struct sysinfo si;
    if (sysinfo(&si) == 0 && ((unsigned long long)si.totalram + si.totalswap) * si.mem_unit < total) return ENOMEM;
    return 0;
}

/* Creates a new segment of `nbytes` data bytes with every page reserved (so that a full /dev/shm is an
 * error here, not a SIGBUS on first write). */
static shm_segment *shm_create(size_t nbytes, int kind) {
    size_t total = 0;
    if (shm_total(nbytes, &total)) return NULL;
    char name[64] = "";
    int fd;
    if (kind == TC_SHM_FD) {
        fd = memfd_create("torch_shm", MFD_CLOEXEC);
    } else {
        static atomic_uint_fast64_t counter;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        snprintf(name, sizeof name, "/torch_%d_%llu_%lx", (int)getpid(),
                 (unsigned long long)atomic_fetch_add(&counter, 1), (unsigned long)ts.tv_nsec ^ (unsigned long)rand());
        fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    }
    if (fd < 0) return shm_error(errno, kind, kind == TC_SHM_FD ? "memfd_create" : "shm_open", nbytes), NULL;
    int err = shm_room(total, kind);
    if (!err) err = ftruncate(fd, (off_t)total) ? errno : posix_fallocate(fd, 0, (off_t)total);
    shm_segment *seg = NULL;
    if (err) shm_error(err, kind, "reserving shared memory", nbytes);
    else seg = shm_map(fd, total, kind, name);
    if (!seg || kind == TC_SHM_NAMED) close(fd);
    if (!seg) {
        if (kind == TC_SHM_NAMED) shm_unlink(name);
        return NULL;
    }
    if (kind == TC_SHM_FD) seg->fd = fd;
    else atomic_init(shm_refcount(seg), 1);
    return seg;
}

static const shm_segment *shm_of(const tc_storage *s) { return s->deleter == shm_deleter ? s->deleter_ctx : NULL; }

int tc_storage_share(tc_storage *s, int kind) {
    if (kind != TC_SHM_FD && kind != TC_SHM_NAMED)
        return tc_set_error(TC_ERR_VALUE, "unknown shared-memory kind %d", kind);
    if (s->device.type != TC_DEVICE_CPU)
        return tc_set_error(TC_ERR_RUNTIME, "only CPU storages can move to shared memory (this one is on %s)",
                            tc_device_type_name(s->device.type));
    const shm_segment *old = shm_of(s);
    if (old && old->kind == kind) return TC_OK;
    shm_segment *seg = shm_create(s->nbytes, kind);
    if (!seg) return TC_FAIL;
    void *data = (char *)seg->map + SHM_HEADER;
    if (s->nbytes) memcpy(data, s->data, s->nbytes);
    /* the old bytes go the way they came; every tensor reads s->data, so all of them follow */
    if (s->deleter) s->deleter(s->deleter_ctx, s->data, s->nbytes);
    else if (s->allocator) s->allocator->free(s->allocator->ctx, s->data, s->nbytes, s->device.index, NULL);
    s->data = data;
    s->allocator = NULL;
    s->deleter = shm_deleter;
    s->deleter_ctx = seg;
    segments_add(seg, s);
    return TC_OK;
}

int tc_storage_shm_kind(const tc_storage *s) {
    const shm_segment *seg = shm_of(s);
    return seg ? seg->kind : -1;
}

int tc_storage_shm_fd(const tc_storage *s) {
    const shm_segment *seg = shm_of(s);
    return seg ? seg->fd : -1;
}

const char *tc_storage_shm_name(const tc_storage *s) {
    const shm_segment *seg = shm_of(s);
    return seg && seg->kind == TC_SHM_NAMED ? seg->name : NULL;
}

int tc_storage_shm_ref(tc_storage *s, int delta) {
    shm_segment *seg = s->deleter == shm_deleter ? s->deleter_ctx : NULL;
    if (!seg || seg->kind != TC_SHM_NAMED)
        return tc_set_error(TC_ERR_RUNTIME, "storage is not in a named shared-memory segment");
    if (delta > 0) atomic_fetch_add_explicit(shm_refcount(seg), 1, memory_order_relaxed);
    else if (delta < 0) shm_unref(seg);
    return TC_OK;
}

static tc_storage *shm_wrap(shm_segment *seg, size_t nbytes) {
    tc_device cpu = {TC_DEVICE_CPU, 0};
    tc_storage *s = tc_storage_wrap((char *)seg->map + SHM_HEADER, nbytes, cpu, shm_deleter, seg);
    if (!s) shm_deleter(seg, NULL, 0);
    else segments_add(seg, s);
    return s;
}

tc_storage *tc_storage_new_shared(size_t nbytes, int kind) {
    if (kind != TC_SHM_FD && kind != TC_SHM_NAMED)
        return tc_set_error(TC_ERR_VALUE, "unknown shared-memory kind %d", kind), NULL;
    shm_segment *seg = shm_create(nbytes, kind);
    return seg ? shm_wrap(seg, nbytes) : NULL;
}

/* The segment's size must hold what the sender said, or mapping it would fault past its end. */
static int shm_check_size(const struct stat *st, size_t total) {
    if ((uint64_t)st->st_size < total)
        return tc_set_error(TC_ERR_RUNTIME, "shared-memory segment holds %lld bytes, expected at least %zu",
                            (long long)st->st_size, total);
    return TC_OK;
}

/* The storage this process already has over fd's segment (a new reference), or NULL; *err is set
 * when fd cannot be examined or is too small for nbytes. */
static tc_storage *shm_existing(int fd, size_t total, int kind, int *err) {
    struct stat st;
    *err = TC_OK;
    if (fstat(fd, &st)) return shm_error(errno, kind, "fstat", total), *err = TC_FAIL, NULL;
    if (shm_check_size(&st, total)) return *err = TC_FAIL, NULL;
    return segments_find(st.st_dev, st.st_ino);
}

tc_storage *tc_storage_from_shm_fd(int fd, size_t nbytes) {
    size_t total = 0;
    if (shm_total(nbytes, &total)) return NULL;
    int err;
    tc_storage *existing = shm_existing(fd, total, TC_SHM_FD, &err);
    if (existing || err) return existing;
    int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (own < 0) return shm_error(errno, TC_SHM_FD, "dup", nbytes), NULL;
    shm_segment *seg = shm_map(own, total, TC_SHM_FD, NULL);
    if (!seg) {
        close(own);
        return NULL;
    }
    seg->fd = own;
    return shm_wrap(seg, nbytes);
}

tc_storage *tc_storage_from_shm_name(const char *name, size_t nbytes) {
    size_t total = 0;
    if (shm_total(nbytes, &total)) return NULL;
    if (strlen(name) >= sizeof ((shm_segment *)0)->name)
        return tc_set_error(TC_ERR_VALUE, "shared-memory name too long: %s", name), NULL;
    int fd = shm_open(name, O_RDWR | O_CLOEXEC, 0);
    if (fd < 0) {
        if (errno == ENOENT)
            return tc_set_error(TC_ERR_RUNTIME, "shared-memory segment %s is gone (its last user released it, or "
                                "the process that made it died before this one mapped it)", name), NULL;
        return shm_error(errno, TC_SHM_NAMED, "shm_open", nbytes), NULL;
    }
    int err;
    tc_storage *existing = shm_existing(fd, total, TC_SHM_NAMED, &err);
    shm_segment *seg = existing || err ? NULL : shm_map(fd, total, TC_SHM_NAMED, name);
    close(fd);
    if (existing) return existing;
    if (!seg) return NULL;
    /* a count that already reached zero belongs to a segment being unlinked: it may not come back */
    atomic_int_fast64_t *rc = shm_refcount(seg);
    int_fast64_t n = atomic_load(rc);
    while (n > 0 && !atomic_compare_exchange_weak(rc, &n, n + 1)) {
    }
    if (n <= 0) {
        munmap(seg->map, seg->map_bytes);
        free(seg);
        return tc_set_error(TC_ERR_RUNTIME, "shared-memory segment %s was released before it was mapped", name), NULL;
    }
    return shm_wrap(seg, nbytes);
}
