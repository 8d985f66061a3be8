/* tg_out.c - hwptrace's output: the raw record buffer and its frames
 * (tracegen/tg_raw.h), the control records (HELLO, DEF, START, END), the
 * output file, and the helpers that generated code calls at the skip
 * boundary and when the buffer is nearly full (which also ends the
 * window).
 */

#include "tg_int.h"

Int    tg_mode = MODE_FF;
static Int    tg_fd = -1;
static UChar* tg_buf;        /* frame header (8 bytes) + payload */
static UChar* tg_buf_data;   /* tg_buf + 8 */
static UChar* tg_buf_end;
UChar* tg_soft_end;          /* flush when the cursor passes this */
/* Read and written by generated code. */
UChar* tg_cur;
ULong  tg_icount;            /* instructions executed (exact when counted) */
static ULong  tg_stop_at;    /* icount at which tracing may stop */
static ULong  tg_bytes_out;
static ULong  tg_flushes;

void tg_write_all_fd(Int fd, const UChar* p, SizeT n)
{
   while (n > 0) {
      Int chunk = n > (1u << 30) ? (1 << 30) : (Int)n;
      Int r = VG_(write)(fd, p, chunk);
      if (r <= 0) {
         VG_(umsg)("hwptrace: write to the output failed (packer gone? disk full?)\n");
         VG_(exit)(1);
      }
      p += r;
      n -= r;
   }
}

static void tg_flush_buf(void)
{
   UInt len;
   if (tg_cur == NULL) tg_cur = tg_buf_data;
   len = (UInt)(tg_cur - tg_buf_data);
   if (len == 0) return;
   ((UInt*)tg_buf)[0] = TG_FRAME_MAGIC;
   ((UInt*)tg_buf)[1] = len;
   tg_write_all_fd(tg_fd, tg_buf, 8 + (SizeT)len);
   tg_bytes_out += 8 + (ULong)len;
   tg_flushes++;
   tg_cur = tg_buf_data;
}

/* Room for n more bytes of control records (called from C only). */
static void tg_reserve(SizeT n)
{
   tl_assert(n <= (SizeT)(tg_buf_end - tg_buf_data));
   if (tg_cur == NULL) tg_cur = tg_buf_data;
   if (tg_cur + n > tg_buf_end) tg_flush_buf();
}

static void tg_put32(UInt v) { VG_(memcpy)(tg_cur, &v, 4); tg_cur += 4; }
static void tg_put64(ULong v) { VG_(memcpy)(tg_cur, &v, 8); tg_cur += 8; }

static void tg_write_end(UInt reason, Long exitcode)
{
   tg_reserve(32);
   tg_put32(TG_TAG_END);
   tg_put64(tg_icount);
   tg_put64((ULong)exitcode);
   tg_put32(reason);
   tg_put32(0);
   tg_flush_buf();
}

/* Make the scheduler discard every translation when the calling block
   leaves through its Ijk_InvalICache exit. */
static void tg_request_discard(VexGuestAMD64State* gst)
{
   gst->guest_CMSTART = 0x1000;
   gst->guest_CMLEN = ~(ULong)0xfff;
}

/* Called (guarded) at the entry of a fast-forward block that may contain
   instruction number skip+1. */
void tg_ff_end(VexGuestAMD64State* gst)
{
   tg_mode = MODE_TRACE;
   tg_reserve(12);
   tg_put32(TG_TAG_START);
   tg_put64(tg_icount);
   tg_request_discard(gst);
}

/* Called (guarded) at the entry of a tracing block when the buffer is
   nearly full.  Sets tg_cur to 0 when tracing must stop: the block then
   leaves through its Ijk_InvalICache exit before recording anything. */
void tg_flush_helper(VexGuestAMD64State* gst)
{
   tg_flush_buf();
   if (clo_capture > 0 && tg_icount >= tg_stop_at) {
      if (clo_at_end == 1) {
         tg_write_end(TG_REASON_WINDOW_EXIT, 0);
         VG_(close)(tg_fd);
         VG_(exit)(0);
      }
      tg_write_end(TG_REASON_WINDOW, 0);
      tg_mode = MODE_DONE;
      tg_cur = NULL;
      tg_request_discard(gst);
   }
}

