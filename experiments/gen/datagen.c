/* datagen.c - deterministic, seeded generator of compressible input data for
 * the compressor workloads (gzip, bzip2, xz).
 *
 * Usage: datagen MIX SEED BYTES > file
 *   MIX   text | mixed | binary   (share of prose, log lines, CSV records,
 *                                   binary tables and noise; see mixes[])
 *   SEED  unsigned integer; the same MIX/SEED/BYTES always gives the same bytes
 *   BYTES exact output size
 *
 * The output imitates what compressors meet in practice: English-like prose
 * drawn from a Zipf-distributed vocabulary with repeated phrases, syslog-like
 * lines with counters and timestamps, CSV records, arrays of little-endian
 * binary structs with small deltas, and short runs of incompressible noise.
 * Only integer arithmetic and our own PRNG (splitmix64) are used, so the bytes
 * do not depend on libc, locale or floating point.
 *
 * Sample (text mix, first line):
 *   The river of a small report was made in the house, and the ...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t rng_below(uint32_t n) { return (uint32_t)(rng_next() % n); }

#define VOCAB 4096
static char vocab[VOCAB][16];
static uint32_t zipf_cum[VOCAB]; /* cumulative integer weights ~ 1/(rank+1) */

static const char *const common_words[] = {
    "the", "of", "and", "a", "to", "in", "is", "was", "that", "for", "it", "with",
    "as", "on", "his", "he", "be", "at", "by", "this", "had", "not", "are", "but",
    "from", "or", "have", "an", "they", "which", "one", "you", "were", "her",
    "all", "she", "there", "would", "their", "we", "him", "been", "has", "when",
    "who", "will", "more", "no", "if", "out", "so", "said", "what", "up", "its",
    "about", "into", "than", "them", "can", "only", "other", "new", "some",
    "could", "time", "these", "two", "may", "then", "do", "first", "any", "my",
    "now", "such", "like", "our", "over", "man", "me", "even", "most", "made",
    "after", "also", "did", "many", "before", "must", "through", "back", "years",
    "where", "much", "your", "way", "well", "down", "should", "because", "each",
    "river", "house", "report", "small", "system", "value", "table", "number",
    "water", "people", "world", "state", "school", "program", "memory", "order"};

static void build_vocab(void)
{
    static const char cons[] = "bcdfghjklmnprstvwz";
    static const char vow[] = "aeiou";
    size_t ncommon = sizeof common_words / sizeof common_words[0];
    uint32_t total = 0;
    for (uint32_t i = 0; i < VOCAB; i++) {
        if (i < ncommon) {
            snprintf(vocab[i], sizeof vocab[i], "%s", common_words[i]);
        } else {
            uint32_t syl = 1 + rng_below(4), p = 0;
            for (uint32_t s = 0; s < syl && p + 3 < sizeof vocab[i]; s++) {
                vocab[i][p++] = cons[rng_below(sizeof cons - 1)];
                vocab[i][p++] = vow[rng_below(sizeof vow - 1)];
                if (rng_below(3) == 0)
                    vocab[i][p++] = cons[rng_below(sizeof cons - 1)];
            }
            vocab[i][p] = 0;
        }
        total += 1000000u / (i + 1);
        zipf_cum[i] = total;
    }
}

static const char *zipf_word(void)
{
    uint32_t r = rng_below(zipf_cum[VOCAB - 1]);
    uint32_t lo = 0, hi = VOCAB - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (zipf_cum[mid] > r)
            hi = mid;
        else
            lo = mid + 1;
    }
    return vocab[lo];
}

/* Output buffer with an exact byte budget. */
static unsigned char *out;
static size_t out_len, out_cap;

static void emit(const void *p, size_t n)
{
    if (n > out_cap - out_len)
        n = out_cap - out_len;
    memcpy(out + out_len, p, n);
    out_len += n;
}

static void emit_str(const char *s) { emit(s, strlen(s)); }

/* Remembered phrases, re-emitted now and then (long-range redundancy). */
#define PHRASES 64
static char phrases[PHRASES][96];

static void gen_prose(size_t bytes)
{
    size_t end = out_len + bytes;
    int sentence_start = 1, col = 0;
    while (out_len < end && out_len < out_cap) {
        char word[128];
        if (rng_below(40) == 0) {
            snprintf(word, sizeof word, "%s", phrases[rng_below(PHRASES)]);
        } else {
            snprintf(word, sizeof word, "%s", zipf_word());
            if (sentence_start && word[0] >= 'a' && word[0] <= 'z')
                word[0] = (char)(word[0] - 'a' + 'A');
        }
        sentence_start = 0;
        emit_str(word);
        col += (int)strlen(word);
        uint32_t r = rng_below(100);
        if (r < 6) {
            emit_str(".");
            sentence_start = 1;
        } else if (r < 10) {
            emit_str(",");
        }
        if (col > 68) {
            emit_str(rng_below(8) == 0 ? "\n\n" : "\n");
            col = 0;
        } else {
            emit_str(" ");
            col++;
        }
    }
}

static uint64_t log_clock = 1000000000u;
static uint32_t log_seq;

