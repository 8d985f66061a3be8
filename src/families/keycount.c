/* keycount.c - exact key counts with range queries (see keycount.h).
 *
 * A slot holds, beside the entry's index, a tag: the top 32 bits of the
 * key's hash (its home slot is given by the low bits).  A probe compares
 * tags and reads an entry only when they agree, so an add or a lookup reads
 * (nearly always) one entry - the key's own - however long its probe
 * sequence: for a table far larger than the caches, one cache miss instead
 * of one per occupied slot passed.  Where a key sits never shows. */
#include "families/keycount.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* malloc for an array of entries that a sort scatters into: above 2 MB,
 * 2 MB-aligned and, where the system has them (Linux transparent huge
 * pages on request), backed by huge pages - a radix pass writes to 2048
 * places at once, which on 4 KB pages miss the TLB at nearly every entry.
 * Only the speed depends on it. */
#define BIG_PAGE ((size_t)2 << 20)
static void *malloc_big(size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= BIG_PAGE) {
        size_t r = (bytes + BIG_PAGE - 1) / BIG_PAGE * BIG_PAGE;
        void *p = aligned_alloc(BIG_PAGE, r);
        if (p) {
            (void)madvise(p, r, MADV_HUGEPAGE);
            return p;
        }
    }
#endif
    return malloc(bytes);
}

struct keycount {
    struct keycount_entry *e; /* entries, first-occurrence order until sorted */
    size_t n, cap;
    uint64_t *slot;           /* open addressing: tag << 32 | entry index + 1, 0 = empty */
    size_t nslot;             /* power of two, at least 2 * cap */
    uint64_t total;
    uint64_t *prefix;         /* after sort: prefix[i] = sum of counts of e[0..i) */
    uint64_t bmin, bmax;      /* after sort: the least and the largest b (n > 0) */
    int sorted, failed;
    int slots_stale;          /* after sort: the slots index the order before it */
};

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xc2b2ae3d27d4eb4full;
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    return h;
}

static inline uint64_t tag_of(uint64_t h) { return h >> 32 << 32; }

static int rehash(struct keycount *kc, size_t nslot)
{
    uint64_t *s = calloc(nslot, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < kc->n; i++) {
        uint64_t h = mix(kc->e[i].a, kc->e[i].b);
        size_t j = (size_t)h & (nslot - 1);
        while (s[j])
            j = (j + 1) & (nslot - 1);
        s[j] = tag_of(h) | (uint32_t)(i + 1);
    }
    free(kc->slot);
    kc->slot = s;
    kc->nslot = nslot;
    return 0;
}

struct keycount *keycount_create(size_t expect)
{
    struct keycount *kc = calloc(1, sizeof *kc);
    if (!kc)
        return NULL;
    kc->cap = expect < 64 ? 64 : expect;
    kc->e = malloc(kc->cap * sizeof *kc->e);
    size_t nslot = 128;
    while (nslot < 2 * kc->cap)
        nslot *= 2;
    if (!kc->e || rehash(kc, nslot) != 0) {
        keycount_free(kc);
        return NULL;
    }
    return kc;
}

void keycount_free(struct keycount *kc)
{
    if (!kc)
        return;
    free(kc->e);
    free(kc->slot);
    free(kc->prefix);
    free(kc);
}

void keycount_clear(struct keycount *kc)
{
    kc->n = 0;
    kc->total = 0;
    kc->sorted = 0;
    kc->failed = 0;
    kc->slots_stale = 0;
    memset(kc->slot, 0, kc->nslot * sizeof *kc->slot);
}

static void rebuild_slots(struct keycount *kc);

int keycount_add(struct keycount *kc, uint64_t a, uint64_t b, uint64_t w)
{
    if (kc->slots_stale)
        rebuild_slots(kc);
    size_t mask = kc->nslot - 1;
    uint64_t h = mix(a, b), tag = tag_of(h);
    size_t j = (size_t)h & mask;
    for (;;) {
        uint64_t sl = kc->slot[j];
        if (!sl)
            break;
        if ((sl ^ tag) >> 32 == 0) {
            struct keycount_entry *x = &kc->e[(uint32_t)sl - 1];
            if (x->a == a && x->b == b) {
                x->count += w;
                kc->total += w;
                return 0;
            }
        }
        j = (j + 1) & mask;
    }
    if (kc->n == kc->cap) {
        /* Entries are addressed by index, so growing them keeps the slots valid. */
        if (kc->cap >= UINT32_MAX / 2) {
            kc->failed = 1;
            return -1;
        }
        struct keycount_entry *ne = realloc(kc->e, 2 * kc->cap * sizeof *ne);
        if (!ne) {
            kc->failed = 1;
            return -1;
        }
        kc->e = ne;
        kc->cap *= 2;
        if (kc->nslot < 2 * kc->cap) {
            if (rehash(kc, 2 * kc->nslot) != 0) {
                kc->failed = 1;
                return -1;
            }
            mask = kc->nslot - 1;
            j = (size_t)h & mask;
            while (kc->slot[j])
                j = (j + 1) & mask;
        }
    }
    kc->e[kc->n] = (struct keycount_entry){ a, b, w };
    kc->slot[j] = tag | (uint32_t)(++kc->n);
    kc->total += w;
    return 0;
}

