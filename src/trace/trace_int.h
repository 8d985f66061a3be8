/* trace_int.h - what the trace format's files share (trace.c: the header
 * and the metadata; trace_write.c: the writer; trace_read.c: the reader;
 * docs/trace-format.md): the layout constants, little-endian fields, and
 * the header and metadata codecs.
 *
 * The record encoding (trace_write.c writes it, trace_read.c decodes it).
 * A block payload is a sequence of variable-length records; delta state is
 * reset at every block start so blocks decode independently:
 *   tag byte: bits 0-2 kind, bits 3-7 kind-specific flags
 *   INSN   bit3 sequential (pc == previous pc + previous length, no pc field)
 *          bits4-7 length (1..15; 0 = length follows as varint)
 *          [zigzag varint pc - expected]  [varint length]
 *   LOAD   bit3 same pc (pc == last INSN pc), bits4-6 size code, bit7 value present
 *          [zigzag pc - insn pc] zigzag(addr - last addr) [varint size] [varint value]
 *   STORE  as LOAD, bit7 = EVF_MODIFY, never a value
 *   BRANCH bit3 same pc, bit4 taken, bit5 fall-through == pc + insn length
 *          [zigzag pc - insn pc] zigzag(target - pc) [zigzag(fallthrough - pc)]
 *   CALL/RET/IJUMP  bit3 same pc, CALL bit4 indirect (EVF_INDIRECT)
 *          [zigzag pc - insn pc] zigzag(target - pc)
 * Size codes 0..6 mean 1,2,4,8,16,32,64 bytes; 7 means a varint follows.
 */
#ifndef TRACE_INT_H
#define TRACE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

#define BLOCK_MAGIC 0x314b4c42u /* "BLK1" little-endian */
#define META_MAGIC "META"
#define META_PREAMBLE 12u /* magic, entry count, CRC-32 of the text */
#define BLOCK_HDR 20u
#define MAX_RECORD 48u /* worst-case encoded bytes of one record */

/* Little-endian fields. */
static inline void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static inline void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static inline uint32_t get32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}
static inline uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* The TRACE_HEADER_SIZE bytes of th's header, checksum included (trace.c). */
void trace_header_encode(unsigned char *h, const struct trace_header *th);
/* The metadata section of m (preamble + text) into out, room for
 * META_PREAMBLE + TRACE_META_MAX bytes; returns its size, 0 when m has no
 * pairs. */
size_t trace_meta_encode(const struct trace_meta *m, unsigned char *out);
/* Parse the n-byte metadata section s (at file offset base) into m.
 * 0, or -1 with err "path: byte N: ...". */
int trace_meta_decode(const char *path, const unsigned char *s, size_t n, uint64_t base, struct trace_meta *m,
                      char *err, size_t errlen);

#endif
