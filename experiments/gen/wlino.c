/* wlino.c - LD_PRELOAD shim that gives a workload the same file identities
 * on every run.  Used by workloads whose .wl sets WL_PRELOAD_FIXINODE=1.
 *
 * Why.  A run's files (its inputs and stdout.txt) are created afresh in the
 * run directory for every capture, so the file system hands them whatever
 * inode numbers are free at that moment; stdout.txt's times are those of
 * the capture, stderr is whatever the capture's caller made it, and the
 * device number is the host's.  A program that keeps a file's identity as
 * data (GNU CLISP stores st_dev/st_ino of the files behind its streams)
 * then loads values that differ between two captures of the same run:
 * li's window 2 at the default scale differed in three load values, which
 * were inode numbers.  A program whose garbage collector scans the stack
 * conservatively (GAP's GASMAN) reads the stat buffers its start-up left
 * there, and now and then takes one of those words for a reference: two
 * captures of gap at the paper scale ran 20 instructions apart after 1.9G
 * (the collector marking 4 times more or less).
 *
 * What.  stat, lstat and fstat report the device as 1, number the files
 * 1, 2, 3, ... in the order the program first asks about them (the same
 * file always gets the same number, two files never share one), and give
 * every file the times 2000-01-01T00:00:00Z (the run directory's pinned
 * modification time): access, modification and change.  Everything else
 * is the system call's answer.  The program's control flow sees the same
 * "same file or not" answers as without the shim; a program comparing two
 * files' dates sees them equal.
 *
 * Only calls through the PLT are caught (what the program imports, under
 * either name: stat or stat64; glibc's own internal fstat calls, e.g. in
 * fopen, are not), which is how CLISP and GAP ask.  The answers come from
 * the newfstatat system call directly.
 *
 * The memory map.  /proc/self/maps names every mapped file with its device
 * and inode number: the shims copied into the fresh run directory, the
 * libraries, and under Valgrind the tool itself, which a rebuild makes a
 * new file.  GNU CLISP and its libsigsegv read it (to find the stack and
 * the mapped regions), and the work of reading it grows with its text: at
 * the tiny scale li took 1,036 instructions more with the tool's file on
 * the disk than on a tmpfs, and its start-up took 2,549 fewer after the
 * tool was rebuilt on 2026-11-27 (experiments/README.md).  So open() and its
 * relatives fail on it with ENOENT, as on a system without /proc; CLISP
 * and libsigsegv then find regions with mincore(), whose answers depend on
 * the addresses only (the same in every capture). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_FILES 4096
#define FIXED_SEC 946684800 /* 2000-01-01T00:00:00Z, the run directory's FIXED_MTIME */

static struct {
    dev_t dev;
    ino_t ino;
} files[MAX_FILES];
static unsigned long nfiles, overflow;

static void pin(struct stat *st)
{
    unsigned long i;
    for (i = 0; i < nfiles; i++)
        if (((files[i].dev ^ st->st_dev) | (files[i].ino ^ st->st_ino)) == 0)
            break; /* both compared, always: the work does not depend on whether the devices agree */
    if (i == nfiles) {
        if (nfiles < MAX_FILES) {
            files[nfiles].dev = st->st_dev;
            files[nfiles].ino = st->st_ino;
            nfiles++;
        } else {
            /* Past the table: still distinct, no longer remembered. */
            i = MAX_FILES + overflow++;
        }
    }
    st->st_dev = 1;
    st->st_ino = (ino_t)(i + 1);
    st->st_atim.tv_sec = st->st_mtim.tv_sec = st->st_ctim.tv_sec = FIXED_SEC;
    st->st_atim.tv_nsec = st->st_mtim.tv_nsec = st->st_ctim.tv_nsec = 0;
}

/* The stack below the constructors holds what the dynamic loader left
 * there: among it its own fstat answers for the ld.so cache and every
 * library it mapped (device, inode number, times to the nanosecond), which
 * no preloaded function sees.  The capture bind-mounts an empty file,
 * created afresh for each capture, over the ld.so cache, so its times
 * differ every time; a program that reads stale stack words (GAP's garbage
 * collector scans the stack conservatively: now and then such a word looks
 * like a reference) then runs differently.  Clear SCRUB_BYTES below the
 * constructor's frame before the program starts (the loader uses a few KB
 * of them; the rest reads as zero anyway). */
#define SCRUB_BYTES 65536

static __attribute__((noinline)) void scrub(void)
{
    volatile unsigned long long buf[SCRUB_BYTES / sizeof(unsigned long long)];
    for (unsigned long i = 0; i < sizeof buf / sizeof buf[0]; i++)
        buf[i] = 0;
}

static __attribute__((constructor)) void wlino_init(void)
{
    scrub();
}

static int stat_at(int dirfd, const char *path, struct stat *st, int flags)
{
    int rc = (int)syscall(SYS_newfstatat, dirfd, path, st, flags);
    if (rc == 0)
        pin(st);
    return rc;
}

int stat(const char *path, struct stat *st)
{
    return stat_at(AT_FDCWD, path, st, 0);
}

int lstat(const char *path, struct stat *st)
{
    return stat_at(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

int fstat(int fd, struct stat *st)
{
    return stat_at(fd, "", st, AT_EMPTY_PATH);
}

/* The same for programs built with large-file names (x86-64: the same
 * struct; GAP imports these). */
int stat64(const char *path, struct stat64 *st)
{
    return stat_at(AT_FDCWD, path, (struct stat *)st, 0);
}

int lstat64(const char *path, struct stat64 *st)
{
    return stat_at(AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW);
}

int fstat64(int fd, struct stat64 *st)
{
    return stat_at(fd, "", (struct stat *)st, AT_EMPTY_PATH);
}

/* ---- the memory map, hidden (see the top of the file) ------------------- */

static int is_map(const char *path)
{
    static const char *const names[] = { "/proc/self/maps", "/proc/self/smaps", "/proc/thread-self/maps",
                                         "/proc/thread-self/smaps" };
    for (unsigned i = 0; path && i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(path, names[i]))
            return 1;
    return 0;
}

static int open_at(int dirfd, const char *path, int flags, va_list ap)
{
    mode_t mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, unsigned) : 0;
    if (is_map(path)) {
        errno = ENOENT;
        return -1;
    }
    return (int)syscall(SYS_openat, dirfd, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int fd = open_at(AT_FDCWD, path, flags, ap);
    va_end(ap);
    return fd;
}

int openat(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int fd = open_at(dirfd, path, flags, ap);
    va_end(ap);
    return fd;
}

/* The large-file names: the same functions (x86-64: the same flags). */
int open64(const char *path, int flags, ...) __attribute__((alias("open")));
int openat64(int dirfd, const char *path, int flags, ...) __attribute__((alias("openat")));

/* fopen opens with glibc's internal open, which the names above do not
 * catch. */
FILE *fopen(const char *path, const char *mode)
{
    if (is_map(path)) {
        errno = ENOENT;
        return NULL;
    }
    FILE *(*real)(const char *, const char *) = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
    return real ? real(path, mode) : NULL;
}

FILE *fopen64(const char *path, const char *mode) __attribute__((alias("fopen")));
