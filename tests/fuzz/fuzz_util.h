/* fuzz_util.h - what the libFuzzer targets share: a fuzz input as a file
 * (memfd: a regular file with a /proc path, no disk I/O).  Include it
 * before any system header: it defines _GNU_SOURCE for memfd_create. */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* Write data to a fresh memfd; path receives "/proc/self/fd/N".  Returns
 * the fd (close it when done) or -1. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
    int fd = memfd_create("fuzz", 0);
    if (fd < 0)
        return -1;
    size_t off = 0;
    while (off < size) {
        ssize_t w = write(fd, data + off, size - off);
        if (w <= 0) {
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    snprintf(path, len, "/proc/self/fd/%d", fd);
    return fd;
}

#endif
