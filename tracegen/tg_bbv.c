/* tg_bbv.c - hwptrace's basic-block-vector mode (--bbv-out, --bbv-slice,
 * --bbv-pc-out): no trace; the whole run cut into slices of exactly N
 * instructions, counted as traces count them, each slice's vector written
 * in exp-bbv's text format (tracegen/README.md, "Basic-block vectors").
 */

#include "tg_int.h"

/* For SimPoint: exp-bbv's output, but with the slices cut exactly where a
   capture's --skip counts, so that a window --skip k*N --capture N of the
   same (pinned) run is slice k.  Stock exp-bbv counts a rep-prefixed
   instruction once per execution (we count every iteration, as traces and
   Lackey do) and closes an interval one instruction late, so its slices
   drift from our windows.

   A block is a superblock, named by the address of its first instruction
   (as exp-bbv does); ids are given at the block's first translation,
   which is its first execution (1, 2, ...), and kept if the code is
   translated again.  A block's count in a slice is the number of its
   instructions executed in that slice.  No helper call per block: each
   exit-delimited segment of n instructions adds n to the instruction
   counter and to its block's counter inline (count-ahead, as in skip mode:
   a segment's instructions all run unless the program faults), and calls
   tg_bbv_cross only when the counter reaches the end of the slice.  That
   call gives the segment's instructions beyond the boundary to the next
   slice and writes the finished slice: "T", then ":id:count   " for every
   block with a non-zero count in id order, then LF (exp-bbv's spelling,
   three spaces included).  At exit the last, partial slice is written if
   it has instructions, so the counts of all lines add up to the run's
   instruction count.  Threads are not told apart (Valgrind runs one at a
   time; the suite is single-threaded). */

typedef struct {
   ULong count;          /* instructions in the current slice (generated code) */
   Addr addr;            /* first instruction of the superblock */
   UInt id;
   const HChar* fn;      /* function name at translation time, for --bbv-pc-out */
} TGBlock;

#define TG_BBV_CHUNK 4096
static TGBlock** tg_bbv_chunks;   /* blocks by id - 1, in chunks that never move */
static UInt tg_bbv_nchunks, tg_bbv_nblocks;
static TGBlock** tg_bbv_hash;     /* open addressing on addr */
static UInt tg_bbv_hash_size;
static ULong tg_bbv_next;         /* icount at which the current slice ends */
static ULong tg_bbv_slices;
static Int tg_bbv_fd = -1;
static UChar tg_bbv_buf[1 << 16];
static UInt tg_bbv_used;

/* Block id i + 1. */
static TGBlock* tg_bbv_nth(UInt i)
{
   return &tg_bbv_chunks[i / TG_BBV_CHUNK][i % TG_BBV_CHUNK];
}

static UInt tg_bbv_slot(Addr a, UInt size)
{
   ULong h = (ULong)a * 0x9e3779b97f4a7c15ULL;
   return (UInt)(h >> 32) & (size - 1);
}

static void tg_bbv_grow(void)
{
   UInt size = tg_bbv_hash_size ? 2 * tg_bbv_hash_size : 1u << 16, i, k;
   TGBlock** h = VG_(calloc)("hwptrace.bbv.hash", size, sizeof(TGBlock*));
   for (i = 0; i < tg_bbv_hash_size; i++) {
      TGBlock* b = tg_bbv_hash[i];
      if (!b) continue;
      for (k = tg_bbv_slot(b->addr, size); h[k]; k = (k + 1) & (size - 1)) ;
      h[k] = b;
   }
   if (tg_bbv_hash) VG_(free)(tg_bbv_hash);
   tg_bbv_hash = h;
   tg_bbv_hash_size = size;
}

/* The block of the superblock at a; a new one gets the next id. */
static TGBlock* tg_bbv_block(Addr a)
{
   UInt k;
   TGBlock* b;
   const HChar* fn;
   if (2 * (tg_bbv_nblocks + 1) > tg_bbv_hash_size) tg_bbv_grow();
   for (k = tg_bbv_slot(a, tg_bbv_hash_size); tg_bbv_hash[k]; k = (k + 1) & (tg_bbv_hash_size - 1))
      if (tg_bbv_hash[k]->addr == a) return tg_bbv_hash[k];
   if (tg_bbv_nblocks % TG_BBV_CHUNK == 0) {
      tg_bbv_chunks = VG_(realloc)("hwptrace.bbv.chunks", tg_bbv_chunks,
                                   (tg_bbv_nchunks + 1) * sizeof(TGBlock*));
      tg_bbv_chunks[tg_bbv_nchunks++] = VG_(calloc)("hwptrace.bbv.blocks", TG_BBV_CHUNK,
                                                    sizeof(TGBlock));
   }
   b = tg_bbv_nth(tg_bbv_nblocks);
   b->addr = a;
   b->id = ++tg_bbv_nblocks;
   b->fn = NULL;
   if (clo_bbv_pc_out != NULL)
      b->fn = VG_(get_fnname)(VG_(current_DiEpoch)(), a, &fn) ? VG_(strdup)("hwptrace.bbv.fn", fn)
                                                             : "???";
   tg_bbv_hash[k] = b;
   return b;
}