static void gen_logs(size_t bytes)
{
    static const char *const hosts[] = {"alpha", "beta", "gamma", "delta", "web01", "db02"};
    static const char *const procs[] = {"kernel", "sshd", "cron", "nginx", "postfix/smtpd", "systemd"};
    static const char *const level[] = {"info", "info", "info", "notice", "warning", "error"};
    size_t end = out_len + bytes;
    while (out_len < end && out_len < out_cap) {
        char line[256];
        log_clock += rng_below(5000);
        uint32_t h = rng_below(6), p = rng_below(6);
        int n = snprintf(line, sizeof line, "%llu.%03u %s %s[%u]: %s: %s %s %s id=%u len=%u\n",
                         (unsigned long long)(log_clock / 1000), (unsigned)(log_clock % 1000),
                         hosts[h], procs[p], 100 + p * 37 + rng_below(3), level[rng_below(6)],
                         zipf_word(), zipf_word(), zipf_word(), log_seq++, rng_below(1500));
        emit(line, (size_t)n);
    }
}

static void gen_csv(size_t bytes)
{
    size_t end = out_len + bytes;
    uint32_t id = rng_below(1000);
    while (out_len < end && out_len < out_cap) {
        char line[256];
        id += 1 + rng_below(3);
        int n = snprintf(line, sizeof line, "%u,%s,%s,%u.%02u,%u,%s\n", id, zipf_word(),
                         zipf_word(), rng_below(500), rng_below(100), rng_below(10) * 10,
                         rng_below(4) ? "yes" : "no");
        emit(line, (size_t)n);
    }
}

static void gen_binary(size_t bytes)
{
    /* struct { u32 key; u16 kind; u16 flags; i32 delta; u64 sum; } little endian */
    size_t end = out_len + bytes;
    uint32_t key = rng_below(100000);
    uint64_t sum = 0;
    while (out_len < end && out_len < out_cap) {
        unsigned char rec[20];
        int32_t delta = (int32_t)rng_below(200) - 100;
        key += 1 + rng_below(4);
        sum += (uint64_t)(delta + 100);
        uint16_t kind = (uint16_t)rng_below(7), flags = (uint16_t)(rng_below(4) == 0 ? 0x8000 : 0);
        for (int i = 0; i < 4; i++) rec[i] = (unsigned char)(key >> (8 * i));
        rec[4] = (unsigned char)kind; rec[5] = (unsigned char)(kind >> 8);
        rec[6] = (unsigned char)flags; rec[7] = (unsigned char)(flags >> 8);
        for (int i = 0; i < 4; i++) rec[8 + i] = (unsigned char)((uint32_t)delta >> (8 * i));
        for (int i = 0; i < 8; i++) rec[12 + i] = (unsigned char)(sum >> (8 * i));
        emit(rec, sizeof rec);
    }
}

static void gen_noise(size_t bytes)
{
    for (size_t i = 0; i < bytes && out_len < out_cap; i++) {
        unsigned char b = (unsigned char)rng_next();
        emit(&b, 1);
    }
}

struct mix { const char *name; unsigned prose, logs, csv, binary, noise; };
static const struct mix mixes[] = {
    {"text", 70, 15, 15, 0, 0},
    {"mixed", 35, 20, 15, 25, 5},
    {"binary", 10, 10, 20, 50, 10},
};

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: datagen text|mixed|binary SEED BYTES\n");
        return 2;
    }
    const struct mix *m = NULL;
    for (size_t i = 0; i < sizeof mixes / sizeof mixes[0]; i++)
        if (strcmp(argv[1], mixes[i].name) == 0)
            m = &mixes[i];
    char *e1, *e2;
    unsigned long long seed = strtoull(argv[2], &e1, 10);
    unsigned long long bytes = strtoull(argv[3], &e2, 10);
    if (!m || *e1 || *e2 || bytes > (1ull << 34)) {
        fprintf(stderr, "datagen: bad arguments (mix text|mixed|binary, seed, bytes 0..2^34)\n");
        return 2;
    }
    rng_state = seed * 0x2545f4914f6cdd1dull + 1;
    build_vocab();
    for (int i = 0; i < PHRASES; i++) {
        int p = 0;
        for (int w = 0; w < 3 + (int)rng_below(5); w++)
            p += snprintf(phrases[i] + p, sizeof phrases[i] - (size_t)p, "%s%s", w ? " " : "", zipf_word());
    }
    out_cap = (size_t)bytes;
    out = malloc(out_cap ? out_cap : 1);
    if (!out) {
        fprintf(stderr, "datagen: out of memory\n");
        return 1;
    }
    unsigned total = m->prose + m->logs + m->csv + m->binary + m->noise;
    while (out_len < out_cap) {
        /* sections of 2..64 KiB, kind drawn by the mix weights */
        size_t sec = 2048 + rng_below(62 * 1024);
        uint32_t r = rng_below(total);
        if (r < m->prose) gen_prose(sec);
        else if ((r -= m->prose) < m->logs) gen_logs(sec);
        else if ((r -= m->logs) < m->csv) gen_csv(sec);
        else if ((r -= m->csv) < m->binary) gen_binary(sec);
        else gen_noise(sec / 16);
    }
    if (fwrite(out, 1, out_len, stdout) != out_len || fflush(stdout) != 0) {
        fprintf(stderr, "datagen: write error\n");
        return 1;
    }
    free(out);
    return 0;
}