void keycount_prefetch(const struct keycount *kc, uint64_t a, uint64_t b, int step)
{
    if (kc->slots_stale)
        return; /* a hint; the add rebuilds them */
    size_t mask = kc->nslot - 1;
    uint64_t h = mix(a, b), tag = tag_of(h);
    size_t j = (size_t)h & mask;
    if (step == 1) {
        __builtin_prefetch(&kc->slot[j]);
        return;
    }
    /* the entry of the first slot with the key's tag (the slots of a probe
     * sequence mostly share a cache line) */
    for (uint64_t sl; (sl = kc->slot[j]) != 0; j = (j + 1) & mask)
        if ((sl ^ tag) >> 32 == 0) {
            __builtin_prefetch(&kc->e[(uint32_t)sl - 1]);
            return;
        }
}

int keycount_failed(const struct keycount *kc) { return kc->failed; }
size_t keycount_distinct(const struct keycount *kc) { return kc->n; }
uint64_t keycount_total(const struct keycount *kc) { return kc->total; }

const struct keycount_entry *keycount_entry(const struct keycount *kc, size_t i)
{
    return i < kc->n ? &kc->e[i] : NULL;
}

const struct keycount_entry *keycount_entries(const struct keycount *kc) { return kc->e; }

uint64_t keycount_get(const struct keycount *kc, uint64_t a, uint64_t b)
{
    if (kc->sorted) {
        size_t lo = 0, hi = kc->n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            const struct keycount_entry *x = &kc->e[mid];
            if (x->a < a || (x->a == a && x->b < b))
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo < kc->n && kc->e[lo].a == a && kc->e[lo].b == b ? kc->e[lo].count : 0;
    }
    size_t mask = kc->nslot - 1;
    uint64_t h = mix(a, b), tag = tag_of(h);
    for (size_t j = (size_t)h & mask; kc->slot[j]; j = (j + 1) & mask) {
        if ((kc->slot[j] ^ tag) >> 32)
            continue;
        const struct keycount_entry *x = &kc->e[(uint32_t)kc->slot[j] - 1];
        if (x->a == a && x->b == b)
            return x->count;
    }
    return 0;
}

static int cmp_entry(const void *pa, const void *pb)
{
    const struct keycount_entry *x = pa, *y = pb;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    if (x->b != y->b)
        return x->b < y->b ? -1 : 1;
    return 0;
}

enum { DIG = 11, NB = 1 << DIG };

/* The dig-bit digits where entries of e[0, n) differ, least significant
 * first (b's, then a's): field (0 b, 1 a) and shift of each; returns how
 * many. */
static int varying_digits(const struct keycount_entry *e, size_t n, unsigned dig, int *fld, unsigned *shv)
{
    uint64_t va = 0, vb = 0;
    for (size_t i = 1; i < n; i++) {
        va |= e[i].a ^ e[0].a;
        vb |= e[i].b ^ e[0].b;
    }
    int nd = 0;
    for (int field = 0; field < 2; field++) {
        uint64_t vary = field ? va : vb;
        for (unsigned sh = 0; sh < 64; sh += dig)
            if ((vary >> sh) & ((1u << dig) - 1)) { /* else every entry has the same digit here */
                fld[nd] = field;
                shv[nd++] = sh;
            }
    }
    return nd;
}

static inline size_t digit(const struct keycount_entry *x, int field, unsigned sh, uint64_t mask)
{
    return (size_t)(((field ? x->a : x->b) >> sh) & mask);
}

/* One stable counting pass: src[0, n) into dst by the dig-bit digit of
 * field at shift sh; c: 2^dig counters, left holding where each digit's
 * entries end in dst. */
static void count_pass(const struct keycount_entry *src, struct keycount_entry *dst, size_t n, unsigned dig, int field,
                       unsigned sh, size_t *c)
{
    const size_t nb = (size_t)1 << dig;
    memset(c, 0, nb * sizeof *c);
    for (size_t i = 0; i < n; i++)
        c[digit(&src[i], field, sh, nb - 1)]++;
    size_t sum = 0;
    for (size_t k = 0; k < nb; k++) {
        size_t m = c[k];
        c[k] = sum;
        sum += m;
    }
    for (size_t i = 0; i < n; i++)
        dst[c[digit(&src[i], field, sh, nb - 1)]++] = src[i];
}

