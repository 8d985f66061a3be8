/* plotrender.c - gnuplot run on a figure's preamble and script (see
 * plotrender.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/plotrender.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/outfile.h"
#include "core/sbuf.h"

static bool file_nonempty(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* ---- gnuplot --------------------------------------------------------------------- */

static void gp_single_quoted(struct sbuf *b, const char *s)
{
    sbuf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'')
            sbuf_putc(b, '\'');
        sbuf_putc(b, *s);
    }
    sbuf_putc(b, '\'');
}

/* gnuplot -e SETUP FILE1 [FILE2]; 0 when it exits with 0. */
static int run_gnuplot(const char *setup, const char *file1, const char *file2, struct diag *d)
{
    pid_t pid;
    int status;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        diag_error(d, NULL, 0, 0, "hwprof plot: fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        char gp[] = "gnuplot", dash_e[] = "-e";
        char *argv[] = {gp, dash_e, (char *)setup, (char *)file1, (char *)file2, NULL};
        execvp(argv[0], argv);
        fprintf(stderr, "hwprof plot: cannot run gnuplot: %s\n", strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            diag_error(d, NULL, 0, 0, "hwprof plot: waitpid: %s", strerror(errno));
            return -1;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        diag_error(d, NULL, 0, 0, "hwprof plot: cannot run gnuplot (install gnuplot-nox: scripts/setup-deps.sh)");
    else if (WIFEXITED(status))
        diag_error(d, file2 ? file2 : file1, 0, 0, "gnuplot failed (exit status %d)", WEXITSTATUS(status));
    else
        diag_error(d, file2 ? file2 : file1, 0, 0, "gnuplot killed by signal %d", WTERMSIG(status));
    return -1;
}

/* cairo stamps a PDF with the time it was written; same inputs must give
 * the same bytes, so the date becomes 1970-01-01 (same length: the xref
 * offsets stay right). */
static int pdf_fix_date(const char *path, struct diag *d)
{
    static const char key[] = "/CreationDate (D:";
    FILE *f = fopen(path, "r+b");
    char buf[65536];
    size_t n;
    char *at;
    if (!f) {
        diag_error(d, path, 0, 0, "cannot open: %s", strerror(errno));
        return -1;
    }
    /* The info dictionary is at the end of cairo's PDFs. */
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    long start = size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0;
    if (size < 0 || fseek(f, start, SEEK_SET) != 0) {
        fclose(f);
        return 0;
    }
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    for (at = buf; (at = memchr(at, '/', n - (size_t)(at - buf))) != NULL; at++) {
        if ((size_t)(at - buf) + sizeof key - 1 + 14 > n || memcmp(at, key, sizeof key - 1) != 0)
            continue;
        if (fseek(f, start + (at - buf) + (long)sizeof key - 1, SEEK_SET) != 0 || fwrite("19700101000000", 1, 14, f) != 14) {
            diag_error(d, path, 0, 0, "cannot write: %s", strerror(errno));
            fclose(f);
            return -1;
        }
        break;
    }
    return fclose(f) == 0 ? 0 : -1;
}

int plot_render(const char *preamble, const char *script, int width, int height, const char *const final[3],
                  struct diag *d)
{
    static const char *const fmt[3] = {"svg", "pngcairo", "pdfcairo"};
    char *tmp[3];
    int rc = -1;
    for (int i = 0; i < 3; i++) {
        struct sbuf b = SBUF_INIT;
        sbuf_printf(&b, "%s.tmp.%ld", final[i], (long)getpid());
        tmp[i] = sbuf_take(&b);
    }
    {
        char *dir = mem_strdup(final[0]), *slash = strrchr(dir, '/');
        if (slash && slash != dir)
            *slash = '\0';
        int made = !slash || slash == dir || mkdirs(dir) == 0;
        if (!made)
            diag_error(d, dir, 0, 0, "cannot create the folder: %s", strerror(errno));
        free(dir);
        if (!made)
            goto done;
    }
    for (int i = 0; i < 3; i++) {
        struct sbuf s = SBUF_INIT;
        sbuf_puts(&s, "fmt = ");
        gp_single_quoted(&s, fmt[i]);
        sbuf_puts(&s, "; out = ");
        gp_single_quoted(&s, tmp[i]);
        if (i == 0)
            sbuf_printf(&s, "; set terminal svg size %d,%d noenhanced background rgb 'white' font 'sans-serif,14'",
                        width, height);
        else if (i == 1)
            sbuf_printf(&s, "; set terminal pngcairo size %d,%d noenhanced", width, height);
        else /* same proportions of text to canvas as the PNG at 100 px per inch */
            sbuf_printf(&s, "; set terminal pdfcairo size %.2fin,%.2fin noenhanced", width / 100.0, height / 100.0);
        sbuf_puts(&s, "; set output out");
        rc = run_gnuplot(sbuf_str(&s), preamble, script, d);
        sbuf_free(&s);
        if (rc != 0)
            goto done;
        if (!file_nonempty(tmp[i])) {
            diag_error(d, script, 0, 0, "gnuplot wrote no %s output (does the script `set output` elsewhere?)",
                       fmt[i]);
            rc = -1;
            goto done;
        }
        if (i == 2 && pdf_fix_date(tmp[i], d) != 0) {
            rc = -1;
            goto done;
        }
    }
    /* The SVG is what make takes as "this figure is drawn": remove the old
     * one first and rename the new one in last, so that a kill between two
     * renames leaves no SVG and make draws the figure again. */
    if (unlink(final[0]) != 0 && errno != ENOENT) {
        diag_error(d, final[0], 0, 0, "cannot replace: %s", strerror(errno));
        rc = -1;
        goto done;
    }
    for (int i = 2; i >= 0; i--) {
        if (rename(tmp[i], final[i]) != 0) {
            diag_error(d, final[i], 0, 0, "cannot rename %s into place: %s", tmp[i], strerror(errno));
            rc = -1;
            goto done;
        }
    }
    rc = 0;
done:
    for (int i = 0; i < 3; i++) {
        unlink(tmp[i]); /* nothing left after a rename */
        free(tmp[i]);
    }
    return rc;
}