static void tg_bbv_flush(void)
{
   if (tg_bbv_used) tg_write_all_fd(tg_bbv_fd, tg_bbv_buf, tg_bbv_used);
   tg_bbv_used = 0;
}

static void tg_bbv_put(const HChar* str)
{
   SizeT n = VG_(strlen)(str);
   if (tg_bbv_used + n > sizeof tg_bbv_buf) tg_bbv_flush();
   VG_(memcpy)(tg_bbv_buf + tg_bbv_used, str, n);
   tg_bbv_used += n;
}

/* Write the current slice's vector and clear the counts. */
static void tg_bbv_dump(void)
{
   UInt i;
   HChar item[64];
   tg_bbv_put("T");
   for (i = 0; i < tg_bbv_nblocks; i++) {
      TGBlock* b = tg_bbv_nth(i);
      if (b->count == 0) continue;
      VG_(sprintf)(item, ":%u:%llu   ", b->id, b->count);
      tg_bbv_put(item);
      b->count = 0;
   }
   tg_bbv_put("\n");
   tg_bbv_slices++;
}

/* Generated code: block b's segment of n instructions took tg_icount to
   or past tg_bbv_next (b->count includes the n). */
static VG_REGPARM(2) void tg_bbv_cross(TGBlock* b, ULong n)
{
   while (tg_icount >= tg_bbv_next) {
      ULong over = tg_icount - tg_bbv_next;   /* this segment's, after the boundary */
      b->count -= over;
      tg_bbv_dump();
      b->count = over;
      tg_bbv_next += (ULong)clo_bbv_slice;
   }
}

/* Inline: tg_icount += n; b->count += n; if tg_icount >= tg_bbv_next, call
   tg_bbv_cross(b, n). */
static void tg_bbv_count(IRSB* sb, void* blk, UInt n)
{
   TGBlock* b = blk;
   IRExpr *ic, *nx, *g;
   IRDirty* di;
   ic = tg_add64(sb, &tg_icount, n);
   tg_add64(sb, &b->count, n);
   nx = tg_assign(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
                  IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_bbv_next))));
   g = tg_assign(sb, Ity_I1, IRExpr_Binop(Iop_CmpLE64U, nx, ic));
   di = unsafeIRDirty_0_N(2, "tg_bbv_cross", VG_(fnptr_to_fnentry)(tg_bbv_cross),
                          mkIRExprVec_2(mkIRExpr_HWord((HWord)b), mkIRExpr_HWord(n)));
   di->guard = g;
   di->mFx = Ifx_Modify;           /* the counters and tg_bbv_next */
   di->mAddr = IRExpr_Const(IRConst_U64((ULong)(Addr)&tg_bbv_next));
   di->mSize = 8;
   addStmtToIRSB(sb, IRStmt_Dirty(di));
}

IRSB* tg_instrument_bbv(IRSB* sbIn, IRSB* sbOut, Int i)
{
   TGBlock* b;
   if (i >= sbIn->stmts_used) return sbOut;
   b = tg_bbv_block((Addr)sbIn->stmts[i]->Ist.IMark.addr);
   return tg_copy_counting(sbIn, sbOut, i, tg_bbv_count, b);
}

void tg_bbv_fini(void)
{
   UInt i;
   HChar line[64];
   Int fd;
   /* The last slice, partial, if it has instructions. */
   if (tg_icount > tg_bbv_next - (ULong)clo_bbv_slice) tg_bbv_dump();
   tg_bbv_flush();
   VG_(close)(tg_bbv_fd);
   if (clo_bbv_pc_out == NULL) return;
   fd = VG_(fd_open)(clo_bbv_pc_out, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0644);
   if (fd < 0) {
      VG_(fmsg)("hwptrace: cannot create --bbv-pc-out=%s\n", clo_bbv_pc_out);
      VG_(exit)(1);
   }
   tg_bbv_fd = fd;
   for (i = 0; i < tg_bbv_nblocks; i++) {
      TGBlock* b = tg_bbv_nth(i);
      VG_(snprintf)(line, sizeof line, "F:%u:%lx:", b->id, b->addr);
      tg_bbv_put(line);
      tg_bbv_put(b->fn);
      tg_bbv_put("\n");
   }
   tg_bbv_flush();
   VG_(close)(fd);
}

void tg_bbv_init(void)
{
   tg_bbv_fd = tg_open_high("--bbv-out", clo_bbv_out);
   tg_bbv_next = (ULong)clo_bbv_slice;
}

void tg_bbv_report(void)
{
   VG_(umsg)("hwptrace: bbv: %llu instructions, %llu slices of %lld, %u blocks\n",
             tg_icount, tg_bbv_slices, clo_bbv_slice, tg_bbv_nblocks);
}
