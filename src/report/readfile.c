/* readfile.c - a whole text file in memory (see readfile.h). */
#include "report/readfile.h"

#include <errno.h>
#include <stdio.h>

#include "core/sbuf.h"

char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct sbuf b = SBUF_INIT;
    char buf[65536];
    size_t k;
    sbuf_puts(&b, "");
    while ((k = fread(buf, 1, sizeof buf, f)) > 0)
        sbuf_put(&b, buf, k);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        sbuf_free(&b);
        errno = EIO;
        return NULL;
    }
    *len = b.len;
    return sbuf_take(&b);
}
