/* run_plan.c - several configs in one plan (see run.h, run_configs).
 *
 * Every stale config ("member") is prepared as run.c prepares one: its
 * jobs, instances and rows, the checks before the first job, its parts
 * (resume).  Then each job still to compute is handed to a window: one
 * per trace file (and workload name) and family (the config's paper
 * folder), or one for every analytic job.  A window is one engine job
 * whose instances are the deduplicated union of its members' instances
 * (instset.h); each member's instance reads the shared output.  So the
 * engine decodes each trace window once per family, builds every stage
 * its instances share once (engine_plan.c) and computes every distinct
 * (model, parameters) instance once.  Why per family: the families share
 * no stage worth keeping, and one pass over a window feeding all of them
 * (some 370 instances) spends its time in cache misses: on 2 cores, 50
 * configs on 6 windows took 680 job-seconds in one pass per window and
 * 541 in one per window and family, where decoding a window again costs
 * about half a second (2026-11-26).
 *
 * When a window finishes, each member it served gets its view of the job
 * (trace header, events, lanes, its share of the seconds) and its part;
 * a member whose windows are all done writes its result files at once,
 * exactly as a run of the config alone writes them, and releases the
 * outputs it read (the last reader frees one).  A member one of whose
 * windows failed is run alone after the plan (run_config), resuming from
 * the parts the plan left, so that it reports its own errors and one
 * config's failure costs the others nothing.
 *
 * Time: a window job serving several configs is split among them: each
 * instance's own time and its share of the stages it reads (engine.h)
 * equally among the configs that ask for it, the rest of the job's lanes'
 * time (decoding, filtering) equally among the configs it serves; the
 * shares are scaled to the job's wall seconds.  configs/README.md says so
 * for the run record.
 */
#define _POSIX_C_SOURCE 200809L
#include "run/run.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/freshness.h"
#include "run/instset.h"
#include "run/parts.h"
#include "run/progress.h"
#include "run/run_int.h"

struct member {
    const struct config *c;
    size_t index;             /* in the caller's list */
    struct run_options o;     /* with the config's own traces folder */
    json_t *inputs;
    struct plan_all a;
    char dir[1300];           /* its parts */
    size_t first, last;       /* its shard's jobs */
    size_t *shared;           /* per instance slot (job x per_job): the window instance it reads */
    size_t *win;              /* per job: its window, SIZE_MAX when not computed here */
    size_t pending;           /* windows still to finish */
    double seconds;           /* job-seconds attributed to it */
    int planned, done, failed, parts_failed;
};

struct pwindow {
    char *path;               /* NULL: analytic */
    char *workload;
    const char *family;       /* the members' paper folder (theirs: they outlive the plan's windows) */
    struct instset *set;
    size_t *uses;             /* (member, job) pairs, flattened */
    size_t nuses, cap;
    double seconds, decode, stages, inst, other; /* accounting (other: filtering, waiting) */
};

struct plan_ctx {
    struct member *m;
    size_t nm;
    struct pwindow *w;
    size_t nw;
    struct engine_job *jobs;  /* one per window */
    double *work;
    pthread_mutex_t mu;
    double t0;
    int nplan;                /* members in the plan */
};

/* ---- completion --------------------------------------------------------------- */

/* Drop the member's pointers to window outputs (releasing them when asked:
 * the last reader frees an output). */
static void unborrow(struct plan_ctx *p, struct member *m, int release)
{
    for (size_t j = 0; j < m->a.njobs; j++) {
        if (m->win[j] == SIZE_MAX)
            continue;
        for (size_t k = 0; k < m->a.per_job; k++) {
            size_t slot = j * m->a.per_job + k;
            if (release && m->shared[slot] != SIZE_MAX)
                instset_release(p->w[m->win[j]].set, m->shared[slot]);
            m->a.jobs[j].inst[k].out = NULL;
            m->a.rows[slot].out = NULL;
        }
        m->win[j] = SIZE_MAX;
    }
}

