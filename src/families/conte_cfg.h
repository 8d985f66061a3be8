/* conte_cfg.h - weighted control-flow graph (WCFG) built from the dynamic
 * event stream, shared by the Conte et al. hardware-profiling models.
 *
 * Two phases:
 *  1. Hot path (conte_cfg_insn / _cond / _call / _ret / _ijump): records
 *     "runs" - maximal straight-line stretches of executed instructions that
 *     start after a control transfer and end at one - keyed by start address,
 *     the arcs between runs, and one record per conditional branch (exact
 *     executed/taken counts plus the estimate accumulated by a hardware
 *     model at its sampling points).  No allocation per event: call
 *     conte_cfg_reserve(n) before feeding n events (it grows tables by
 *     doubling, once per batch at most).
 *  2. conte_graph_build() (end of trace): every run start is a basic-block
 *     leader; runs are split at the leaders that fall inside them, which
 *     yields the basic blocks, the fall-through arcs that have no branch of
 *     their own (paper section 3.1) and exact node and arc weights.
 *
 * Block definition (see paper-repro.md, Conte choice 3): a block starts
 * at the first instruction after any control-flow event (conditional branch,
 * taken or not; call; return; indirect jump) or after an unreported
 * discontinuity (pc != previous pc + length: a direct jump, or Valgrind
 * chasing), and at any address that starts a block elsewhere.  The graph is
 * intra-procedural: a call block's successor is its return point
 * (call pc + length); callee entries and return points have no arc from the
 * call or return itself.  Returns end a block with no successor.
 */
#ifndef CONTE_CFG_H
#define CONTE_CFG_H

#include <stddef.h>
#include <stdint.h>

#define CONTE_NONE UINT32_MAX

/* How a block ends. */
enum conte_term {
    CT_NONE = 0,
    CT_FALL,  /* falls into the next leader: no branch of its own */
    CT_COND,  /* conditional branch */
    CT_CALL,  /* call: successor = return point */
    CT_RET,   /* return: no intra-procedural successor */
    CT_IJUMP, /* indirect jump: successors = observed targets */
    CT_JUMP,  /* unreported discontinuity (direct jump) */
    CT_END    /* end of trace */
};

/* One conditional branch: the WCFG arc table entry the kernel would update. */
struct conte_branch {
    uint64_t pc, target, fallthru;
    uint64_t exec, taken;   /* exact counts over the whole window */
    double est_taken;       /* estimated weight of the taken arc */
    double est_fall;        /* estimated weight of the fall-through arc */
};

struct conte_cfg;

/* capacity_hint: initial number of runs/branches/arcs (tables grow). NULL on OOM. */
struct conte_cfg *conte_cfg_create(size_t capacity_hint);
/* Drops one reference (the creator holds the first); frees at the last.  Accepts NULL. */
void conte_cfg_free(struct conte_cfg *c);
/* One more owner of c (models that share one WCFG); returns c. */
struct conte_cfg *conte_cfg_ref(struct conte_cfg *c);
/* Make room for n more events without allocation.  Aborts on OOM. */
void conte_cfg_reserve(struct conte_cfg *c, size_t n);

/* Hot path, in program order. */
void conte_cfg_insn(struct conte_cfg *c, uint64_t pc, uint32_t len);

/* The stream state a straight-line instruction touches: the first member
 * of struct conte_cfg, so conte_cfg_insn_fast can handle the common case
 * (the next instruction of a known, open run) inline. */
struct conte_cfg_fast {
    uint64_t insns;     /* instructions so far */
    uint64_t last_pc;
    uint32_t last_len;
    uint32_t cur;       /* open run or CONTE_NONE */
    uint8_t pend;       /* pending terminator kind (CT_NONE if none) */
    uint8_t recording;  /* the open run is new: record its instructions */
    uint8_t have_last;
};
/* conte_cfg_insn, with the common case inline (same effect). */
static inline void conte_cfg_insn_fast(struct conte_cfg *c, uint64_t pc, uint32_t len)
{
    struct conte_cfg_fast *f = (struct conte_cfg_fast *)c;
    if (f->cur != CONTE_NONE && f->pend == 0 && !f->recording && pc == f->last_pc + f->last_len) {
        f->insns++;
        f->last_pc = pc;
        f->last_len = len;
        return;
    }
    conte_cfg_insn(c, pc, len);
}
/* Returns the branch slot (stable index for conte_cfg_branch). */
uint32_t conte_cfg_cond(struct conte_cfg *c, uint64_t pc, uint64_t target, uint64_t fallthru, int taken);
void conte_cfg_call(struct conte_cfg *c, uint64_t pc);
void conte_cfg_ret(struct conte_cfg *c, uint64_t pc);
void conte_cfg_ijump(struct conte_cfg *c, uint64_t pc);
/* End of trace: closes the open run. */
void conte_cfg_end(struct conte_cfg *c);

struct conte_branch *conte_cfg_branch(struct conte_cfg *c, uint32_t slot);
size_t conte_cfg_nbranches(const struct conte_cfg *c);
uint64_t conte_cfg_insns(const struct conte_cfg *c);
uint64_t conte_cfg_conds(const struct conte_cfg *c); /* dynamic conditional branches */

/* Finished graph.  Arcs out of block b: out_idx[out_off[b] .. out_off[b+1]),
 * arcs into b: in_idx[in_off[b] .. in_off[b+1]) (indices into arcs). */
struct conte_block {
    uint64_t start;
    uint64_t count;    /* exact executions */
    uint32_t ninsn;    /* static instructions */
    uint32_t branch;   /* branch slot if term == CT_COND, else CONTE_NONE */
    uint8_t term;      /* enum conte_term */
};
struct conte_arc {
    uint32_t src, dst; /* block indices */
    uint64_t count;    /* exact traversals */
    uint8_t follow;    /* trace selection may grow along it (not returns/indirect) */
};
struct conte_graph {
    size_t nblocks, narcs;
    struct conte_block *blocks;
    struct conte_arc *arcs;
    uint32_t *out_off, *out_idx, *in_off, *in_idx;
};

/* Build from the recorded runs (call after conte_cfg_end).  NULL on OOM. */
struct conte_graph *conte_graph_build(const struct conte_cfg *c);
/* Build from explicit arrays (tests, tools).  term may be NULL (all CT_FALL). */
struct conte_graph *conte_graph_from_arrays(size_t nblocks, const uint64_t *count, const uint32_t *ninsn,
                                            const uint8_t *term, size_t narcs, const uint32_t *src,
                                            const uint32_t *dst, const uint64_t *arc_count);
void conte_graph_free(struct conte_graph *g); /* accepts NULL */

/* Exact weights: node = execution count, arc = traversal count. */
void conte_graph_exact(const struct conte_graph *g, double *node_w, double *arc_w);
/* Estimated weights from the branches' est_taken/est_fall: arcs of
 * conditional blocks come from the estimate; arcs of blocks with a single
 * successor (fall-through, call, direct jump, single-target indirect jump)
 * are inferred from the graph structure (section 3.1, option 1): they carry
 * max(flow in, flow out) of their source, or of their destination when the
 * destination has no other predecessor, iterated to a fixed point (at most
 * 64 rounds).  Node weight = max(flow in, flow out) (section 3.4).
 * Returns the number of rounds used. */
int conte_graph_estimate(const struct conte_graph *g, const struct conte_cfg *c, double *node_w, double *arc_w);

#endif
