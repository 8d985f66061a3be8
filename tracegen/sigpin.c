/* sigpin.c - tg-sigpin: start a command with every signal at its default
 * disposition and an empty signal mask, whatever the caller inherited.
 *
 *   tg-sigpin CMD ARGS...
 *
 * Why: a program may look at the dispositions it inherits.  gzip, xz and
 * python install handlers only for the signals that are not already ignored
 * (so that `nohup prog &` keeps working), so their instruction counts, and
 * so every SimPoint window, depended on how `make traces` was started: from
 * a terminal (all default), under `nohup ... &` (SIGHUP, SIGINT, SIGQUIT
 * ignored) or as a Slurm task.  tracegen/capture runs valgrind through this
 * wrapper (--pin-signals yes, the default); Valgrind hands the dispositions
 * and the mask it starts with to the client.  Dispositions set to a handler
 * are reset by exec anyway; only SIG_IGN survives exec, and the blocked
 * mask always does.  The wrapper execs the command, so the pid and the
 * environment are the command's own.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tg-sigpin CMD ARGS...\n");
        return 2;
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    /* Every signal number the kernel knows (1..64 on Linux); SIGKILL and
     * SIGSTOP cannot be changed, and glibc refuses its two reserved
     * real-time signals (32, 33): those fail with EINVAL and are skipped. */
    for (int sig = 1; sig <= 64; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP)
            continue;
        if (sigaction(sig, &dfl, NULL) != 0 && errno != EINVAL) {
            fprintf(stderr, "tg-sigpin: cannot reset signal %d: %s\n", sig, strerror(errno));
            return 126;
        }
    }
    sigset_t none;
    sigemptyset(&none);
    if (sigprocmask(SIG_SETMASK, &none, NULL) != 0) {
        fprintf(stderr, "tg-sigpin: cannot clear the signal mask: %s\n", strerror(errno));
        return 126;
    }
    execvp(argv[1], argv + 1);
    fprintf(stderr, "tg-sigpin: cannot run '%s': %s\n", argv[1], strerror(errno));
    return 127;
}