/* Every job of m is done: its result files (or its shard's mark). */
static void complete(struct plan_ctx *p, struct member *m)
{
    const struct config *c = m->c;
    if (m->parts_failed) {
        fprintf(stderr, "hwprof: %s: cannot write the parts in %s\n", c->name, m->dir);
        m->failed = 1;
    } else if (m->o.nshards > 0) {
        if (parts_write_shard_done(m->dir, m->o.shard, m->o.nshards, m->first, m->last - m->first) != 0)
            m->failed = 1;
        else if (!m->o.quiet)
            fprintf(stderr, "%s: shard %d/%d done (jobs %zu..%zu of %zu) in %s\n", c->name, m->o.shard,
                    m->o.nshards, m->first, m->last, m->a.njobs, m->dir);
    } else {
        run_warn_mixed_versions(c, &m->a, &m->o);
        if (run_write_outputs(c, &m->o, &m->a, m->inputs, p->t0, p->nplan) != 0)
            m->failed = 1;
        else
            parts_remove(m->dir);
    }
    m->done = !m->failed;
    unborrow(p, m, 1);
}

/* The shares of window job j's seconds among the (member, job) uses of w:
 * each instance's own time and its share of the stages it reads among the
 * configs that ask for it, the rest (decoding, filtering) equally. */
static void attribute(const struct plan_ctx *p, const struct pwindow *w, const struct engine_job *j, double *share)
{
    double rest = j->lane_seconds - j->stage_seconds, total = 0;
    for (size_t i = 0; i < j->ninst; i++)
        rest -= j->inst[i].seconds;
    if (rest < 0)
        rest = 0;
    for (size_t u = 0; u < w->nuses; u++) {
        const struct member *m = &p->m[w->uses[2 * u]];
        size_t jj = w->uses[2 * u + 1];
        double s = rest / (double)w->nuses;
        for (size_t k = 0; k < m->a.per_job; k++) {
            size_t i = m->shared[jj * m->a.per_job + k];
            s += (j->inst[i].seconds + j->inst[i].stage_seconds) / instset_users(w->set, i);
        }
        share[u] = s;
        total += s;
    }
    for (size_t u = 0; u < w->nuses; u++)
        share[u] = total > 0 ? j->seconds * share[u] / total : j->seconds / (double)w->nuses;
}

/* Engine callback: window job j finished; every config it served gets its
 * view of the job and its part, and writes its results when it was the
 * config's last window. */
static void on_window_done(struct engine_job *j, void *arg)
{
    struct plan_ctx *p = arg;
    pthread_mutex_lock(&p->mu);
    struct pwindow *w = &p->w[j - p->jobs];
    w->seconds = j->seconds;
    w->decode = j->decode_seconds;
    w->stages = j->stage_seconds;
    w->inst = 0;
    for (size_t i = 0; i < j->ninst; i++)
        w->inst += j->inst[i].seconds;
    w->other = j->lane_seconds - w->decode - w->stages - w->inst;
    if (w->other < 0)
        w->other = 0;
    double *share = calloc(w->nuses ? w->nuses : 1, sizeof *share);
    if (share)
        attribute(p, w, j, share);
    double weight = run_window_weight(j);
    for (size_t u = 0; u < w->nuses; u++) {
        struct member *m = &p->m[w->uses[2 * u]];
        size_t jj = w->uses[2 * u + 1];
        struct engine_job *mj = &m->a.jobs[jj];
        mj->th = j->th;
        atomic_store(&mj->events_done, atomic_load(&j->events_done));
        atomic_store(&mj->bytes_done, atomic_load(&j->bytes_done));
        atomic_store(&mj->bytes_total, atomic_load(&j->bytes_total));
        mj->lanes = j->lanes;
        mj->filter = j->filter;
        mj->seconds = share ? share[u] : j->seconds / (double)w->nuses;
        m->seconds += mj->seconds;
        m->a.info[jj].weight = weight;
        if (m->inputs) {
            struct part_id id;
            run_part_id(m->c, &m->a, jj, &id);
            if (parts_write_job(m->dir, &id, m->inputs, mj, weight) != 0)
                m->parts_failed = 1;
        }
        if (--m->pending == 0)
            complete(p, m);
    }
    free(share);
    pthread_mutex_unlock(&p->mu);
}

