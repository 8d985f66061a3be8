/* wlino-probe.c - what a program sees of two files' identities and times
 * through every stat name gen/wlino.c answers (tests/experiments/run.sh,
 * test 1b).  Prints one line per call: name dev ino atime mtime ctime;
 * then whether /proc/self/maps opens through open, openat and fopen
 * ("maps open openat fopen", each "ok", "ENOENT" or "other"). */
#define _GNU_SOURCE
#define _LARGEFILE64_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* Call fn(arg, &buffer of type T) and print the answer under name. */
#define PROBE(name, T, fn, arg)                                                                            \
    do {                                                                                                   \
        T st_;                                                                                             \
        if (fn(arg, &st_) != 0)                                                                            \
            return 1;                                                                                      \
        printf("%s %llu %llu %lld %lld %lld\n", name, (unsigned long long)st_.st_dev,                       \
               (unsigned long long)st_.st_ino, (long long)st_.st_atime, (long long)st_.st_mtime,           \
               (long long)st_.st_ctime);                                                                   \
    } while (0)

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: wlino-probe FILE1 FILE2\n");
        return 2;
    }
    int fd = open(argv[2], O_RDONLY);
    if (fd < 0)
        return 1;
    PROBE("stat1", struct stat, stat, argv[1]);
    PROBE("fstat2", struct stat, fstat, fd);
    PROBE("lstat1", struct stat, lstat, argv[1]);
    PROBE("stat64_2", struct stat64, stat64, argv[2]);
    PROBE("fstat64_2", struct stat64, fstat64, fd);
    PROBE("lstat64_1", struct stat64, lstat64, argv[1]);
    close(fd);
    errno = 0;
    int o = open("/proc/self/maps", O_RDONLY);
    const char *r1 = o >= 0 ? "ok" : errno == ENOENT ? "ENOENT" : "other";
    errno = 0;
    int oa = openat(AT_FDCWD, "/proc/self/maps", O_RDONLY);
    const char *r2 = oa >= 0 ? "ok" : errno == ENOENT ? "ENOENT" : "other";
    errno = 0;
    FILE *f = fopen("/proc/self/maps", "r");
    const char *r3 = f ? "ok" : errno == ENOENT ? "ENOENT" : "other";
    printf("maps %s %s %s\n", r1, r2, r3);
    return 0;
}
