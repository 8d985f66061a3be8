/* tg_instr.c - hwptrace's instrumentation in trace mode: the template
 * (DEF record) of each superblock and the inline IR that stores its
 * dynamic fields at fixed offsets from the cursor; and in fast-forward
 * mode (--skip) the instruction count per segment and the switch to
 * tracing at the skip boundary.  The memory accesses recorded are
 * Lackey's (tg_stmt_mem).
 */

#include "tg_int.h"

#define TG_MAX_ITEMS 4096

static struct tg_item tg_items[TG_MAX_ITEMS];
UInt tg_next_id;

typedef struct {
   IRSB*   sb;
   IRTemp  cur;        /* record base (points at the block id) */
   UInt    off;        /* next free dynamic offset (from cur) */
   Int     nitems;
   Int     last_kind;  /* Lackey merge state: 0 none, 1 Dr (mergeable) */
   IRExpr* last_addr;  /* address atom of the mergeable Dr */
   UInt    last_size;
   Addr    iaddr;      /* current instruction */
   UInt    ilen;
} TGState;

IRExpr* tg_assign(IRSB* sb, IRType ty, IRExpr* e)
{
   IRTemp t = newIRTemp(sb->tyenv, ty);
   addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

/* Store an atom at cur+off. */
static void tg_emit_store(TGState* s, UInt off, IRExpr* data)
{
   IRExpr* a = tg_assign(s->sb, Ity_I64,
                         IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(s->cur),
                                      IRExpr_Const(IRConst_U64(off))));
   addStmtToIRSB(s->sb, IRStmt_Store(Iend_LE, a, data));
}

/* tg_cur = cur + off: the record so far is kept; guarded (a taken exit)
   or not (the block end). */
static void tg_advance(TGState* s, IRExpr* guard)
{
   IRExpr* a = IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_cur));
   IRExpr* nc = tg_assign(s->sb, Ity_I64, IRExpr_Binop(Iop_Add64,
                  IRExpr_RdTmp(s->cur), IRExpr_Const(IRConst_U64(s->off))));
   if (guard != NULL)
      addStmtToIRSB(s->sb, IRStmt_StoreG(Iend_LE, a, nc, guard));
   else
      addStmtToIRSB(s->sb, IRStmt_Store(Iend_LE, a, nc));
}

static struct tg_item* tg_new_item(TGState* s, UChar op)
{
   struct tg_item* it;
   tl_assert(s->nitems < TG_MAX_ITEMS);
   it = &tg_items[s->nitems++];
   VG_(memset)(it, 0, sizeof *it);
   it->op = op;
   it->pc = s->iaddr;
   return it;
}

/* Record a 64-bit atom of an item (an access's address, a block end's
   destination): a constant goes into the template (it->a), anything else
   is stored at run time (8 bytes) and flagged with dynflag. */
static void tg_word(TGState* s, struct tg_item* it, IRExpr* atom, UChar dynflag)
{
   tl_assert(isIRAtom(atom));
   if (atom->tag == Iex_Const) {
      it->a = atom->Iex.Const.con->Ico.U64;
   } else {
      it->flags |= dynflag;
      tg_emit_store(s, s->off, atom);
      s->off += 8;
   }
}

static void tg_guard(TGState* s, struct tg_item* it, IRExpr* guard)
{
   if (guard == NULL) return;
   it->flags |= TG_F_GUARD;
   tg_emit_store(s, s->off, tg_assign(s->sb, Ity_I8, IRExpr_Unop(Iop_1Uto8, guard)));
   s->off += 1;
}

/* Value of a loaded temp (or NULL): record its low bytes. */
static void tg_value(TGState* s, struct tg_item* it, IRExpr* val)
{
   IRType ty;
   IRExpr* v = NULL;
   UChar nb = 0;
   if (val == NULL || !clo_trace_values) {
      it->flags |= TG_F_NOVALUE;
      return;
   }
   ty = typeOfIRExpr(s->sb->tyenv, val);
   switch (ty) {
      case Ity_I8:  v = val; nb = 1; break;
      case Ity_I16: v = val; nb = 2; break;
      case Ity_I32: case Ity_F32: v = val; nb = 4; break;
      case Ity_I64: case Ity_F64: v = val; nb = 8; break;
      case Ity_V128:
         v = tg_assign(s->sb, Ity_I64, IRExpr_Unop(Iop_V128to64, val)); nb = 8; break;
      case Ity_V256:
         v = tg_assign(s->sb, Ity_I64, IRExpr_Unop(Iop_V256to64_0, val)); nb = 8; break;
      case Ity_I128:
         v = tg_assign(s->sb, Ity_I64, IRExpr_Unop(Iop_128to64, val)); nb = 8; break;
      default:
         it->flags |= TG_F_NOVALUE;
         return;
   }
   it->vbytes = nb;
   tg_emit_store(s, s->off, v);
   s->off += nb;
}

