/* strmap.c - a string -> index map with open addressing (see strmap.h). */
#include "report/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/sbuf.h"

static uint64_t str_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static void grow(struct strmap *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    char **keys = mem_array(cap, sizeof *keys);
    size_t *vals = mem_array(cap, sizeof *vals);
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t j = (size_t)(str_hash(m->keys[i]) & (cap - 1));
        while (keys[j])
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
}

/* The value of key; when absent, key is added with value m->n (the count
 * before adding) and *added is set. */
size_t strmap_intern(struct strmap *m, const char *key, bool *added)
{
    size_t j;
    if (added)
        *added = false;
    if ((m->n + 1) * 2 > m->cap)
        grow(m);
    j = (size_t)(str_hash(key) & (m->cap - 1));
    while (m->keys[j]) {
        if (strcmp(m->keys[j], key) == 0)
            return m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    m->keys[j] = mem_strdup(key);
    m->vals[j] = m->n++;
    if (added)
        *added = true;
    return m->vals[j];
}

/* The value of key or SIZE_MAX. */
size_t strmap_get(const struct strmap *m, const char *key)
{
    size_t j;
    if (!m->cap)
        return SIZE_MAX;
    j = (size_t)(str_hash(key) & (m->cap - 1));
    while (m->keys[j]) {
        if (strcmp(m->keys[j], key) == 0)
            return m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    return SIZE_MAX;
}

void strmap_free(struct strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}
