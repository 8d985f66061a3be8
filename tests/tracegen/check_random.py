#!/usr/bin/env python3
"""check_random.py - checks randprog's output under tracegen's pinning
(tests/tracegen/run-tests.sh (f)); the values are those documented in
tracegen/README.md ("Determinism") and tracegen/tg_pin.c.

usage: check_random.py PINNED_OUT [EXPECT_PID|-] [UNPINNED_OUT] [EVENTS]
  PINNED_OUT   randprog's stdout under a capture with --pin-random yes
  EXPECT_PID   the pid the program must see (2 in the capture's PID
               namespace), or - to skip that check
  UNPINNED_OUT randprog's stdout under --pin-random no: its AT_RANDOM bytes
               must differ from the pinned ones (the test is not vacuous)
  EVENTS       tgdump --events of the pinned capture: must hold a load of
               the pinned canary value
Prints one line; exit status 1 on failure."""
import sys

M = (1 << 64) - 1
SEED_AUXV = 0x41545F52414E444F    # "AT_RANDO"
SEED_STREAM = 0x6877707472616365  # "hwptrace"
SEED_RDRAND = 0x5244524E44534544  # "RDRNDSED"


def splitmix64(seed, k):
    z = (seed + k * 0x9E3779B97F4A7C15) & M
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)


def stream(seed, n):
    """The first n bytes of the stream: byte i is byte i%8 (little-endian)
    of splitmix64 output i//8 + 1."""
    return b"".join(splitmix64(seed, k).to_bytes(8, "little")
                    for k in range(1, n // 8 + 2))[:n]


def parse(path):
    d = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.strip().partition(" ")
            d[k] = v
    return d


def main():
    a = sys.argv[1:]
    got = parse(a[0])
    errs = []

    def want(key, value):
        if got.get(key) != value:
            errs.append(f"{key}: got {got.get(key)!r}, want {value!r}")

    at = stream(SEED_AUXV, 16)
    want("atrandom", at.hex())
    canary = bytes([0]) + at[1:8]   # glibc zeroes the canary's low byte
    want("canary", canary.hex())
    s = stream(SEED_STREAM, 32)
    want("getrandom", s[0:16].hex())
    want("urandom", s[16:24].hex())
    want("readv", s[24:32].hex())
    want("zero", "00000000")
    if got.get("rdrand") != "none":
        want("rdrand", stream(SEED_RDRAND, 8).hex() + " 1")
    want("tsc", "1000")              # RDTSC: a counter, step 1000
    if len(a) > 1 and a[1] != "-":
        want("pid", a[1])
    if len(a) > 2:
        un = parse(a[2])
        if un.get("atrandom") == at.hex():
            errs.append("--pin-random=no still shows the pinned AT_RANDOM bytes")
        if un.get("getrandom") == s[0:16].hex():
            errs.append("--pin-random=no still shows the pinned getrandom bytes")
    if len(a) > 3:
        cv = int.from_bytes(canary, "little")
        pat = f"value={cv:x} size=8"
        with open(a[3]) as f:
            if not any(l.startswith("L ") and pat in l for l in f):
                errs.append(f"no load of the pinned canary {cv:#x} in the trace")
    if errs:
        print("pinning: " + "; ".join(errs))
        return 1
    print(f"pinning: AT_RANDOM {at.hex()} (canary {int.from_bytes(canary, 'little'):#018x}), "
          f"getrandom/urandom/readv/rdrand streams, rdtsc step 1000, pid {got.get('pid')} as documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
