#!/usr/bin/env python3
"""check_bbv.py ADDRS BBV PC N EVENTS K WINDOW - check (j) of tests/tracegen:
the basic-block vectors of tests/tracegen/testprog.c (tracegen/capture
--bbv-out BBV --bbv-slice N, block map PC from --vg-opt --bbv-pc-out) against
the program's known behaviour and against a whole-run trace of the same
pinned run (EVENTS: `tgdump --events`), and the window WINDOW (`tgdump
--events` of a capture with --skip K*N --capture N) against slice K.

  - every line is exp-bbv's "T:id:count   :id:count   ..." with ascending
    ids; every slice holds exactly N instructions but the last (1..N);
  - the driver's provenance comment lines "# meta KEY=VALUE" follow the
    vectors and name the program, its packages, the level and bbv.slice;
  - all lines add up to the trace's instruction count;
  - ids are 1..M, M = the blocks of the map, and numbered by first
    execution: block i+1 never appears in an earlier slice than block i;
  - the block at tg_leaf ([leaq, ret], called 1000 times) holds 2000
    instructions in all, the block at tg_loop_top ([add, cmp, jb], entered
    from the loop branch 776 times) 3 * 776 = 2328;
  - slice by slice, tg_leaf's count equals the number of trace instructions
    at tg_leaf/tg_leaf_ret among instructions k*N+1 .. (k+1)*N of the run
    (its instructions execute in no other block), also when a call is cut
    by a slice boundary;
  - the window capture's events are exactly the whole run's events of
    instructions K*N+1 .. (K+1)*N: slice K and that window are the same
    instructions.
Prints a summary; exit status 1 with the failures listed."""
import sys

addrs_path, bbv_path, pc_path, n_s, ev_path, k_s, win_path = sys.argv[1:8]
N, K = int(n_s), int(k_s)
A = {k: int(v, 16) for k, v in (kv.split('=') for kv in open(addrs_path).read().split())}
fails = []


def check(cond, msg):
    if not cond:
        fails.append(msg)


slices = []
meta = {}
for no, line in enumerate(open(bbv_path), 1):
    line = line.rstrip('\n')
    if line.startswith('# meta '):  # the driver's provenance lines, after the vectors
        k, _, v = line[7:].partition('=')
        meta[k] = v
        continue
    if line.startswith('#'):
        continue
    check(not meta, f"line {no}: a vector after the provenance lines")
    check(line.startswith('T:'), f"line {no}: does not start with 'T:'")
    items = line[1:].split()
    vec = []
    for it in items:
        f = it.split(':')
        check(len(f) == 3 and f[0] == '' and f[1].isdigit() and f[2].isdigit(), f"line {no}: bad item '{it}'")
        vec.append((int(f[1]), int(f[2])))
    ids = [i for i, _ in vec]
    check(ids == sorted(set(ids)), f"line {no}: ids not ascending")
    check(all(c > 0 for _, c in vec), f"line {no}: zero count")
    slices.append(dict(vec))
check(meta.get('bbv.slice') == str(N) and meta.get('cpu.level') == 'x86-64-v2' and 'packages' in meta
      and meta.get('program', '').endswith('tg-testprog'), f"provenance lines: {meta}")
sums = [sum(s.values()) for s in slices]
check(all(x == N for x in sums[:-1]), f"slice sums {[x for x in sums[:-1] if x != N][:5]} != {N}")
check(0 < sums[-1] <= N, f"last slice holds {sums[-1]}")

blocks = {}
for line in open(pc_path):
    f = line.rstrip('\n').split(':', 3)
    check(len(f) == 4 and f[0] == 'F', f"pc file line '{line.strip()}'")
    blocks[int(f[1])] = int(f[2], 16)
M = len(blocks)
check(sorted(blocks) == list(range(1, M + 1)), "pc file ids are not 1..M")
first = {}
for k, s in enumerate(slices):
    for i in s:
        first.setdefault(i, k)
check(sorted(first) == list(range(1, M + 1)), f"ids in the vectors: {len(first)}, blocks: {M}")
check(all(first[i] <= first[i + 1] for i in range(1, M)), "ids not numbered by first execution")

ins = []   # whole run: pc of every instruction
events = []  # (index of the instruction it belongs to, line)
for line in open(ev_path):
    if line.startswith('I '):
        ins.append(int(line.split()[1][3:], 16))
    events.append((len(ins), line))
check(sum(sums) == len(ins), f"vectors hold {sum(sums)} instructions, the trace {len(ins)}")

by_addr = {a: i for i, a in blocks.items()}
cut = 0
leaf, top = by_addr.get(A['leaf']), by_addr.get(A['loop_top'])
check(leaf is not None and top is not None, "no block at tg_leaf or tg_loop_top")
if leaf and top:
    tl = sum(s.get(leaf, 0) for s in slices)
    tt = sum(s.get(top, 0) for s in slices)
    check(tl == 2000, f"tg_leaf block: {tl} instructions, expected 2000")
    check(tt == 2328, f"tg_loop_top block: {tt} instructions, expected 2328")
    for k, s in enumerate(slices):
        seg = ins[k * N:(k + 1) * N]
        want = sum(1 for pc in seg if pc in (A['leaf'], A['leaf_ret']))
        check(s.get(leaf, 0) == want, f"slice {k}: tg_leaf count {s.get(leaf, 0)}, trace {want}")
        if seg and seg[0] == A['leaf_ret']:
            cut += 1

win = [line for line in open(win_path)]
ref = [line for i, line in events if K * N < i <= (K + 1) * N]
check(win == ref, f"window --skip {K * N} --capture {N}: {len(win)} events, the run's slice {K}: {len(ref)}"
      + ("" if len(win) != len(ref) else ", contents differ"))

if fails:
    print("; ".join(fails[:8]))
    sys.exit(1)
print(f"BBV of testprog: {len(slices)} slices of {N}, {M} blocks numbered by first execution, "
      f"{len(ins)} instructions == trace; tg_leaf 2000 and loop 2328 instructions, per-slice tg_leaf counts "
      f"== trace ({cut} calls cut by a boundary); window --skip {K * N} --capture {N} == slice {K} ({len(win)} events)")
