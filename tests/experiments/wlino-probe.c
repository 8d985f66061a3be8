/* wlino-probe.c - what a program sees of two files' identities and times
 * through every stat name gen/wlino.c answers (tests/experiments/run.sh,
 * test 1b).  Prints one line per call: name dev ino atime mtime ctime. */
#define _GNU_SOURCE
#define _LARGEFILE64_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void show(const char *name, const struct stat *st)
{
    printf("%s %llu %llu %lld %lld %lld\n", name, (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
           (long long)st->st_atime, (long long)st->st_mtime, (long long)st->st_ctime);
}

static void show64(const char *name, const struct stat64 *st)
{
    printf("%s %llu %llu %lld %lld %lld\n", name, (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
           (long long)st->st_atime, (long long)st->st_mtime, (long long)st->st_ctime);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: wlino-probe FILE1 FILE2\n");
        return 2;
    }
    struct stat st;
    struct stat64 st64;
    int fd = open(argv[2], O_RDONLY);
    if (fd < 0 || stat(argv[1], &st) != 0)
        return 1;
    show("stat1", &st);
    if (fstat(fd, &st) != 0)
        return 1;
    show("fstat2", &st);
    if (lstat(argv[1], &st) != 0)
        return 1;
    show("lstat1", &st);
    if (stat64(argv[2], &st64) != 0)
        return 1;
    show64("stat64_2", &st64);
    if (fstat64(fd, &st64) != 0)
        return 1;
    show64("fstat64_2", &st64);
    if (lstat64(argv[1], &st64) != 0)
        return 1;
    show64("lstat64_1", &st64);
    close(fd);
    return 0;
}
