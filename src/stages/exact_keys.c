/* exact_keys.c - stage "exact_keys": exact key counts of a stream (see exact_keys.h).
 *
 * In front of the table, a small direct-mapped cache of (key, count)
 * merges repeats of a key while it stays there; an entry that another key
 * displaces goes to the table as one weighted add, and finish adds the
 * rest before sorting.  The sorted table - distinct keys, their counts,
 * the total - is the same whatever order and grouping the adds came in, and
 * nothing reads it before finish; the cache only spares most events a probe
 * of a table that, for address pairs, is far larger than the caches.
 *
 * The table the displaced entries go to is the stage's own until finish:
 * open addressing over the entries themselves (key and count in the slot,
 * linear probing, at most half full), so that an add touches one place of
 * a table far larger than the caches, where the keycount's slot and then
 * its entry would be two.  finish packs the entries (in slot order) into
 * the keycount, which sorts them (keycount_adopt_sort): the sorted keycount
 * is the one the adds would have built - the same distinct keys, counts and
 * total - since its sorted order does not depend on the order the keys came
 * in.
 *
 * The displaced entries pass through a FIFO of SPILL on their way to the
 * table, in order: entering, an entry's hash is computed and its slot
 * requested; leaving, it is added.  The requests are thus a few dozen
 * events ahead of the add that needs them, across feeds, so the cache
 * misses of the table overlap with the work of the events in between
 * instead of stalling it (a batch issued all at once waited for its first
 * slot almost at once). */
#include "stages/exact_keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <pthread.h>
#include <sys/mman.h>
#endif
#include "families/keysel.h"

static const char *const filter_choices[] = KEYSEL_FILTER_CHOICES;
static const char *const field_choices[] = KEYSEL_FIELD_CHOICES;
static const char *const field2_choices[] = KEYSEL_FIELD2_CHOICES;

static const struct param_spec exact_keys_params[] = {
    P_ENUM("filter", 0, filter_choices, "records that count: all | loads | zero_loads | l2_miss (keysel.h)"),
    P_ENUM("key", 0, field_choices, "key field: pc | address | value"),
    P_ENUM("key2", 3, field2_choices, "second key field for pairs, or none"),
    P_INT("key_bits", 64, 1, 64, "keys are taken modulo 2^key_bits"),
    P_INT("key2_bits", 64, 1, 64, "second keys are taken modulo 2^key2_bits"),
    PARAM_END,
};

#define FRONT_BITS 12
#define SPILL 32 /* a power of two */
#define TABLE_FIRST ((size_t)1 << 14) /* slots at first (grows by doubling) */

struct front {
    uint64_t a, b, count; /* count 0: empty */
};

struct spilled {
    struct front f;
    uint64_t h; /* hash of f's key */
};

struct exact_st {
    struct keysel sel;
    struct keycount *kc;
    struct front *fc;     /* 2^FRONT_BITS entries */
    struct front *tab;    /* the table (see the top of the file): nslot entries, count 0 = empty */
    size_t nslot, n;      /* a power of two; keys in the table (n <= nslot / 2) */
    int in_kc;            /* the table could not grow: kc has counted some keys already */
    struct spilled fifo[SPILL]; /* displaced entries on their way to the table: pushed at fifo_n % SPILL */
    uint64_t fifo_n;      /* entries ever pushed; min(fifo_n, SPILL) are in the FIFO */
};

/* The table's memory, zeroed.  Above 2 MB on Linux: a mapping kept from an
 * earlier table of the size (the pool below), or a fresh anonymous
 * mapping (zero already), 2 MB-aligned and madvise(MADV_HUGEPAGE)'d - the
 * table is probed at random, and on 4 KB pages nearly every probe of a
 * large table also missed the TLB.  A hint: only the speed depends on it.
 * Elsewhere, or if that fails, calloc. */
