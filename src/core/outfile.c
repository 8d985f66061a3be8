/* outfile.c - all-or-nothing outputs (see outfile.h). */
#define _POSIX_C_SOURCE 200809L
#include "core/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int mkdirs(const char *dir)
{
    char tmp[1200];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(tmp, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

FILE *outfile_open(struct outfile *o, const char *final)
{
    memset(o, 0, sizeof *o);
    snprintf(o->final, sizeof o->final, "%s", final);
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp.%ld", final, (long)getpid());
    char dir[1200];
    snprintf(dir, sizeof dir, "%s", final);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (mkdirs(dir) != 0) {
            fprintf(stderr, "hwprof: cannot create %s: %s\n", dir, strerror(errno));
            o->f = NULL;
            return NULL;
        }
    }
    o->f = fopen(o->tmp, "w");
    if (!o->f)
        fprintf(stderr, "hwprof: cannot create %s: %s\n", o->tmp, strerror(errno));
    return o->f;
}

int outfile_close(struct outfile *o)
{
    if (!o->f)
        return -1;
    int bad = ferror(o->f);
    int rc = fclose(o->f);
    o->f = NULL;
    if (rc != 0 || bad) {
        fprintf(stderr, "hwprof: cannot write %s: %s\n", o->final, strerror(errno));
        unlink(o->tmp);
        return -1;
    }
    o->written = 1;
    return 0;
}

int outfile_commit(struct outfile *o, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!o[i].written)
            continue;
        if (rename(o[i].tmp, o[i].final) != 0) {
            fprintf(stderr, "hwprof: cannot write %s: %s\n", o[i].final, strerror(errno));
            outfile_discard(o + i, n - i);
            return -1;
        }
        o[i].written = 0;
    }
    return 0;
}

void outfile_discard(struct outfile *o, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (o[i].f) {
            fclose(o[i].f);
            o[i].f = NULL;
        }
        unlink(o[i].tmp);
        o[i].written = 0;
    }
}

int outfile_check_dir(const char *dir, char *err, size_t errlen)
{
    char path[1200];
    snprintf(path, sizeof path, "%s", dir[0] ? dir : ".");
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        path[--n] = '\0';
    /* The deepest existing ancestor (or dir itself); each must be a directory. */
    char probe_dir[1200] = "";
    if (path[0] != '/')
        snprintf(probe_dir, sizeof probe_dir, ".");
    else
        snprintf(probe_dir, sizeof probe_dir, "/");
    for (size_t i = 1; i <= n; i++) {
        if (i < n && path[i] != '/')
            continue;
        char save = path[i];
        path[i] = '\0';
        struct stat st;
        int found = stat(path, &st) == 0;
        int why = errno;
        if (found && !S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "%s is not a directory", path);
            return -1;
        }
        if (!found && why != ENOENT) {
            snprintf(err, errlen, "cannot use %s: %s", path, strerror(why));
            return -1;
        }
        if (found)
            snprintf(probe_dir, sizeof probe_dir, "%s", path);
        path[i] = save;
        if (!found)
            break;
    }
    char probe[1300];
    snprintf(probe, sizeof probe, "%s/.hwprof-probe.%ld", probe_dir, (long)getpid());
    int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create files in %s: %s", probe_dir, strerror(errno));
        return -1;
    }
    close(fd);
    unlink(probe);
    return 0;
}