/* LSD radix passes over the dig-bit digits 0 .. nd-1 of src[0, n), stable,
 * ping-ponging with dst; c: 2^dig counters.  Returns where the sorted
 * entries are. */
static struct keycount_entry *lsd_passes(struct keycount_entry *src, struct keycount_entry *dst, size_t n,
                                         unsigned dig, const int *fld, const unsigned *shv, int nd, size_t *c)
{
    for (int d = 0; d < nd; d++) {
        count_pass(src, dst, n, dig, fld[d], shv[d], c);
        struct keycount_entry *t = src;
        src = dst;
        dst = t;
    }
    return src;
}

/* Sort e[0, n) by (a, b) - keys distinct, so the order is the one qsort
 * gives - with radix passes of 11 bits over the digits that vary (b's, then
 * a's, least significant first); tmp holds n entries.  A large table is
 * first split by its 11 most significant varying bits (one pass through
 * memory; the bits above them are the same in every entry), and each part
 * is then sorted by LSD passes over its own varying digits while it sits in
 * the cache: every part holds the keys of one value of those bits, and the
 * parts are in their order, so the whole is in (a, b) order.  A small table (or few digits): LSD passes over all digits, each
 * stable, the last (the top digit) leaving the entries in order. */
static void radix_sort(struct keycount_entry *e, struct keycount_entry *tmp, size_t n)
{
    enum { MAXD = 2 * ((64 + 8 - 1) / 8) };
    int fld[MAXD];
    unsigned shv[MAXD];
    int nd = varying_digits(e, n, DIG, fld, shv);
    size_t *c = malloc(2 * NB * sizeof *c);
    if (!c) {
        qsort(e, n, sizeof *e, cmp_entry);
        return;
    }
    if (nd <= 2 || n < ((size_t)1 << 16)) {
        struct keycount_entry *r = lsd_passes(e, tmp, n, DIG, fld, shv, nd, c);
        if (r != e)
            memcpy(e, r, n * sizeof *e);
        free(c);
        return;
    }
    /* split by the top 11 bits that vary (of a, or of b if all a are
     * equal) into tmp */
    size_t *start = c + NB;
    uint64_t va = 0, vb = 0;
    for (size_t i = 1; i < n; i++) {
        va |= e[i].a ^ e[0].a;
        vb |= e[i].b ^ e[0].b;
    }
    const int tf = va != 0;
    const unsigned msb = 63 - (unsigned)__builtin_clzll(tf ? va : vb); /* nd > 2: some bit varies */
    const unsigned ts = msb >= DIG - 1 ? msb - (DIG - 1) : 0;
    count_pass(e, tmp, n, DIG, tf, ts, start); /* start[k]: where part k ends */
    size_t s0 = 0;
    for (size_t k = 0; k < NB; k++) {
        size_t s1 = start[k], m = s1 - s0;
        if (m > 1 && m < 32) {
            /* insertion sort in tmp */
            for (size_t i = s0 + 1; i < s1; i++) {
                struct keycount_entry x = tmp[i];
                size_t j = i;
                while (j > s0 && cmp_entry(&tmp[j - 1], &x) > 0) {
                    tmp[j] = tmp[j - 1];
                    j--;
                }
                tmp[j] = x;
            }
            memcpy(e + s0, tmp + s0, m * sizeof *e);
        } else if (m >= 32) {
            /* small parts: 8-bit digits (their counters cost less than the entries) */
            unsigned dig = m < 4096 ? 8 : DIG;
            int pf[MAXD];
            unsigned ps[MAXD];
            int pd = varying_digits(tmp + s0, m, dig, pf, ps);
            struct keycount_entry *r = lsd_passes(tmp + s0, e + s0, m, dig, pf, ps, pd, c);
            if (r != e + s0)
                memcpy(e + s0, r, m * sizeof *e);
        } else if (m == 1) {
            e[s0] = tmp[s0];
        }
        s0 = s1;
    }
    free(c);
}

/* Sort e[0, n) with prefix (n + 1 sums) allocated; scratch: n entries the
 * sort may use, or NULL. */