/* Write the template of block `id` (called from instrumentation). */
void tg_emit_def(UInt id, const struct tg_item* items, Int nitems)
{
   SizeT bytes = 12 + (SizeT)nitems * sizeof(struct tg_item);
   tg_reserve(bytes);
   tg_put32(TG_TAG_DEF);
   tg_put32(id);
   tg_put32((UInt)nitems);
   VG_(memcpy)(tg_cur, items, (SizeT)nitems * sizeof(struct tg_item));
   tg_cur += (SizeT)nitems * sizeof(struct tg_item);
}

/* Open path for writing and move the fd out of the client's way (the
   client's next open() must get the same fd number as without us, and
   the same in trace and BBV mode). */
Int tg_open_high(const HChar* opt, const HChar* path)
{
   Int fd, hi;
   /* A FIFO without a reader (the packer died) would block the open
      below forever: probe it without blocking first (ENXIO). */
   SysRes pr = VG_(open)(path, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_NONBLOCK, 0644);
   if (sr_isError(pr)) {
      VG_(fmsg)("hwptrace: cannot open %s=%s%s\n", opt, path,
                sr_Err(pr) == VKI_ENXIO ? " (a FIFO without reader: packer gone?)" : "");
      VG_(exit)(1);
   }
   VG_(close)((Int)sr_Res(pr));
   fd = VG_(fd_open)(path, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0644);
   if (fd < 0) {
      VG_(fmsg)("hwptrace: cannot open %s=%s\n", opt, path);
      VG_(exit)(1);
   }
   for (hi = 999; hi > 10; hi--) {
      struct vg_stat st;
      if (VG_(fstat)(hi, &st) < 0) {
         SysRes r = VG_(dup2)(fd, hi);
         if (!sr_isError(r)) { VG_(close)(fd); fd = hi; }
         break;
      }
   }
   return fd;
}

/* Trace mode: open the output, allocate the buffer, write HELLO (and
   START when there is nothing to skip). */
void tg_out_init(void)
{
   SizeT size = (SizeT)clo_buf_mib << 20;
   if (clo_out != NULL)
      tg_fd = tg_open_high("--out", clo_out);
   else
      tg_fd = (Int)clo_out_fd;   /* one of them is given (tg_check_options) */
   tg_buf = VG_(malloc)("hwptrace.buf", size);
   tg_buf_data = tg_buf + 8;
   tg_buf_end = tg_buf + size;
   tl_assert(size > 2 * TG_MAX_BLOCK_BYTES);
   tg_soft_end = tg_buf_end - TG_MAX_BLOCK_BYTES;
   tg_cur = tg_buf_data;
   tg_stop_at = (ULong)clo_skip + (ULong)clo_capture;
   tg_reserve(32);
   tg_put32(TG_TAG_HELLO);
   tg_put32(TG_RAW_VERSION);
   tg_put64((ULong)clo_skip);
   tg_put64((ULong)clo_capture);
   tg_put32((clo_trace_mem ? TG_OPT_MEM : 0) | (clo_trace_values ? TG_OPT_VALUES : 0)
            | (clo_trace_branches ? TG_OPT_BRANCHES : 0)
            | (clo_assist_exits ? TG_OPT_ASSIST_EXITS : 0)
            | (clo_pin_random ? TG_OPT_PIN_RANDOM : 0)
            | (clo_pin_host ? TG_OPT_PIN_HOST : 0));
   tg_put32(tg_cpu_word);
   if (clo_skip == 0) {
      tg_mode = MODE_TRACE;
      tg_put32(TG_TAG_START);
      tg_put64(0);
   }
}

/* Program exit in trace mode: the rest of the buffer, END, close. */
void tg_out_fini(Int exitcode)
{
   if (tg_mode != MODE_DONE)
      tg_flush_buf();
   tg_write_end(TG_REASON_EXIT, exitcode);
   VG_(close)(tg_fd);
}

void tg_out_report(void)
{
   VG_(umsg)("hwptrace: %llu bytes in %llu frames, %u blocks, icount %llu\n",
             tg_bytes_out, tg_flushes, tg_next_id, tg_icount);
}
