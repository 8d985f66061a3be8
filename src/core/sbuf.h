/* sbuf.h - growable strings and allocation that aborts on exhaustion, for
 * the plotting and table code (outputs are small; running out of memory
 * there is not worth a recovery path).
 *
 *   struct sbuf b = SBUF_INIT;
 *   sbuf_printf(&b, "%s=%d", "tables", 4);   // b.s == "tables=4"
 *   sbuf_free(&b);
 */
#ifndef SBUF_H
#define SBUF_H

#include <stddef.h>

struct sbuf {
    char *s;      /* NUL-terminated once anything was added; NULL before */
    size_t len, cap;
};
#define SBUF_INIT { NULL, 0, 0 }

void sbuf_putc(struct sbuf *b, char c);
void sbuf_puts(struct sbuf *b, const char *s);
void sbuf_put(struct sbuf *b, const char *s, size_t n);
void sbuf_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_clear(struct sbuf *b);
/* The text ("" when empty). */
const char *sbuf_str(const struct sbuf *b);
/* Hand the text over (caller frees; never NULL); b is left empty. */
char *sbuf_take(struct sbuf *b);
void sbuf_free(struct sbuf *b);

void *mem_alloc(size_t n);            /* zeroed */
void *mem_array(size_t n, size_t size); /* zeroed, overflow-checked */
void *mem_realloc(void *p, size_t n);
char *mem_strdup(const char *s);

#endif