static void sort_entries(struct keycount *kc, struct keycount_entry *scratch)
{
    uint64_t *p = kc->prefix;
    /* Keys are distinct, so the order (and every query) is deterministic,
     * whichever sort makes it. */
    struct keycount_entry *tmp = kc->n < 4096 ? NULL : scratch ? scratch : malloc_big(kc->n * sizeof *tmp);
    if (tmp)
        radix_sort(kc->e, tmp, kc->n);
    else
        qsort(kc->e, kc->n, sizeof *kc->e, cmp_entry);
    if (tmp != scratch)
        free(tmp);
    p[0] = 0;
    uint64_t bmin = UINT64_MAX, bmax = 0;
    for (size_t i = 0; i < kc->n; i++) {
        p[i + 1] = p[i] + kc->e[i].count;
        bmin = kc->e[i].b < bmin ? kc->e[i].b : bmin;
        bmax = kc->e[i].b > bmax ? kc->e[i].b : bmax;
    }
    kc->bmin = bmin;
    kc->bmax = bmax;
    /* The slots index the old order.  Queries of a sorted table search the
     * entries, and keycount_clear empties the slots, so they are rebuilt
     * only if an add or a prefetch comes first (slots_stale). */
    kc->slots_stale = 1;
    kc->sorted = 1;
}

int keycount_sort(struct keycount *kc)
{
    if (kc->sorted)
        return 0;
    uint64_t *p = realloc(kc->prefix, (kc->n + 1) * sizeof *p);
    if (!p)
        return -1;
    kc->prefix = p;
    sort_entries(kc, NULL);
    return 0;
}

int keycount_adopt_sort(struct keycount *kc, struct keycount_entry *e, size_t n, struct keycount_entry *scratch)
{
    if (n < 64) { /* a few: added (the table keeps its own array) */
        keycount_clear(kc);
        for (size_t i = 0; i < n; i++)
            if (keycount_add(kc, e[i].a, e[i].b, e[i].count) != 0)
                return -1;
        if (keycount_sort(kc) != 0)
            return -1;
        free(e);
        return 0;
    }
    size_t cap = n, nslot = kc->nslot;
    if (cap > UINT32_MAX / 2)
        return -1;
    while (nslot < 2 * cap)
        nslot *= 2;
    uint64_t *p = realloc(kc->prefix, (n + 1) * sizeof *p);
    if (!p)
        return -1;
    kc->prefix = p;
    if (nslot != kc->nslot) {
        /* left empty: the slots are rebuilt if an add or a prefetch comes (slots_stale) */
        uint64_t *sl = calloc(nslot, sizeof *sl);
        if (!sl)
            return -1;
        free(kc->slot);
        kc->slot = sl;
        kc->nslot = nslot;
    }
    free(kc->e);
    kc->e = e;
    kc->n = n;
    kc->cap = cap;
    kc->total = 0;
    for (size_t i = 0; i < n; i++)
        kc->total += e[i].count;
    kc->failed = 0;
    sort_entries(kc, scratch);
    return 0;
}

/* The slots of the entries in their present order. */
static void rebuild_slots(struct keycount *kc)
{
    memset(kc->slot, 0, kc->nslot * sizeof *kc->slot);
    size_t mask = kc->nslot - 1;
    for (size_t i = 0; i < kc->n; i++) {
        uint64_t h = mix(kc->e[i].a, kc->e[i].b);
        size_t j = (size_t)h & mask;
        while (kc->slot[j])
            j = (j + 1) & mask;
        kc->slot[j] = tag_of(h) | (uint32_t)(i + 1);
    }
    kc->slots_stale = 0;
}

int keycount_sorted(const struct keycount *kc) { return kc->sorted; }

/* First entry index whose a >= key. */
static size_t lower_a(const struct keycount *kc, uint64_t key)
{
    size_t lo = 0, hi = kc->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (kc->e[mid].a < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* First entry index whose a > key. */
static size_t upper_a(const struct keycount *kc, uint64_t key)
{
    size_t lo = 0, hi = kc->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (kc->e[mid].a <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint64_t keycount_range(const struct keycount *kc, uint64_t lo, uint64_t hi)
{
    if (!kc->sorted || lo > hi)
        return 0;
    return kc->prefix[upper_a(kc, hi)] - kc->prefix[lower_a(kc, lo)];
}

uint64_t keycount_rect(const struct keycount *kc, uint64_t alo, uint64_t ahi, uint64_t blo, uint64_t bhi)
{
    if (!kc->sorted || alo > ahi || blo > bhi)
        return 0;
    if (blo <= kc->bmin && bhi >= kc->bmax) /* every entry's b is in range: the a range's sum */
        return keycount_range(kc, alo, ahi);
    uint64_t sum = 0;
    for (size_t i = lower_a(kc, alo), end = upper_a(kc, ahi); i < end; i++)
        if (kc->e[i].b >= blo && kc->e[i].b <= bhi)
            sum += kc->e[i].count;
    return sum;
}
