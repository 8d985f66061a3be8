/* hps_ss.c - Space-Saving with a min-heap; see hps_ss.h. */
#include "families/hps_ss.h"

#include <stdlib.h>
#include <string.h>

struct counter {
    uint64_t a, b, count, err;
};

struct hps_ss {
    size_t k, used;
    struct counter *c; /* by counter id */
    uint32_t *heap;    /* counter ids, min count at [0] */
    uint32_t *pos;     /* heap position of each counter id */
    struct hps_table index; /* key -> counter id + 1 */
    struct hps_ss_stats st;
};

struct hps_ss *hps_ss_create(size_t k)
{
    struct hps_ss *s = hps_xrealloc(NULL, sizeof *s, "space-saving");
    memset(s, 0, sizeof *s);
    s->k = k ? k : 1;
    s->c = hps_xrealloc(NULL, s->k * sizeof *s->c, "space-saving counters");
    s->heap = hps_xrealloc(NULL, s->k * sizeof *s->heap, "space-saving heap");
    s->pos = hps_xrealloc(NULL, s->k * sizeof *s->pos, "space-saving heap");
    /* room for 2k keys: k + 1 keys (during an eviction) stay below load
     * 3/8, so probe runs are short and the index never grows */
    hps_table_init(&s->index, 2 * s->k, "space-saving index");
    return s;
}

void hps_ss_free(struct hps_ss *s)
{
    if (!s)
        return;
    free(s->c);
    free(s->heap);
    free(s->pos);
    hps_table_free(&s->index);
    free(s);
}

static inline void swap_at(struct hps_ss *s, size_t i, size_t j)
{
    uint32_t x = s->heap[i], y = s->heap[j];
    s->heap[i] = y;
    s->heap[j] = x;
    s->pos[y] = (uint32_t)i;
    s->pos[x] = (uint32_t)j;
}

static void sift_down(struct hps_ss *s, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->used && s->c[s->heap[l]].count < s->c[s->heap[m]].count)
            m = l;
        if (r < s->used && s->c[s->heap[r]].count < s->c[s->heap[m]].count)
            m = r;
        if (m == i)
            return;
        swap_at(s, i, m);
        i = m;
    }
}

static void sift_up(struct hps_ss *s, size_t i)
{
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (s->c[s->heap[p]].count <= s->c[s->heap[i]].count)
            return;
        swap_at(s, i, p);
        i = p;
    }
}

void hps_ss_update(struct hps_ss *s, uint64_t a, uint64_t b)
{
    s->st.updates++;
    uint64_t *slot = hps_table_slot(&s->index, a, b);
    if (*slot) {
        uint32_t id = (uint32_t)(*slot - 1);
        s->c[id].count++;
        sift_down(s, s->pos[id]);
        s->st.hits++;
        return;
    }
    if (s->used < s->k) {
        uint32_t id = (uint32_t)s->used;
        *slot = (uint64_t)id + 1;
        s->c[id] = (struct counter){ a, b, 1, 0 };
        s->heap[s->used] = id;
        s->pos[id] = (uint32_t)s->used;
        s->used++;
        sift_up(s, s->used - 1);
        s->st.inserts++;
        return;
    }
    uint32_t id = s->heap[0];
    *slot = (uint64_t)id + 1; /* the new key's slot, before the victim's removal moves slots */
    struct counter *v = &s->c[id];
    hps_table_del(&s->index, v->a, v->b);
    v->a = a;
    v->b = b;
    v->err = v->count;
    v->count++;
    sift_down(s, 0);
    s->st.evictions++;
}

struct hps_member *hps_ss_members(const struct hps_ss *s, size_t *n)
{
    *n = s->used;
    if (!s->used)
        return NULL;
    struct hps_member *m = hps_xrealloc(NULL, s->used * sizeof *m, "space-saving members");
    for (size_t i = 0; i < s->used; i++) {
        m[i].a = s->c[i].a;
        m[i].b = s->c[i].b;
        m[i].w = (double)s->c[i].count;
        m[i].x = s->c[i].err;
        m[i].y = 0;
    }
    qsort(m, s->used, sizeof *m, hps_member_order);
    return m;
}

uint64_t hps_ss_min_count(const struct hps_ss *s) { return s->used < s->k ? 0 : s->c[s->heap[0]].count; }

void hps_ss_get_stats(const struct hps_ss *s, struct hps_ss_stats *st) { *st = s->st; }