/* ---- the plan ------------------------------------------------------------------- */

/* The window of a job reading `path` as `workload` (NULL, NULL: analytic),
 * made when new.  SIZE_MAX when out of memory. */
static size_t window_of(struct plan_ctx *p, size_t *cap, const char *path, const char *workload, const char *family)
{
    for (size_t i = 0; i < p->nw; i++) {
        const struct pwindow *w = &p->w[i];
        if (strcmp(family, w->family))
            continue;
        if ((!path && !w->path) ||
            (path && w->path && !strcmp(path, w->path) && !strcmp(workload, w->workload)))
            return i;
    }
    if (p->nw == *cap) {
        size_t nc = *cap ? *cap * 2 : 32;
        struct pwindow *nw = realloc(p->w, nc * sizeof *nw);
        if (!nw)
            return SIZE_MAX;
        p->w = nw;
        *cap = nc;
    }
    struct pwindow *w = &p->w[p->nw];
    memset(w, 0, sizeof *w);
    p->nw++; /* freed with the plan from here */
    w->path = path ? strdup(path) : NULL; /* the members' copies go when one runs alone */
    w->workload = workload ? strdup(workload) : NULL;
    w->family = family;
    w->set = instset_create();
    if (!w->set || (path && !w->path) || (workload && !w->workload))
        return SIZE_MAX;
    return p->nw - 1;
}

static int add_use(struct pwindow *w, size_t member, size_t job)
{
    if (w->nuses == w->cap) {
        size_t nc = w->cap ? w->cap * 2 : 16;
        size_t *nu = realloc(w->uses, 2 * nc * sizeof *nu);
        if (!nu)
            return -1;
        w->uses = nu;
        w->cap = nc;
    }
    w->uses[2 * w->nuses] = member;
    w->uses[2 * w->nuses + 1] = job;
    w->nuses++;
    return 0;
}

/* Hand member mi's jobs still to compute to their windows.  0, or -1 (out
 * of memory). */
static int plan_member(struct plan_ctx *p, size_t mi, size_t *wcap)
{
    struct member *m = &p->m[mi];
    size_t n = m->a.njobs * m->a.per_job;
    m->shared = malloc((n ? n : 1) * sizeof *m->shared);
    m->win = malloc((m->a.njobs ? m->a.njobs : 1) * sizeof *m->win);
    if (!m->shared || !m->win)
        return -1;
    for (size_t i = 0; i < n; i++)
        m->shared[i] = SIZE_MAX;
    for (size_t j = 0; j < m->a.njobs; j++) {
        m->win[j] = SIZE_MAX;
        struct engine_job *job = &m->a.jobs[j];
        if (job->skip)
            continue;
        size_t wi = window_of(p, wcap, job->trace_path, job->expect_workload, m->c->paper);
        if (wi == SIZE_MAX || add_use(&p->w[wi], mi, j) != 0)
            return -1;
        m->win[j] = wi;
        m->pending++;
        for (size_t k = 0; k < m->a.per_job; k++) {
            struct engine_inst *in = &job->inst[k];
            size_t s = instset_add(p->w[wi].set, in->m, &in->pv, in->wanted_tables);
            if (s == SIZE_MAX)
                return -1;
            m->shared[j * m->a.per_job + k] = s;
            model_out_free(in->out); /* it reads the window's instead */
            in->out = NULL;
            m->a.rows[j * m->a.per_job + k].out = NULL;
        }
    }
    return 0;
}

/* The engine jobs of the windows, and the members' instances pointed at
 * the window outputs.  0, or -1 (out of memory). */
