/* randprog.c - prints every source of randomness that tracegen pins
 * (tests/tracegen/run-tests.sh (f), checked by check_random.py):
 *   atrandom <16 bytes the auxv AT_RANDOM entry points to>
 *   canary   <stack-protector canary, %fs:0x28, as a little-endian u64>
 *   pid      <getpid()>
 *   getrandom <16 bytes from getrandom(2)>
 *   urandom  <8 bytes read(2) from /dev/urandom>
 *   readv    <3 + 5 bytes readv(2) from a dup of that fd>
 *   zero     <4 bytes read from /dev/zero (must stay zero)>
 *   rdrand   <rdrand64 value, CF> or "rdrand none"
 *   tsc      <difference of two consecutive rdtsc>
 * No malloc and no stdio before the getrandom call, so that the program's
 * getrandom is the first consumer of the pinned stream (glibc's malloc
 * would take 8 bytes for its tcache key first). */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <unistd.h>
#include <cpuid.h>
#include <x86intrin.h>

static char out[1024];
static size_t outn;

static void put(const char *s) { size_t n = strlen(s); memcpy(out + outn, s, n); outn += n; }
static void hex(const unsigned char *p, size_t n)
{
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) { out[outn++] = d[p[i] >> 4]; out[outn++] = d[p[i] & 15]; }
}
static void u64(uint64_t v)
{
    char b[24]; int i = 23; b[i] = 0;
    do { b[--i] = (char)('0' + v % 10); v /= 10; } while (v);
    put(b + i);
}

int main(void)
{
    unsigned char g[16], u[8], x[3], y[5], z[4] = {1, 1, 1, 1};
    const unsigned char *r = (const unsigned char *)getauxval(AT_RANDOM);
    uint64_t canary;
    if (getrandom(g, sizeof g, 0) != (ssize_t)sizeof g) return 2;
    __asm__ volatile("mov %%fs:0x28, %0" : "=r"(canary));
    put("atrandom "); hex(r, 16); put("\n");
    put("canary "); hex((const unsigned char *)&canary, 8); put("\n");
    put("pid "); u64((uint64_t)getpid()); put("\n");
    put("getrandom "); hex(g, sizeof g); put("\n");
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd < 0 || read(fd, u, sizeof u) != (ssize_t)sizeof u) return 3;
    put("urandom "); hex(u, sizeof u); put("\n");
    int fd2 = dup(fd);
    struct iovec iov[2] = {{x, sizeof x}, {y, sizeof y}};
    if (readv(fd2, iov, 2) != 8) return 4;
    put("readv "); hex(x, sizeof x); hex(y, sizeof y); put("\n");
    int zf = open("/dev/zero", O_RDONLY);
    if (zf < 0 || read(zf, z, sizeof z) != (ssize_t)sizeof z) return 5;
    put("zero "); hex(z, sizeof z); put("\n");
    unsigned a, b, c, e;
    if (__get_cpuid(1, &a, &b, &c, &e) && (c & bit_RDRND)) {
        uint64_t v; unsigned char ok;
        __asm__ volatile("rdrand %0; setc %1" : "=r"(v), "=qm"(ok) : : "cc");
        put("rdrand "); hex((const unsigned char *)&v, 8); put(ok ? " 1\n" : " 0\n");
    } else {
        put("rdrand none\n");
    }
    uint64_t t0 = __rdtsc(), t1 = __rdtsc();
    put("tsc "); u64(t1 - t0); put("\n");
    return write(1, out, outn) == (ssize_t)outn ? 0 : 6;
}
