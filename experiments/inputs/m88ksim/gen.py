# gen.py ROUNDS SEED - write the m88ksim workload's simh command script
# (stdout): a PDP-11 program of our own, assembled here (a two-pass
# assembler for the instructions it uses), deposited word by word into the
# simulated memory, started, and its result examined; the program HALTs and
# the script then quits, so the simulator exits by itself.
#
# The program, ROUNDS times: fill a 256-word array from a 16-bit LCG
# (x = 5x + 13849, by shifts and adds), insertion-sort it (unsigned), fold it
# into a checksum (ROL, ADD, XOR), run a byte sieve of Eratosthenes below
# 8000 and add the prime count; the checksum perturbs the next round's seed.
# R0 ends as the checksum, R4 as the last prime count.
# Deterministic: the seed only sets the program's first LCG state.
import sys

rounds, seed = int(sys.argv[1]), int(sys.argv[2])
assert 1 <= rounds < 65536

ORIGIN = 0o1000
STACK = 0o1000
ARR = 0o10000
N = 256
SIEVE = 0o20000
M = 8000

REGS = {"R0": 0, "R1": 1, "R2": 2, "R3": 3, "R4": 4, "R5": 5, "SP": 6, "PC": 7}
TWO_OP = {"MOV": 0o010000, "CMP": 0o020000, "BIT": 0o030000, "BIC": 0o040000,
          "BIS": 0o050000, "ADD": 0o060000, "MOVB": 0o110000, "CMPB": 0o120000,
          "SUB": 0o160000}
ONE_OP = {"CLR": 0o005000, "COM": 0o005100, "INC": 0o005200, "DEC": 0o005300,
          "NEG": 0o005400, "TST": 0o005700, "ROR": 0o006000, "ROL": 0o006100,
          "ASR": 0o006200, "ASL": 0o006300, "CLRB": 0o105000, "TSTB": 0o105700,
          "JMP": 0o000100}
BRANCH = {"BR": 0o000400, "BNE": 0o001000, "BEQ": 0o001400, "BGE": 0o002000,
          "BLT": 0o002400, "BGT": 0o003000, "BLE": 0o003400, "BPL": 0o100000,
          "BMI": 0o100400, "BHI": 0o101000, "BLOS": 0o101400, "BHIS": 0o103000,
          "BLO": 0o103400}

PROGRAM = """
start:  MOV #STACK, SP
        MOV #ROUNDS, R5
        CLR R0
        MOV #SEED, R1
round:  MOV #ARR, R2
        MOV #N, R3
fill:   MOV R1, R4
        ASL R4
        ASL R4
        ADD R4, R1
        ADD #13849, R1
        MOV R1, (R2)+
        SOB R3, fill
        MOV #ARR2, R2
outer:  MOV (R2), R4
        MOV R2, R3
inner:  CMP R3, #ARR
        BLOS place
        CMP -2(R3), R4
        BLOS place
        MOV -2(R3), (R3)
        SUB #2, R3
        BR inner
place:  MOV R4, (R3)
        ADD #2, R2
        CMP R2, #AEND
        BLO outer
        MOV #ARR, R2
        MOV #N, R3
sum:    ROL R0
        ADD (R2)+, R0
        XOR R3, R0
        SOB R3, sum
        MOV #SIEVE, R2
        MOV #M, R3
clear:  CLRB (R2)+
        SOB R3, clear
        MOV #2, R2
        CLR R4
sloop:  TSTB SIEVE(R2)
        BNE snext
        INC R4
        MOV R2, R3
        ADD R2, R3
mark:   CMP R3, #M
        BHIS snext
        MOVB #1, SIEVE(R3)
        ADD R2, R3
        BR mark
snext:  INC R2
        CMP R2, #M
        BLO sloop
        ADD R4, R0
        ADD R0, R1
        DEC R5
        BEQ done
        JMP round
done:   HALT
"""

SYMS = {"STACK": STACK, "ROUNDS": rounds, "SEED": (seed * 40503 + 1) & 0xFFFF,
        "ARR": ARR, "ARR2": ARR + 2, "AEND": ARR + 2 * N, "N": N,
        "SIEVE": SIEVE, "M": M}


def value(text, labels):
    text = text.strip()
    if text in labels:
        return labels[text]
    if text in SYMS:
        return SYMS[text]
    return int(text, 0)


def operand(text, labels, next_word_addr):
    """(6-bit mode/register field, [extra word]) of one operand."""
    t = text.strip()
    if t in REGS:
        return REGS[t], []
    if t.startswith("#"):
        return 0o27, [value(t[1:], labels) & 0xFFFF]
    if t.startswith("@#"):
        return 0o37, [value(t[2:], labels) & 0xFFFF]
    if t.startswith("-(") and t.endswith(")"):
        return 0o40 | REGS[t[2:-1]], []
    if t.startswith("(") and t.endswith(")+"):
        return 0o20 | REGS[t[1:-2]], []
    if t.startswith("(") and t.endswith(")"):
        return 0o10 | REGS[t[1:-1]], []
    if t.endswith(")"):
        x, r = t[:-1].split("(")
        return 0o60 | REGS[r], [value(x, labels) & 0xFFFF]
    # a label: PC-relative (mode 6, register 7)
    return 0o67, [(value(t, labels) - (next_word_addr + 2)) & 0xFFFF]


def assemble(labels):
    words, addr = [], ORIGIN
    for line in PROGRAM.strip().splitlines():
        if ":" in line:
            label, line = line.split(":", 1)
            labels.setdefault(label.strip(), addr)
        parts = line.split(None, 1)
        op = parts[0]
        args = [a.strip() for a in parts[1].split(",")] if len(parts) > 1 else []
        if op in TWO_OP:
            s, sx = operand(args[0], labels, addr + 2)
            d, dx = operand(args[1], labels, addr + 2 + 2 * len(sx))
            code = [TWO_OP[op] | s << 6 | d] + sx + dx
        elif op in ONE_OP:
            d, dx = operand(args[0], labels, addr + 2)
            code = [ONE_OP[op] | d] + dx
        elif op in BRANCH:
            off = (value(args[0], labels) - (addr + 2)) // 2 if args[0] in labels else 0
            assert -128 <= off <= 127, line
            code = [BRANCH[op] | (off & 0xFF)]
        elif op == "SOB":
            off = ((addr + 2) - value(args[1], labels)) // 2 if args[1] in labels else 0
            assert 0 <= off <= 63, line
            code = [0o077000 | REGS[args[0]] << 6 | off]
        elif op == "XOR":
            d, dx = operand(args[1], labels, addr + 2)
            code = [0o074000 | REGS[args[0]] << 6 | d] + dx
        elif op == "HALT":
            code = [0]
        else:
            raise SystemExit("unknown instruction: " + line)
        words.append((addr, code))
        addr += 2 * len(code)
    return words


labels = {}
assemble(labels)            # pass 1: label addresses
program = assemble(labels)  # pass 2: final code
print("; generated by experiments/inputs/m88ksim/gen.py %d %d" % (rounds, seed))
for addr, code in program:
    for k, w in enumerate(code):
        print("deposit %o %06o" % (addr + 2 * k, w))
print("go %o" % ORIGIN)
print("examine R0")
print("examine R4")
print("examine %o" % ARR)
print("quit")