/* A load (Lackey Dr).  val: the temp holding the loaded value, or NULL.
   guard: NULL or the LoadG guard. */
static void tg_load(TGState* s, IRExpr* addr, UInt size, IRExpr* guard, IRExpr* val)
{
   struct tg_item* it;
   if (!clo_trace_mem) return;
   it = tg_new_item(s, TG_OP_LOAD);
   it->size = size;
   tg_word(s, it, addr, TG_F_DYNADDR);
   tg_guard(s, it, guard);
   tg_value(s, it, val);
   if (guard == NULL) {
      s->last_kind = 1; s->last_addr = addr; s->last_size = size;
   } else {
      s->last_kind = 0;
   }
}

/* A store (Lackey Dw); merged into the preceding load like Lackey does. */
static void tg_store(TGState* s, IRExpr* addr, UInt size, IRExpr* guard)
{
   struct tg_item* it;
   if (!clo_trace_mem) return;
   it = tg_new_item(s, TG_OP_STORE);
   it->size = size;
   if (guard == NULL && s->last_kind == 1 && s->last_size == size
       && eqIRAtom(s->last_addr, addr)) {
      it->flags |= TG_F_MODIFY;
      s->last_kind = 0;
      return;
   }
   tg_word(s, it, addr, TG_F_DYNADDR);
   tg_guard(s, it, guard);
   s->last_kind = 0;
}

/* Load/store events of one statement, emitted after the statement so that
   loaded values are available. */
static void tg_stmt_mem(TGState* s, IRStmt* st)
{
   IRTypeEnv* tyenv = s->sb->tyenv;
   switch (st->tag) {
      case Ist_WrTmp: {
         IRExpr* data = st->Ist.WrTmp.data;
         if (data->tag == Iex_Load)
            tg_load(s, data->Iex.Load.addr, sizeofIRType(data->Iex.Load.ty),
                    NULL, IRExpr_RdTmp(st->Ist.WrTmp.tmp));
         break;
      }
      case Ist_Store: {
         IRType ty = typeOfIRExpr(tyenv, st->Ist.Store.data);
         tl_assert(ty != Ity_INVALID);
         tg_store(s, st->Ist.Store.addr, sizeofIRType(ty), NULL);
         break;
      }
      case Ist_StoreG: {
         IRStoreG* sg = st->Ist.StoreG.details;
         IRType ty = typeOfIRExpr(tyenv, sg->data);
         tl_assert(ty != Ity_INVALID);
         tg_store(s, sg->addr, sizeofIRType(ty), sg->guard);
         break;
      }
      case Ist_LoadG: {
         IRLoadG* lg = st->Ist.LoadG.details;
         IRType ty = Ity_INVALID, tyw = Ity_INVALID;
         typeOfIRLoadGOp(lg->cvt, &tyw, &ty);
         tl_assert(ty != Ity_INVALID);
         tg_load(s, lg->addr, sizeofIRType(ty), lg->guard, IRExpr_RdTmp(lg->dst));
         break;
      }
      case Ist_Dirty: {
         IRDirty* d = st->Ist.Dirty.details;
         if (d->mFx != Ifx_None) {
            tl_assert(d->mAddr != NULL && d->mSize != 0);
            if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
               tg_load(s, d->mAddr, d->mSize, NULL, NULL);
            if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
               tg_store(s, d->mAddr, d->mSize, NULL);
         }
         break;
      }
      case Ist_CAS: {
         IRCAS* cas = st->Ist.CAS.details;
         Int size = sizeofIRType(typeOfIRExpr(tyenv, cas->dataLo));
         if (cas->dataHi != NULL) size *= 2;
         tg_load(s, cas->addr, size, NULL, IRExpr_RdTmp(cas->oldLo));
         tg_store(s, cas->addr, size, NULL);
         break;
      }
      case Ist_LLSC: {
         IRType ty;
         if (st->Ist.LLSC.storedata == NULL) {
            ty = typeOfIRTemp(tyenv, st->Ist.LLSC.result);
            tg_load(s, st->Ist.LLSC.addr, sizeofIRType(ty), NULL,
                    IRExpr_RdTmp(st->Ist.LLSC.result));
         } else {
            ty = typeOfIRExpr(tyenv, st->Ist.LLSC.storedata);
            tg_store(s, st->Ist.LLSC.addr, sizeofIRType(ty), NULL);
         }
         break;
      }
      default:
         break;
   }
}

