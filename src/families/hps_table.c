/* hps_table.c - the HPS count table (open addressing, pair keys); see
 * hps_table.h. */
#include "families/hps_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *hps_xrealloc(void *p, size_t bytes, const char *what)
{
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q) {
        fprintf(stderr, "hwprof: out of memory (%s, %zu bytes)\n", what ? what : "hps", bytes);
        abort();
    }
    return q;
}

void hps_die(const char *what)
{
    fprintf(stderr, "hwprof: %s\n", what);
    abort();
}

static void alloc_slots(struct hps_table *t, size_t cap)
{
    t->slot = hps_xrealloc(NULL, cap * sizeof *t->slot, t->what);
    memset(t->slot, 0, cap * sizeof *t->slot);
    t->mask = cap - 1;
    t->used = 0;
}

void hps_table_init(struct hps_table *t, size_t capacity_hint, const char *what)
{
    size_t cap = 16;
    while (cap * 3 < capacity_hint * 4)
        cap *= 2;
    t->what = what;
    alloc_slots(t, cap);
}

void hps_table_free(struct hps_table *t)
{
    if (!t)
        return;
    free(t->slot);
    t->slot = NULL;
    t->mask = 0;
    t->used = 0;
}

void hps_table_clear(struct hps_table *t)
{
    memset(t->slot, 0, (t->mask + 1) * sizeof *t->slot);
    t->used = 0;
}

void hps_table_grow_(struct hps_table *t)
{
    struct hps_slot *old = t->slot;
    size_t oldcap = t->mask + 1;
    alloc_slots(t, oldcap * 2);
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].n) {
            size_t j = hps_hash2(old[i].a, old[i].b) & t->mask;
            while (t->slot[j].n)
                j = (j + 1) & t->mask;
            t->slot[j] = old[i];
            t->used++;
        }
    free(old);
}

static size_t find(const struct hps_table *t, uint64_t a, uint64_t b)
{
    size_t i = hps_hash2(a, b) & t->mask;
    while (t->slot[i].n) {
        if (t->slot[i].a == a && t->slot[i].b == b)
            return i;
        i = (i + 1) & t->mask;
    }
    return SIZE_MAX;
}

uint64_t hps_table_get(const struct hps_table *t, uint64_t a, uint64_t b)
{
    size_t i = find(t, a, b);
    return i == SIZE_MAX ? 0 : t->slot[i].n;
}

uint64_t hps_table_del(struct hps_table *t, uint64_t a, uint64_t b)
{
    size_t i = find(t, a, b);
    if (i == SIZE_MAX)
        return 0;
    uint64_t n = t->slot[i].n;
    /* Backward shift: move later members of the probe run into the hole
     * when the hole lies between their home slot and their slot. */
    size_t hole = i, j = i;
    for (;;) {
        j = (j + 1) & t->mask;
        if (!t->slot[j].n)
            break;
        size_t home = hps_hash2(t->slot[j].a, t->slot[j].b) & t->mask;
        if (((j - home) & t->mask) >= ((j - hole) & t->mask)) {
            t->slot[hole] = t->slot[j];
            hole = j;
        }
    }
    t->slot[hole].n = 0;
    t->used--;
    return n;
}

int hps_member_order(const void *x, const void *y)
{
    const struct hps_member *p = x, *q = y;
    if (p->w != q->w)
        return p->w > q->w ? -1 : 1;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return 0;
}

int hps_member_order_keydesc(const void *x, const void *y)
{
    const struct hps_member *p = x, *q = y;
    if (p->w != q->w)
        return p->w > q->w ? -1 : 1;
    return hps_member_order(y, x); /* equal weights: key descending */
}

struct hps_member *hps_table_members(const struct hps_table *t, size_t *n)
{
    *n = t->used;
    if (!t->used)
        return NULL;
    struct hps_member *m = hps_xrealloc(NULL, t->used * sizeof *m, t->what);
    size_t k = 0;
    for (size_t i = 0; i <= t->mask; i++)
        if (t->slot[i].n) {
            m[k].a = t->slot[i].a;
            m[k].b = t->slot[i].b;
            m[k].w = (double)t->slot[i].n;
            m[k].x = m[k].y = 0;
            k++;
        }
    qsort(m, k, sizeof *m, hps_member_order);
    return m;
}