static int build_jobs(struct plan_ctx *p, const struct run_options *o)
{
    p->jobs = calloc(p->nw ? p->nw : 1, sizeof *p->jobs);
    p->work = calloc(p->nw ? p->nw : 1, sizeof *p->work);
    if (!p->jobs || !p->work)
        return -1;
    for (size_t wi = 0; wi < p->nw; wi++) {
        struct pwindow *w = &p->w[wi];
        struct engine_job *job = &p->jobs[wi];
        struct engine_inst *insts = instset_insts(w->set);
        if (!insts && instset_count(w->set))
            return -1;
        job->trace_path = w->path;
        job->expect_workload = w->workload;
        job->inst = insts;
        job->ninst = instset_count(w->set);
        job->max_events = o->max_events;
        double cost = 1; /* decoding */
        for (size_t i = 0; i < job->ninst; i++)
            cost += insts[i].m->cost > 0 ? insts[i].m->cost : 1;
        struct stat st;
        double bytes = w->path && stat(w->path, &st) == 0 ? (double)st.st_size : 1.0;
        p->work[wi] = job->work = bytes * cost;
        for (size_t u = 0; u < w->nuses; u++) {
            struct member *m = &p->m[w->uses[2 * u]];
            size_t j = w->uses[2 * u + 1];
            for (size_t k = 0; k < m->a.per_job; k++) {
                size_t slot = j * m->a.per_job + k;
                m->a.jobs[j].inst[k].out = insts[m->shared[slot]].out;
                m->a.rows[slot].out = insts[m->shared[slot]].out;
            }
        }
    }
    return 0;
}

/* Prepare a stale config as run_config does up to its first job: 0 (in
 * the plan), 1 (failed, printed). */
static int prepare_member(struct member *m)
{
    struct run_options po = m->o;
    po.if_changed = 0; /* checked already */
    const struct config *c = m->c;
    if (run_prepare(c, &po, m->inputs, "", &m->a) != 0)
        return 1;
    m->planned = 1;
    parts_dir(c, m->o.out_dir, m->dir, sizeof m->dir);
    m->first = 0;
    m->last = m->a.njobs;
    if (m->o.nshards > 0)
        run_shard_range(m->a.njobs, m->o.shard, m->o.nshards, &m->first, &m->last);
    size_t bad = run_check_traces(&m->a, m->first, m->last);
    run_report_traces(&m->o, &m->a);
    if (run_check_outputs(c, &m->o, "nothing run") != 0 || bad ||
        run_resume(c, &m->o, &m->a, m->inputs, m->dir, m->first, m->last) == SIZE_MAX) {
        run_free_all(&m->a);
        m->planned = 0;
        return 1;
    }
    return 0;
}

/* ---- accounting ------------------------------------------------------------------- */

