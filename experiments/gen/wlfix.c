/* wlfix.c - LD_PRELOAD shim that pins the clocks (and the password-file
 * look-up) for workloads whose runs would otherwise depend on the time or
 * the host.  Used by workloads whose .wl sets WL_PRELOAD_FIXTIME=1.
 *
 * Clocks.  Lua 5.4 seeds its string hash with time(NULL) mixed with
 * addresses (luai_makeseed), so without a fixed time the layout of every Lua
 * table with string keys - and therefore the traced addresses, values and
 * branches - would change from one second to the next.  Other programs
 * calibrate against the clock (simh's simulated line clock), check a time
 * budget while searching (sjeng, gnugo), print elapsed times (tachyon,
 * glpsol) or seed rand() from it.  Every clock here reads one virtual clock
 * that starts at 2000-01-01T00:00:00Z and advances by one microsecond per
 * call of any of these functions, so a run sees the same times in the same
 * order every time, time never stands still (a loop waiting for a deadline
 * ends), and time() stays at 946684800 for the first million calls.
 * CPU-time functions (clock, times, getrusage) report the virtual time
 * elapsed since the first call as user time.
 *
 * Password file.  getpwuid/getpwnam would parse the host's /etc/passwd (its
 * content is host-specific) and give a home directory outside the run
 * directory (sjeng keeps learning files in ~/.sjeng/).  Here they return one
 * fixed entry whose home directory is "." (the run directory).
 *
 * Standard input.  A program that polls its input while it computes
 * (sjeng's search asks select() with a zero timeout whether a command is
 * waiting, and stops searching if one is) would see the rest of its command
 * file as typed-ahead input and cut every search short, at a point that
 * depends on where the poll falls.  Here a zero-timeout select() on standard
 * input alone reports nothing to read, as for an interactive user who types
 * nothing while the program thinks; the program reads its next command when
 * it asks for one.  Every other select() is the system call.
 *
 * Only calls through the PLT are caught; glibc's internal uses of the clock
 * are not (none of the suite's programs depends on them).  The shim's own
 * code runs a handful of instructions per call. */
#define _GNU_SOURCE
/* glibc declares tv and ts nonnull; the checks stay for callers that pass
 * NULL anyway. */
#pragma GCC diagnostic ignored "-Wnonnull-compare"
#include <pwd.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timeb.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#define START_SEC 946684800LL   /* 2000-01-01T00:00:00Z */

static unsigned long long calls;   /* microseconds since START_SEC */

static unsigned long long tick(void)
{
    return ++calls;
}

time_t time(time_t *out)
{
    time_t t = (time_t)(START_SEC + tick() / 1000000ULL);
    if (out)
        *out = t;
    return t;
}

int gettimeofday(struct timeval *tv, void *tz)
{
    unsigned long long us = tick();
    if (tv) {
        tv->tv_sec = (time_t)(START_SEC + us / 1000000ULL);
        tv->tv_usec = (suseconds_t)(us % 1000000ULL);
    }
    if (tz)
        memset(tz, 0, sizeof(struct timezone));
    return 0;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    unsigned long long us = tick();
    long long sec = (long long)(us / 1000000ULL);
    if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)
        sec += START_SEC;
    if (ts) {
        ts->tv_sec = (time_t)sec;
        ts->tv_nsec = (long)(us % 1000000ULL) * 1000L;
    }
    return 0;
}

int ftime(struct timeb *tb)
{
    unsigned long long us = tick();
    tb->time = (time_t)(START_SEC + us / 1000000ULL);
    tb->millitm = (unsigned short)(us / 1000ULL % 1000ULL);
    tb->timezone = 0;
    tb->dstflag = 0;
    return 0;
}

clock_t clock(void)
{
    return (clock_t)tick();   /* CLOCKS_PER_SEC is 1000000 */
}

clock_t times(struct tms *t)
{
    unsigned long long us = tick();
    clock_t ticks = (clock_t)(us / 10000ULL);   /* 100 Hz */
    if (t) {
        t->tms_utime = ticks;
        t->tms_stime = 0;
        t->tms_cutime = 0;
        t->tms_cstime = 0;
    }
    return ticks;
}

int getrusage(int who, struct rusage *ru)
{
    unsigned long long us = tick();
    (void)who;
    memset(ru, 0, sizeof *ru);
    ru->ru_utime.tv_sec = (time_t)(us / 1000000ULL);
    ru->ru_utime.tv_usec = (suseconds_t)(us % 1000000ULL);
    return 0;
}

static char pw_name[] = "wl", pw_passwd[] = "x", pw_gecos[] = "workload",
            pw_dir[] = ".", pw_shell[] = "/bin/sh";

static struct passwd *fixed_passwd(void)
{
    static struct passwd pw;
    pw.pw_name = pw_name;
    pw.pw_passwd = pw_passwd;
    pw.pw_uid = getuid();
    pw.pw_gid = getgid();
    pw.pw_gecos = pw_gecos;
    pw.pw_dir = pw_dir;
    pw.pw_shell = pw_shell;
    return &pw;
}

struct passwd *getpwuid(uid_t uid)
{
    (void)uid;
    return fixed_passwd();
}

struct passwd *getpwnam(const char *name)
{
    (void)name;
    return fixed_passwd();
}

int select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *timeout)
{
    if (timeout && timeout->tv_sec == 0 && timeout->tv_usec == 0 &&
        nfds == 1 && rd && FD_ISSET(0, rd) && !wr && !ex) {
        FD_ZERO(rd);
        return 0;
    }
    return (int)syscall(SYS_select, nfds, rd, wr, ex, timeout);
}
