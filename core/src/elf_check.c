/*
 * A plugin file's ELF structure, checked before dlopen. The dynamic loader maps a library's
 * segments and touches them; a file cut short (a partial copy, a full disk) leaves segments that
 * extend past the end of the file, and touching those pages raises SIGBUS inside `import torch`.
 * So the headers, and the file range of every segment the loader maps, must lie within the file.
 * The check reads only headers (pread), never maps the file, and opens it without blocking, so a
 * FIFO or device named *.so cannot hang the import.
 */
#include "core_internal.h"

#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return TC_FAIL;
}

/* Whether [offset, offset + count * size) lies within a file of `file_size` bytes. */
static bool within(uint64_t offset, uint64_t count, uint64_t size, uint64_t file_size) {
    uint64_t bytes, end;
    return !__builtin_mul_overflow(count, size, &bytes) && !__builtin_add_overflow(offset, bytes, &end) &&
           end <= file_size;
}

static bool read_exact(int fd, void *buf, size_t n, uint64_t offset) {
    size_t done = 0;
    while (done < n) {
        ssize_t r = pread(fd, (char *)buf + done, n - done, (off_t)(offset + done));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        done += (size_t)r;
    }
    return true;
}

static int check_headers(int fd, uint64_t size, char *why, size_t len) {
    Elf64_Ehdr eh;
    if (size < sizeof eh || !read_exact(fd, &eh, sizeof eh, 0))
        return fail(why, len, "%llu bytes, shorter than an ELF header", (unsigned long long)size);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return fail(why, len, "not an ELF file (no ELF magic number)");
    if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
        return fail(why, len, "not a 64-bit little-endian ELF file");
    if (eh.e_type != ET_DYN) return fail(why, len, "not a shared object (ELF type %u)", eh.e_type);
    if (eh.e_machine != EM_X86_64) return fail(why, len, "built for ELF machine %u, not x86-64", eh.e_machine);
    if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 || eh.e_phnum == PN_XNUM)
        return fail(why, len, "program header table malformed (%u entries of %u bytes)", eh.e_phnum, eh.e_phentsize);
    if (!within(eh.e_phoff, eh.e_phnum, sizeof(Elf64_Phdr), size))
        return fail(why, len, "program headers at %llu..+%u*%zu lie past the end of the file (%llu bytes)",
                    (unsigned long long)eh.e_phoff, eh.e_phnum, sizeof(Elf64_Phdr), (unsigned long long)size);
    if (eh.e_shnum && (eh.e_shentsize != sizeof(Elf64_Shdr) || !within(eh.e_shoff, eh.e_shnum, sizeof(Elf64_Shdr), size)))
        return fail(why, len, "section headers at %llu (%u entries) lie past the end of the file (%llu bytes)",
                    (unsigned long long)eh.e_shoff, eh.e_shnum, (unsigned long long)size);

    Elf64_Phdr *ph = malloc(sizeof(Elf64_Phdr) * eh.e_phnum);
    if (!ph) return fail(why, len, "out of memory reading program headers");
    int rc = TC_OK;
    if (!read_exact(fd, ph, sizeof(Elf64_Phdr) * eh.e_phnum, eh.e_phoff)) {
        rc = fail(why, len, "program headers unreadable");
    }
    for (unsigned i = 0; rc == TC_OK && i < eh.e_phnum; i++) {
        const Elf64_Phdr *p = &ph[i];
        if (p->p_type != PT_LOAD && p->p_type != PT_DYNAMIC) continue;
        if (p->p_filesz > p->p_memsz && p->p_type == PT_LOAD)
            rc = fail(why, len, "segment %u has more file bytes (%llu) than memory bytes (%llu)", i,
                      (unsigned long long)p->p_filesz, (unsigned long long)p->p_memsz);
        else if (!within(p->p_offset, 1, p->p_filesz, size))
            rc = fail(why, len, "segment %u (%s) spans bytes %llu..%llu, past the end of the file (%llu bytes)", i,
                      p->p_type == PT_LOAD ? "PT_LOAD" : "PT_DYNAMIC", (unsigned long long)p->p_offset,
                      (unsigned long long)(p->p_offset + p->p_filesz), (unsigned long long)size);
    }
    free(ph);
    return rc;
}

int tc_elf_check(const char *path, char *why, size_t len) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return fail(why, len, "cannot open: %s", strerror(errno));
    struct stat st;
    int rc;
    if (fstat(fd, &st) != 0) rc = fail(why, len, "cannot stat: %s", strerror(errno));
    else if (!S_ISREG(st.st_mode)) rc = fail(why, len, "not a regular file");
    else rc = check_headers(fd, (uint64_t)st.st_size, why, len);
    close(fd);
    return rc;
}