static void report(const struct plan_ctx *p, double wall, size_t alone)
{
    size_t inst = 0, asked = 0;
    double js = 0;
    for (size_t wi = 0; wi < p->nw; wi++) {
        inst += instset_count(p->w[wi].set);
        asked += instset_asked(p->w[wi].set);
        js += p->w[wi].seconds;
    }
    fprintf(stderr,
            "hwprof run: one plan for %d configs: %zu window job%s, %zu instances computed for the %zu the "
            "configs ask for, %.1f job-seconds, %.1f s wall\n",
            p->nplan, p->nw, p->nw == 1 ? "" : "s", inst, asked, js, wall);
    fprintf(stderr, "  per window job (a trace window and a family): its seconds; the time its lanes spent decoding, in the stages, in the "
                    "instances' own calls and otherwise (filtering); its instances and configs\n");
    fprintf(stderr, "  %-40s %-10s %8s %7s %7s %9s %6s %5s %7s\n", "window", "family", "seconds", "decode", "stages",
            "instances", "other", "inst", "configs");
    for (size_t wi = 0; wi < p->nw; wi++) {
        const struct pwindow *w = &p->w[wi];
        const struct engine_job *j = &p->jobs[wi];
        const char *name = w->path ? w->path : "(analytic)";
        size_t len = strlen(name);
        if (len > 40)
            name += len - 40;
        if (j->failed)
            fprintf(stderr, "  %-40s %-10s   failed\n", name, w->family);
        else
            fprintf(stderr, "  %-40s %-10s %8.1f %7.1f %7.1f %9.1f %6.1f %5zu %7zu\n", name, w->family, w->seconds,
                    w->decode, w->stages, w->inst, w->other, instset_count(w->set), w->nuses);
    }
    /* per family (the paper folder), in order of first appearance */
    fprintf(stderr, "  %-20s %7s %11s %11s\n", "family", "configs", "job-seconds", "wall share");
    for (size_t i = 0; i < p->nm; i++) {
        const struct member *m = &p->m[i];
        if (!m->planned)
            continue;
        int first = 1;
        for (size_t k = 0; k < i && first; k++)
            first = !(p->m[k].planned && !strcmp(p->m[k].c->paper, m->c->paper));
        if (!first)
            continue;
        double fs = 0;
        int n = 0;
        for (size_t k = i; k < p->nm; k++)
            if (p->m[k].planned && !strcmp(p->m[k].c->paper, m->c->paper)) {
                fs += p->m[k].seconds;
                n++;
            }
        fprintf(stderr, "  %-20s %7d %11.1f %11.1f\n", m->c->paper, n, fs, js > 0 ? wall * fs / js : 0);
    }
    fprintf(stderr, "  %-20s %7d %11.1f %11.1f\n", "total", p->nplan, js, wall);
    if (alone)
        fprintf(stderr, "  (%zu config%s then ran alone: not in these figures)\n", alone, alone == 1 ? "" : "s");
}

/* ---- the entry point ----------------------------------------------------------------- */

static void plan_free(struct plan_ctx *p)
{
    for (size_t i = 0; i < p->nm; i++) {
        struct member *m = &p->m[i];
        if (m->win)
            unborrow(p, m, 0);
        if (m->planned)
            run_free_all(&m->a);
        free(m->shared);
        free(m->win);
        json_decref(m->inputs);
    }
    for (size_t wi = 0; wi < p->nw; wi++) {
        instset_free(p->w[wi].set);
        free(p->w[wi].uses);
        free(p->w[wi].path);
        free(p->w[wi].workload);
    }
    free(p->w);
    free(p->jobs);
    free(p->work);
    free(p->m);
}

/* Remove the parts of m's jobs whose window failed (--no-resume: the run
 * alone after the plan must not take older parts for them). */
static void drop_failed_parts(const struct plan_ctx *p, struct member *m)
{
    for (size_t j = 0; j < m->a.njobs; j++)
        if (m->win[j] != SIZE_MAX && p->jobs[m->win[j]].failed) {
            char path[1400];
            snprintf(path, sizeof path, "%s/job-%zu.json", m->dir, j);
            unlink(path);
        }
}

