/* tgdump.c - tracegen's own tiny trace dumper, used by tests/tracegen to
 * compare captured traces with stock Lackey independently of the main
 * `hwprof trace` subcommands.  Reads a trace (v1 or v2) with trace_reader_*.
 *
 *   tgdump --lackey FILE    Lackey --trace-mem=yes lines: "I  addr,len",
 *                           " L addr,size", " S addr,size", " M addr,size"
 *                           (a load followed by its EVF_MODIFY store)
 *   tgdump --events FILE    one line per event with every field
 *   tgdump --summary FILE   header meta and totals (instructions, loads,
 *                           stores, branches and taken branches, calls,
 *                           returns, indirect jumps), then "meta KEY VALUE"
 *                           per metadata pair
 *   tgdump --meta KEY FILE  the value of metadata KEY (exit 1 if absent)
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/event.h"
#include "trace/trace.h"

#define CAP 65536

static struct event buf[CAP];

static struct trace_reader *open_or_exit(const char *path)
{
    char err[512];
    struct trace_reader *r = trace_reader_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "tgdump: %s\n", err);
        exit(1);
    }
    return r;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--meta") == 0) {
        struct trace_reader *r = open_or_exit(argv[3]);
        const char *v = trace_meta_get(trace_reader_header(r), argv[2]);
        if (v)
            printf("%s\n", v);
        trace_reader_close(r);
        return v ? 0 : 1;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: tgdump --lackey|--events|--summary FILE | --meta KEY FILE\n");
        return 2;
    }
    const char *mode = argv[1], *path = argv[2];
    struct trace_reader *r = open_or_exit(path);
    const struct trace_header *h = trace_reader_header(r);
    uint64_t counts[EV_KINDS] = {0}, taken = 0;
    int lackey = strcmp(mode, "--lackey") == 0, events = strcmp(mode, "--events") == 0;
    int pending = 0; /* a load held back in case the next event is its M store */
    struct event pl = {0};
    long n;
    while ((n = trace_reader_read(r, buf, CAP)) > 0) {
        for (long i = 0; i < n; i++) {
            const struct event *e = &buf[i];
            counts[e->kind]++;
            if (e->kind == EV_BRANCH)
                taken += e->taken;
            if (events) {
                printf("%c pc=%" PRIx64 " addr=%" PRIx64 " value=%" PRIx64 " size=%u taken=%u flags=%u\n",
                       ev_kind_letter[e->kind], e->pc, e->addr, e->value, e->size, e->taken, e->flags);
            } else if (lackey) {
                if (pending) {
                    pending = 0;
                    if (e->kind == EV_STORE && (e->flags & EVF_MODIFY) && e->addr == pl.addr &&
                        e->size == pl.size) {
                        printf(" M %08" PRIx64 ",%u\n", e->addr, e->size);
                        continue;
                    }
                    printf(" L %08" PRIx64 ",%u\n", pl.addr, pl.size);
                }
                switch (e->kind) {
                case EV_INSN:
                    printf("I  %08" PRIx64 ",%u\n", e->pc, e->size);
                    break;
                case EV_LOAD:
                    pl = *e;
                    pending = 1;
                    break;
                case EV_STORE:
                    printf(" S %08" PRIx64 ",%u\n", e->addr, e->size);
                    break;
                default:
                    break;
                }
            }
        }
    }
    if (n < 0) {
        fprintf(stderr, "tgdump: %s\n", trace_reader_error(r));
        trace_reader_close(r);
        return 1;
    }
    if (lackey && pending)
        printf(" L %08" PRIx64 ",%u\n", pl.addr, pl.size);
    if (!lackey && !events) {
        printf("workload %s\nproducer %s\ncommand %s\nskip %" PRIu64 "\nwindow %" PRIu64 "\nflags %u\n",
               h->meta.workload, h->meta.producer, h->meta.command, h->meta.skip, h->meta.window,
               h->meta.flags);
        printf("insns %" PRIu64 "\nloads %" PRIu64 "\nstores %" PRIu64 "\nbranches %" PRIu64
               "\ntaken %" PRIu64 "\ncalls %" PRIu64 "\nrets %" PRIu64 "\nijumps %" PRIu64 "\n",
               counts[EV_INSN], counts[EV_LOAD], counts[EV_STORE], counts[EV_BRANCH], taken, counts[EV_CALL],
               counts[EV_RET], counts[EV_IJUMP]);
        const char *v;
        for (const char *k = trace_meta_next(&h->meta, NULL, &v); k; k = trace_meta_next(&h->meta, k, &v))
            printf("meta %s %s\n", k, v);
    }
    trace_reader_close(r);
    return 0;
}
