/* strmap.h - strings numbered in the order they are first seen: a string
 * -> index map (open addressing, FNV-1a), for grouping rows by the text of
 * their cells (plotdata.c: panels, groups, categories, aggregates).
 *
 *   struct strmap m = {0};
 *   bool added;
 *   strmap_intern(&m, "gzip", &added);   // 0, added
 *   strmap_intern(&m, "xz", &added);     // 1, added
 *   strmap_intern(&m, "gzip", &added);   // 0, not added
 *   strmap_get(&m, "lua");               // SIZE_MAX
 *   strmap_free(&m);
 */
#ifndef STRMAP_H
#define STRMAP_H

#include <stdbool.h>
#include <stddef.h>

struct strmap {
    char **keys;
    size_t *vals;
    size_t cap, n; /* n: strings in the map */
};

/* The value of key; when absent, key is added with value m->n (the count
 * before adding) and *added (may be NULL) is set. */
size_t strmap_intern(struct strmap *m, const char *key, bool *added);
/* The value of key or SIZE_MAX. */
size_t strmap_get(const struct strmap *m, const char *key);
void strmap_free(struct strmap *m); /* leaves m empty */

#endif