void run_configs(struct config *const *cs, size_t n, const struct run_options *o, int *failed)
{
    struct plan_ctx p;
    memset(&p, 0, sizeof p);
    p.t0 = run_now();
    p.m = calloc(n ? n : 1, sizeof *p.m);
    size_t *later = calloc(n ? n : 1, sizeof *later); /* configs to run alone after the plan */
    size_t nlater = 0;
    if (!p.m || !later) {
        fprintf(stderr, "hwprof: out of memory\n");
        for (size_t i = 0; i < n; i++)
            failed[i] = cs[i] != NULL;
        free(p.m);
        free(later);
        return;
    }
    /* The stale configs: --if-changed first, one config at a time. */
    for (size_t i = 0; i < n; i++) {
        failed[i] = 0;
        if (!cs[i])
            continue;
        struct member *m = &p.m[p.nm];
        m->c = cs[i];
        m->index = i;
        m->o = *o;
        if (cs[i]->traces[0]) /* a config's own "traces" folder replaces --traces */
            m->o.traces_dir = cs[i]->traces;
        m->inputs = freshness_inputs(m->c, &m->o);
        if (o->if_changed && freshness_current(m->c, &m->o, m->inputs)) {
            if (!o->quiet)
                fprintf(stderr, "%s: up to date (%s/%s/%s.csv)%s\n", m->c->name, m->o.out_dir, m->c->paper,
                        m->c->stem, o->nshards > 0 ? ": shard not run" : "");
            json_decref(m->inputs);
            m->inputs = NULL;
            continue;
        }
        /* a second config writing the same files runs after the first */
        char dir[1300];
        parts_dir(m->c, m->o.out_dir, dir, sizeof dir);
        int dup = 0;
        for (size_t k = 0; k < p.nm && !dup; k++) {
            char d2[1300];
            parts_dir(p.m[k].c, p.m[k].o.out_dir, d2, sizeof d2);
            dup = !strcmp(dir, d2);
        }
        if (dup) {
            json_decref(m->inputs);
            m->inputs = NULL;
            later[nlater++] = i;
            continue;
        }
        p.nm++;
    }
    /* One stale config (a config added later) runs alone, as it always did. */
    if (p.nm < 2) {
        for (size_t i = 0; i < p.nm; i++) {
            json_decref(p.m[i].inputs);
            p.m[i].inputs = NULL;
            failed[p.m[i].index] = run_config(p.m[i].c, &p.m[i].o) != 0;
        }
        p.nm = 0;
    } else {
        size_t wcap = 0;
        int oom = 0;
        for (size_t i = 0; i < p.nm && !oom; i++) {
            struct member *m = &p.m[i];
            if (prepare_member(m) != 0) {
                failed[m->index] = 1;
                m->failed = 1;
                continue;
            }
            p.nplan++;
            oom = plan_member(&p, i, &wcap) != 0;
        }
        oom = oom || build_jobs(&p, o) != 0;
        pthread_mutex_init(&p.mu, NULL);
        if (oom) {
            fprintf(stderr, "hwprof: out of memory\n");
            for (size_t i = 0; i < p.nm; i++)
                failed[p.m[i].index] = 1;
        } else {
            /* members with nothing left to compute (resumed, or an empty shard) */
            for (size_t i = 0; i < p.nm; i++)
                if (p.m[i].planned && !p.m[i].failed && p.m[i].pending == 0)
                    complete(&p, &p.m[i]);
            char name[64];
            snprintf(name, sizeof name, "plan of %d configs", p.nplan);
            struct engine_options eo = { o->threads > 0 ? o->threads : engine_default_threads(), o->max_lanes,
                                         FILTER_AUTO, on_window_done, &p };
            struct progress *pr = progress_start(name, p.jobs, p.nw, p.work, o->quiet, o->progress_interval);
            engine_run(p.jobs, p.nw, &eo);
            progress_stop(pr);
            double wall = run_now() - p.t0;
            /* A config one of whose windows failed runs alone: its own
             * errors, and the windows that did finish from their parts. */
            size_t alone = 0;
            for (size_t i = 0; i < p.nm; i++) {
                struct member *m = &p.m[i];
                if (!m->planned || m->failed || m->done)
                    continue;
                if (o->no_resume)
                    drop_failed_parts(&p, m);
                m->planned = 0;
                unborrow(&p, m, 0);
                run_free_all(&m->a);
                struct run_options fo = m->o;
                fo.no_resume = 0; /* the parts are this run's */
                fo.if_changed = 0;
                alone++;
                failed[m->index] = run_config(m->c, &fo) != 0;
            }
            for (size_t i = 0; i < p.nm; i++)
                if (p.m[i].failed)
                    failed[p.m[i].index] = 1;
            if (!o->quiet)
                report(&p, wall, alone);
        }
        pthread_mutex_destroy(&p.mu);
    }
    plan_free(&p);
    for (size_t k = 0; k < nlater; k++) {
        struct run_options lo = *o;
        if (cs[later[k]]->traces[0])
            lo.traces_dir = cs[later[k]]->traces;
        failed[later[k]] = run_config(cs[later[k]], &lo) != 0;
    }
    free(later);
}
