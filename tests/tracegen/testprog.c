/* testprog.c - a program with exactly known behaviour for the tracegen tests
 * (tests/tracegen/run-tests.sh, check (c)).  It prints the addresses the
 * checker needs, then:
 *   - calls tg_leaf (asm, returns through tg_leaf_ret) exactly NCALL times;
 *   - calls tg_leaf2 through a function pointer (call *reg) NICALL times;
 *   - runs an asm loop whose only conditional branch, tg_loop_br (jb back to
 *     tg_loop_top), executes NLOOP times, taken NLOOP-1 times;
 *   - loads arr32[0..N32) (4-byte values known), arr64[0..N64) (8-byte),
 *     one 16-byte vector load of vec16 (value = its low 8 bytes);
 *   - stores out32[0..N32).
 * Built with -O1 -fno-inline -no-pie (mk/tracegen.mk). */
#include <stdint.h>
#include <stdio.h>

#define NCALL 1000
#define NICALL 300
#define NLOOP 777
#define N32 1000
#define N64 100

extern long tg_leaf(long x);
extern long tg_leaf2(long x);
extern char tg_leaf_ret[], tg_loop_br[], tg_loop_top[];
__asm__(".text\n"
        ".globl tg_leaf\n"
        "tg_leaf:\n"
        "  leaq 1(%rdi), %rax\n"
        ".globl tg_leaf_ret\n"
        "tg_leaf_ret:\n"
        "  ret\n"
        ".globl tg_leaf2\n"
        "tg_leaf2:\n"
        "  leaq 2(%rdi), %rax\n"
        "  ret\n");

uint32_t arr32[N32];
uint64_t arr64[N64];
uint32_t out32[N32];
uint64_t vec16[2] __attribute__((aligned(16)));

static long asm_loop(long n)
{
    long i = 0;
    __asm__ volatile(".globl tg_loop_top\n"
                     "tg_loop_top:\n"
                     "  addq $1, %0\n"
                     "  cmpq %1, %0\n"
                     ".globl tg_loop_br\n"
                     "tg_loop_br:\n"
                     "  jb tg_loop_top\n"
                     : "+r"(i)
                     : "r"(n)
                     : "cc");
    return i;
}

static uint64_t sum32(const volatile uint32_t *a, int n)
{
    uint64_t s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

static uint64_t sum64(const volatile uint64_t *a, int n)
{
    uint64_t s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

static void fill_out(volatile uint32_t *o, int n)
{
    for (int i = 0; i < n; i++)
        o[i] = (uint32_t)i;
}

int main(void)
{
    for (int i = 0; i < N32; i++)
        arr32[i] = (uint32_t)i * 2654435761u;
    for (int i = 0; i < N64; i++)
        arr64[i] = 0x0123456789abcdefull * (uint64_t)(i + 1);
    vec16[0] = 0x1122334455667788ull;
    vec16[1] = 0x99aabbccddeeff00ull;
    printf("leaf2=%lx leaf=%lx leaf_ret=%lx loop_br=%lx loop_top=%lx arr32=%lx arr64=%lx out32=%lx vec16=%lx\n",
           (unsigned long)tg_leaf2, (unsigned long)tg_leaf, (unsigned long)tg_leaf_ret, (unsigned long)tg_loop_br,
           (unsigned long)tg_loop_top, (unsigned long)arr32, (unsigned long)arr64, (unsigned long)out32,
           (unsigned long)vec16);
    fflush(stdout);
    long acc = 0;
    for (int i = 0; i < NCALL; i++)
        acc = tg_leaf(acc);
    long (*volatile fp)(long) = tg_leaf2; /* volatile: the compiler cannot make it a direct call */
    long acc2 = 0;
    for (int i = 0; i < NICALL; i++)
        acc2 = fp(acc2);
    long it = asm_loop(NLOOP);
    uint64_t s = sum32(arr32, N32) + sum64(arr64, N64);
    uint64_t lo;
    __asm__ volatile("movdqu (%1), %%xmm0\n\tmovq %%xmm0, %0" : "=r"(lo) : "r"(vec16) : "xmm0", "memory");
    fill_out(out32, N32);
    return (acc == NCALL && acc2 == 2 * NICALL && it == NLOOP && (s ^ lo) != 1) ? 0 : 1;
}
