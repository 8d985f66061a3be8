/* hostprog.c - prints what a program can learn about its CPU and host
 * without reading files, for check (i) of tests/tracegen/run-tests.sh
 * (tracegen/README.md, "Pinned CPU and host"); check_host.py compares the
 * lines with the pinned values.  Usage: hostprog DIR (DIR: a directory
 * whose entries are listed in readdir order).  One "key value" per line:
 *   cpuid0     vendor string and max leaf (CPUID leaf 0)
 *   cpuid1     EAX ECX EDX of leaf 1 (hex)
 *   auxv       the types of the auxv entries, in order (walked from envp)
 *   hwcap      the value of the AT_HWCAP entry (hex; glibc's getauxval
 *              returns its own HWCAP_X86_64 on x86-64, not this)
 *   sp_mod     the initial stack pointer (address of argc) modulo 4096
 *   nodename   uname(2)
 *   sysinfo    uptime totalram freeram procs mem_unit
 *   readdir    the entry names of DIR, as readdir returns them
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>

int main(int argc, char **argv)
{
    unsigned a, b, c, d;
    __cpuid(0, a, b, c, d);
    char vendor[13];
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = '\0';
    printf("cpuid0 %s %u\n", vendor, a);
    __cpuid(1, a, b, c, d);
    printf("cpuid1 %08x %08x %08x\n", a, c, d);

    /* The initial stack: argc, argv..., NULL, envp..., NULL, auxv.  main's
     * argv is that argv, so argc lies just below it. */
    char **e = argv + argc + 1;
    while (*e)
        e++;
    unsigned long hwcap = 0;
    printf("auxv");
    for (uintptr_t *x = (uintptr_t *)(e + 1); x[0] != 0; x += 2) {
        printf(" %lu", (unsigned long)x[0]);
        if (x[0] == AT_HWCAP)
            hwcap = x[1];
    }
    printf("\nhwcap %lx\n", hwcap);
    printf("sp_mod %lu\n", (unsigned long)((uintptr_t)(argv - 1) % 4096));

    struct utsname u;
    uname(&u);
    printf("nodename %s\n", u.nodename);
    struct sysinfo si;
    sysinfo(&si);
    printf("sysinfo %ld %lu %lu %u %u\n", si.uptime, si.totalram, si.freeram, (unsigned)si.procs, si.mem_unit);

    printf("readdir");
    DIR *dir = opendir(argc > 1 ? argv[1] : ".");
    struct dirent *de;
    while (dir && (de = readdir(dir)) != NULL)
        printf(" %s", de->d_name);
    printf("\n");
    if (dir)
        closedir(dir);
    return 0;
}