#define BIG_PAGE ((size_t)2 << 20)
#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
#define TABLE_MMAP 1
#endif

/* Bytes mapped for a table of nslot slots (a whole number of huge pages), or 0: calloc'd. */
static size_t table_mapped(size_t nslot)
{
#ifdef TABLE_MMAP
    size_t bytes = nslot * sizeof(struct front);
    return bytes >= BIG_PAGE ? (bytes + BIG_PAGE - 1) / BIG_PAGE * BIG_PAGE : 0;
#else
    (void)nslot;
    return 0;
#endif
}

#ifdef TABLE_MMAP
/* Mapped tables that were freed, kept for the next table of the same size
 * (zeroed again by memset): a process runs window after window, and each
 * window's table grows through the same sizes.  On first touch the kernel
 * zeroes fresh huge pages, 5-9% of rap2d's time on cc1.w0, and far more
 * when the VM has to find the pages (make bench, rap2d after the
 * two-thread sweep, three rounds: 0.95-0.96 s without the pool, 0.78-0.85 s
 * with it); a memset of pages already mapped costs a fraction of that.  At
 * most POOL_N tables and POOL_BYTES in all; the lanes' threads share the
 * pool under a mutex, taken only when a table is made or freed. */
#define POOL_N 16
#define POOL_BYTES ((size_t)512 << 20)
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
    void *p;
    size_t len;
} pool[POOL_N];
static size_t pool_n, pool_bytes;

static void *pool_take(size_t len)
{
    void *p = NULL;
    pthread_mutex_lock(&pool_mu);
    for (size_t i = 0; i < pool_n; i++)
        if (pool[i].len == len) {
            p = pool[i].p;
            pool_bytes -= len;
            pool[i] = pool[--pool_n];
            break;
        }
    pthread_mutex_unlock(&pool_mu);
    if (p)
        memset(p, 0, len);
    return p;
}

/* Keep t (len bytes mapped) for later; 0, or -1 when the pool is full. */
static int pool_put(void *t, size_t len)
{
    int kept = 0;
    pthread_mutex_lock(&pool_mu);
    if (pool_n < POOL_N && pool_bytes + len <= POOL_BYTES) {
        pool[pool_n].p = t;
        pool[pool_n].len = len;
        pool_n++;
        pool_bytes += len;
        kept = 1;
    }
    pthread_mutex_unlock(&pool_mu);
    return kept ? 0 : -1;
}
#endif

static struct front *table_alloc(size_t nslot)
{
#ifdef TABLE_MMAP
    size_t len = table_mapped(nslot);
    void *kept = len ? pool_take(len) : NULL;
    if (kept)
        return kept;
    if (len) {
        char *raw = mmap(NULL, len + BIG_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED)
            return NULL;
        char *p = raw + (BIG_PAGE - (uintptr_t)raw % BIG_PAGE) % BIG_PAGE;
        if (p > raw)
            (void)munmap(raw, (size_t)(p - raw));
        if (p + len < raw + len + BIG_PAGE)
            (void)munmap(p + len, (size_t)(raw + len + BIG_PAGE - (p + len)));
        (void)madvise(p, len, MADV_HUGEPAGE);
        return (struct front *)(void *)p;
    }
#endif
    return calloc(nslot, sizeof(struct front));
}

static void table_free(struct front *t, size_t nslot)
{
    if (!t)
        return;
#ifdef TABLE_MMAP
    size_t len = table_mapped(nslot);
    if (len) {
        if (pool_put(t, len) != 0)
            (void)munmap(t, len);
        return;
    }
#endif
    free(t);
}