/* *counter += n (generated code); returns the new value. */
IRExpr* tg_add64(IRSB* sb, ULong* counter, UInt n)
{
   IRExpr* a = IRExpr_Const(IRConst_U64((ULong)(Addr)counter));
   IRExpr* t = tg_assign(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, a));
   IRExpr* u = tg_assign(sb, Ity_I64, IRExpr_Binop(Iop_Add64, t,
                                        IRExpr_Const(IRConst_U64(n))));
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, a, u));
   return u;
}

/* Number of IMarks in sbIn from statement i up to the next Ist_Exit
   (inclusive of the instruction holding it), i.e. a segment. */
static UInt tg_segment_insns(IRSB* sbIn, Int i)
{
   UInt n = 0;
   for (; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      if (st->tag == Ist_IMark) n++;
      else if (st->tag == Ist_Exit) break;
   }
   return n;
}

/* Copy the statements of sbIn from i (an IMark) on to sbOut, with
   count(sbOut, arg, n) before each segment of n > 0 instructions: at i
   and after each exit. */
IRSB* tg_copy_counting(IRSB* sbIn, IRSB* sbOut, Int i,
                       void (*count)(IRSB*, void*, UInt), void* arg)
{
   UInt n = tg_segment_insns(sbIn, i);
   if (n > 0) count(sbOut, arg, n);
   for (; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      addStmtToIRSB(sbOut, st);
      if (st->tag == Ist_Exit) {
         n = tg_segment_insns(sbIn, i + 1);
         if (n > 0) count(sbOut, arg, n);
      }
   }
   return sbOut;
}

static void tg_count_icount(IRSB* sb, void* counter, UInt n)
{
   tg_add64(sb, (ULong*)counter, n);
}

/* Guarded dirty call fn(GSPTR) that may write CMSTART/CMLEN (and, through
   memory, tg_cur / tg_mode), then an exit to the block start that makes the
   scheduler discard all translations when exit_guard holds. */
static void tg_call_gs(IRSB* sb, const HChar* name, void* fn, IRExpr* guard)
{
   IRDirty* di = unsafeIRDirty_0_N(0, name, VG_(fnptr_to_fnentry)(fn),
                                   mkIRExprVec_1(IRExpr_GSPTR()));
   di->guard = guard;
   di->mFx = Ifx_Modify;
   di->mAddr = IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_cur));
   di->mSize = 8;
   di->nFxState = 2;
   VG_(memset)(&di->fxState, 0, sizeof(di->fxState));
   di->fxState[0].fx = Ifx_Write;
   di->fxState[0].offset = offsetof(VexGuestAMD64State, guest_CMSTART);
   di->fxState[0].size = 8;
   di->fxState[1].fx = Ifx_Write;
   di->fxState[1].offset = offsetof(VexGuestAMD64State, guest_CMLEN);
   di->fxState[1].size = 8;
   addStmtToIRSB(sb, IRStmt_Dirty(di));
}

static void tg_exit_discard(IRSB* sb, IRExpr* guard, Addr restart)
{
   addStmtToIRSB(sb, IRStmt_Exit(guard, Ijk_InvalICache,
                                 IRConst_U64((ULong)restart), sb->offsIP));
}

/* Fast-forward: count instructions per segment; divert to tracing when the
   block may contain instruction skip+1. */
IRSB* tg_instrument_ff(IRSB* sbIn, IRSB* sbOut, Int i, Addr restart)
{
   UInt total = 0;
   Int j;
   for (j = i; j < sbIn->stmts_used; j++)
      if (sbIn->stmts[j]->tag == Ist_IMark) total++;
   if (total > 0) {
      IRExpr* guard;
      if ((ULong)clo_skip < total) {
         guard = IRExpr_Const(IRConst_U1(True));
      } else {
         IRExpr* ic = tg_assign(sbOut, Ity_I64,
            IRExpr_Load(Iend_LE, Ity_I64,
                        IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_icount))));
         guard = tg_assign(sbOut, Ity_I1,
            IRExpr_Binop(Iop_CmpLT64U,
                         IRExpr_Const(IRConst_U64((ULong)clo_skip - total)), ic));
      }
      tg_call_gs(sbOut, "tg_ff_end", tg_ff_end, guard);
      tg_exit_discard(sbOut, guard, restart);
   }
   return tg_copy_counting(sbIn, sbOut, i, tg_count_icount, &tg_icount);
}

