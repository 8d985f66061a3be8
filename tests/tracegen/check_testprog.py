#!/usr/bin/env python3
"""check_testprog.py ADDRS EVENTS - check (c) of tests/tracegen: the trace of
tests/tracegen/testprog.c (dumped by `tgdump --events`) must show exactly the
calls, returns, loop branch, loads (addresses, sizes, values) and stores the
program performs.  ADDRS is the program's first stdout line."""
import sys

addrs = dict(kv.split('=') for kv in open(sys.argv[1]).read().split())
A = {k: int(v, 16) for k, v in addrs.items()}
fails = []


def check(cond, msg):
    if not cond:
        fails.append(msg)


ev = []
for line in open(sys.argv[2]):
    f = line.split()
    d = {k: v for k, v in (x.split('=') for x in f[1:])}
    ev.append((f[0], int(d['pc'], 16), int(d['addr'], 16), int(d['value'], 16),
               int(d['size']), int(d['taken']), int(d['flags'])))

calls = [e for e in ev if e[0] == 'C' and e[2] == A['leaf']]
check(len(calls) == 1000, f"calls to tg_leaf: {len(calls)} != 1000")
EVF_INDIRECT = 8
check(all(not (e[6] & EVF_INDIRECT) for e in calls), "direct calls to tg_leaf flagged indirect")
icalls = [e for e in ev if e[0] == 'C' and e[2] == A['leaf2']]
check(len(icalls) == 300 and all(e[6] & EVF_INDIRECT for e in icalls),
      f"indirect calls to tg_leaf2: {len(icalls)} (want 300, all with EVF_INDIRECT)")
rets = [e for e in ev if e[0] == 'R' and e[1] == A['leaf_ret']]
check(len(rets) == 1000, f"returns from tg_leaf: {len(rets)} != 1000")
check(all(r[2] == c[1] + 5 for c, r in zip(calls, rets)), "return destination != call site + 5")
br = [e for e in ev if e[0] == 'B' and e[1] == A['loop_br']]
check(len(br) == 777, f"loop branch executions: {len(br)} != 777")
check(sum(e[5] for e in br) == 776, f"loop branch taken: {sum(e[5] for e in br)} != 776")
check(all(e[2] == A['loop_top'] and e[3] == A['loop_br'] + 2 for e in br), "loop branch target/fall-through")
check(br and br[-1][5] == 0, "last loop branch must be not taken")
tops = [e for e in ev if e[0] == 'I' and e[1] == A['loop_top']]
check(len(tops) == 777, f"loop top executions: {len(tops)} != 777")


def in_range(e, base, n):
    return base <= e[2] < base + n


l32 = [e for e in ev if e[0] == 'L' and in_range(e, A['arr32'], 4000)]
check(len(l32) == 1000, f"arr32 loads: {len(l32)} != 1000")
check(all(e[2] == A['arr32'] + 4 * i and e[4] == 4 and e[3] == (i * 2654435761) % 2**32
          and e[6] == 0 for i, e in enumerate(l32)), "arr32 load address/size/value")
l64 = [e for e in ev if e[0] == 'L' and in_range(e, A['arr64'], 800)]
check(len(l64) == 100, f"arr64 loads: {len(l64)} != 100")
check(all(e[2] == A['arr64'] + 8 * i and e[4] == 8 and e[3] == (0x0123456789abcdef * (i + 1)) % 2**64
          for i, e in enumerate(l64)), "arr64 load address/size/value")
lv = [e for e in ev if e[0] == 'L' and in_range(e, A['vec16'], 16)]
check(len(lv) == 1 and lv[0][4] == 16 and lv[0][3] == 0x1122334455667788,
      f"vec16 16-byte load with low 8 bytes as value: {lv}")
s32 = [e for e in ev if e[0] == 'S' and in_range(e, A['out32'], 4000)]
check(len(s32) == 1000 and all(e[2] == A['out32'] + 4 * i and e[4] == 4 for i, e in enumerate(s32)),
      f"out32 stores: {len(s32)}")
check(not [e for e in ev if e[0] == 'L' and in_range(e, A['out32'], 4000)], "loads from out32")

if fails:
    print("testprog check FAILED:\n  " + "\n  ".join(fails))
    sys.exit(1)
print(f"testprog check ok ({len(ev)} events)")