static void *exact_create(const struct param_values *pv, char *err, size_t errlen)
{
    struct exact_st *s = calloc(1, sizeof *s);
    if (!s || !(s->kc = keycount_create(0)) || !(s->fc = calloc((size_t)1 << FRONT_BITS, sizeof *s->fc)) ||
        !(s->tab = table_alloc(TABLE_FIRST))) {
        if (s) {
            keycount_free(s->kc);
            free(s->fc);
        }
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->nslot = TABLE_FIRST;
    keysel_init(&s->sel, pv_enum(pv, "filter"), pv_enum(pv, "key"), pv_enum(pv, "key2"), (unsigned)pv_int(pv, "key_bits"),
                (unsigned)pv_int(pv, "key2_bits"));
    return s;
}

static inline uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xc2b2ae3d27d4eb4full;
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    return h;
}

/* Twice the slots, every key moved to its place there.  0, or -1 out of memory. */
static int grow(struct exact_st *s)
{
    size_t ns = 2 * s->nslot, mask = ns - 1;
    struct front *t = table_alloc(ns);
    if (!t)
        return -1;
    for (size_t i = 0; i < s->nslot; i++) {
        const struct front *x = &s->tab[i];
        if (!x->count)
            continue;
        size_t j = (size_t)mix(x->a, x->b) & mask;
        while (t[j].count)
            j = (j + 1) & mask;
        t[j] = *x;
    }
    table_free(s->tab, s->nslot);
    s->tab = t;
    s->nslot = ns;
    return 0;
}

/* Add f (its key's hash h) to the table. */
static void table_add(struct exact_st *s, const struct front *f, uint64_t h)
{
    if (!s->tab) { /* after finish */
        (void)keycount_add(s->kc, f->a, f->b, f->count);
        s->in_kc = 1;
        return;
    }
    size_t mask = s->nslot - 1, j = (size_t)h & mask;
    for (struct front *x; (x = &s->tab[j])->count; j = (j + 1) & mask)
        if (x->a == f->a && x->b == f->b) {
            x->count += f->count;
            return;
        }
    if (s->n + 1 > s->nslot / 2) {
        if (grow(s) != 0) {
            /* out of memory: kc counts it (keycount_failed if it cannot either) */
            (void)keycount_add(s->kc, f->a, f->b, f->count);
            s->in_kc = 1;
            return;
        }
        mask = s->nslot - 1;
        j = (size_t)h & mask;
        while (s->tab[j].count)
            j = (j + 1) & mask;
    }
    s->tab[j] = *f;
    s->n++;
}

/* An entry that left the cache enters the FIFO (see the top of the file);
 * the one SPILL pushes older is added to the table. */
static inline void spill(struct exact_st *s, const struct front *f)
{
    uint64_t i = s->fifo_n++;
    struct spilled *slot = &s->fifo[i % SPILL];
    if (i >= SPILL)
        table_add(s, &slot->f, slot->h);
    slot->f = *f;
    slot->h = mix(f->a, f->b);
    if (s->tab) {
        /* the slot's line and the next: a 24-byte slot may straddle them,
         * and a probe goes on to the next slots about every other time
         * (hints; past the table's end, a prefetch is dropped) */
        uintptr_t x = (uintptr_t)&s->tab[(size_t)slot->h & (s->nslot - 1)];
        __builtin_prefetch((const void *)x);
        __builtin_prefetch((const void *)(x + 64));
    }
}

/* Add what the FIFO holds, oldest first. */
static void drain(struct exact_st *s)
{
    uint64_t n = s->fifo_n < SPILL ? s->fifo_n : SPILL;
    for (uint64_t i = s->fifo_n - n; i < s->fifo_n; i++) {
        const struct spilled *x = &s->fifo[i % SPILL];
        table_add(s, &x->f, x->h);
    }
    s->fifo_n = 0;
}

/* One event of the key (x, y). */
static inline void count_key(struct exact_st *s, uint64_t x, uint64_t y)
{
    uint64_t h = (x ^ (y * 0xc2b2ae3d27d4eb4full)) * 0x9e3779b97f4a7c15ull;
    struct front *f = &s->fc[h >> (64 - FRONT_BITS)];
    if (f->a == x && f->b == y && f->count) {
        f->count++;
        return;
    }
    if (f->count)
        spill(s, f);
    f->a = x;
    f->b = y;
    f->count = 1;
}