IRSB* tg_instrument_trace(IRSB* sbIn, IRSB* sbOut, Int i, Addr restart)
{
   TGState s;
   IRExpr *t0, *g, *gs, *next = sbIn->next;
   UInt id = tg_next_id++;
   Bool count = clo_capture > 0;
   Int k;

   VG_(memset)(&s, 0, sizeof s);
   s.sb = sbOut;
   tl_assert(id < TG_TAG_FIRST_CTRL);

   /* Entry: flush if needed; stop if the flush says so. */
   t0 = tg_assign(sbOut, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
                  IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_cur))));
   g = tg_assign(sbOut, Ity_I1, IRExpr_Binop(Iop_CmpLT64U,
                 IRExpr_Const(IRConst_U64((ULong)(Addr)tg_soft_end)), t0));
   tg_call_gs(sbOut, "tg_flush_helper", tg_flush_helper, g);
   s.cur = newIRTemp(sbOut->tyenv, Ity_I64);
   addStmtToIRSB(sbOut, IRStmt_WrTmp(s.cur, IRExpr_Load(Iend_LE, Ity_I64,
                 IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_cur)))));
   if (count) {
      gs = tg_assign(sbOut, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, IRExpr_RdTmp(s.cur),
                                                 IRExpr_Const(IRConst_U64(0))));
      tg_exit_discard(sbOut, gs, restart);
      tg_add64(sbOut, &tg_icount, tg_segment_insns(sbIn, i));
   }
   tg_emit_store(&s, 0, IRExpr_Const(IRConst_U32(id)));
   s.off = 4;

   for (; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      switch (st->tag) {
         case Ist_IMark: {
            struct tg_item* it;
            s.iaddr = (Addr)st->Ist.IMark.addr;
            s.ilen = st->Ist.IMark.len;
            it = tg_new_item(&s, TG_OP_INSN);
            it->size = s.ilen;
            s.last_kind = 0;
            addStmtToIRSB(sbOut, st);
            break;
         }
         case Ist_Exit: {
            Addr dst = (Addr)st->Ist.Exit.dst->Ico.U64;
            Bool assist = st->Ist.Exit.jk != Ijk_Boring;
            s.last_kind = 0;
            /* Every exit gets an item and a taken byte (the packer must
               know where a block left); the packer reports it as a branch
               according to the HELLO options. */
            {
               struct tg_item* it = tg_new_item(&s, TG_OP_EXIT);
               IRExpr* g8;
               it->flags = assist ? TG_F_ASSIST : 0;
               it->b = s.iaddr + s.ilen;
               if (dst == s.iaddr + s.ilen) {
                  it->flags |= TG_F_INVERTED;
                  it->a = 0; /* resolved below */
               } else {
                  it->a = dst;
               }
               g8 = tg_assign(sbOut, Ity_I8, IRExpr_Unop(Iop_1Uto8, st->Ist.Exit.guard));
               tg_emit_store(&s, s.off, g8);
               s.off += 1;
            }
            tg_advance(&s, st->Ist.Exit.guard);
            addStmtToIRSB(sbOut, st);
            if (count) {
               UInt n = tg_segment_insns(sbIn, i + 1);
               if (n > 0) tg_add64(sbOut, &tg_icount, n);
            }
            break;
         }
         default:
            addStmtToIRSB(sbOut, st);
            tg_stmt_mem(&s, st);
            break;
      }
   }

   /* Block end: call / return / indirect jump. */
   if (clo_trace_branches) {
      UInt kind = TG_END_NONE;
      switch (sbIn->jumpkind) {
         case Ijk_Call: kind = TG_END_CALL; break;
         case Ijk_Ret: kind = TG_END_RET; break;
         case Ijk_Boring:
            if (next->tag != Iex_Const) kind = TG_END_IJUMP;
            break;
         default: break;
      }
      if (kind != TG_END_NONE) {
         struct tg_item* it = tg_new_item(&s, TG_OP_END);
         it->size = kind;
         tg_word(&s, it, next, TG_F_DYNDEST);
      }
   }
   tg_advance(&s, NULL);
   tl_assert(s.off <= TG_MAX_BLOCK_BYTES);

   /* Resolve the taken targets of inverted exits: the not-exit path goes to
      the next instruction of the block, or to the block's constant next. */
   for (k = 0; k < s.nitems; k++) {
      struct tg_item* it = &tg_items[k];
      if (it->op == TG_OP_EXIT && (it->flags & TG_F_INVERTED)) {
         Int m;
         for (m = k + 1; m < s.nitems && tg_items[m].op != TG_OP_INSN; m++) ;
         if (m < s.nitems) it->a = tg_items[m].pc;
         else if (next->tag == Iex_Const) it->a = next->Iex.Const.con->Ico.U64;
         else it->a = 0;
      }
   }
   tg_emit_def(id, tg_items, s.nitems);
   return sbOut;
}