static size_t exact_feed(void *st, const void *in, size_t n, struct chunk *out)
{
    struct exact_st *s = st;
    const struct event *ev = in;
    const struct keysel *sel = &s->sel;
    if (sel->filter == KS_LOADS && !sel->needs_value && sel->field2 != KF_NONE) {
        /* keysel_key of loads keyed by two of pc and address (no value, so
         * no EVF_NOVALUE test): the same records and keys without its
         * per-record dispatch */
        const int xa = sel->field == KF_ADDR, ya = sel->field2 == KF_ADDR;
        const uint64_t mx = sel->mask, my = sel->mask2;
        for (size_t i = 0; i < n; i++) {
            const struct event *e = &ev[i];
            if (e->kind == EV_LOAD)
                count_key(s, (xa ? e->addr : e->pc) & mx, (ya ? e->addr : e->pc) & my);
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            uint64_t x, y;
            if (keysel_key(sel, &ev[i], &x, &y))
                count_key(s, x, y);
        }
    }
    out->recs = NULL;
    out->n = 0;
    out->mark = MARK_NONE;
    return n;
}

static void exact_finish(void *st, struct chunk *out)
{
    struct exact_st *s = st;
    drain(s);
    for (size_t i = 0; i < (size_t)1 << FRONT_BITS; i++)
        if (s->fc[i].count) {
            table_add(s, &s->fc[i], mix(s->fc[i].a, s->fc[i].b));
            s->fc[i].count = 0;
        }
    /* The table's keys into kc: packed and adopted, or (kc holds keys
     * already, or no memory to pack) added one by one. */
    struct keycount_entry *e = s->in_kc ? NULL : malloc((s->n ? s->n : 1) * sizeof *e);
    size_t m = 0;
    for (size_t i = 0; i < s->nslot; i++) {
        const struct front *x = &s->tab[i];
        if (!x->count)
            continue;
        if (e)
            e[m++] = (struct keycount_entry){ x->a, x->b, x->count };
        else
            (void)keycount_add(s->kc, x->a, x->b, x->count);
    }
    /* the table, done with, is the sort's scratch (nslot >= 2 n entries) */
    if (e && keycount_adopt_sort(s->kc, e, m, (struct keycount_entry *)(void *)s->tab) != 0) {
        keycount_clear(s->kc);
        for (size_t i = 0; i < m; i++)
            (void)keycount_add(s->kc, e[i].a, e[i].b, e[i].count);
        free(e);
    }
    table_free(s->tab, s->nslot);
    s->tab = NULL;
    s->nslot = s->n = 0;
    /* A failed sort leaves the table unsorted: its queries return 0 and
     * consumers see keycount_sorted() == 0 (they report the error as NaN). */
    (void)keycount_sort(s->kc);
    out->recs = NULL;
    out->n = 0;
    out->mark = MARK_NONE;
}

static void *exact_shared(void *st) { return ((struct exact_st *)st)->kc; }

static void exact_free(void *st)
{
    struct exact_st *s = st;
    if (!s)
        return;
    keycount_free(s->kc);
    free(s->fc);
    table_free(s->tab, s->nslot);
    free(s);
}

const struct stage_desc exact_keys_stage = {
    .name = "exact_keys",
    .summary = "exact count of every key (or key pair) of a stream over the window; answers range and rectangle counts",
    .params = exact_keys_params,
    .input_rec = "event",
    .event_mask = EV_BIT(EV_LOAD),
    .rec_type = "none",
    .rec_size = 0,
    .create = exact_create,
    .feed = exact_feed,
    .finish = exact_finish,
    .shared = exact_shared,
    .free = exact_free,
    .cost = 1,
};
STAGE_REGISTER(exact_keys_stage);
