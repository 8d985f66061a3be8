# wl.py - python workload: a mix of interpreter-heavy tasks on generated data.
# Usage: python3 -S -B wl.py ROUNDS   (see experiments/python.wl)
# Each round: generate pseudo-random records with our own LCG (no imports, so
# nothing depends on installed modules), tokenize/parse/evaluate a small
# expression language (interpreter benchmark), count words in dicts, sort
# records with key functions, run a binary heap event simulation, hash strings
# with a pure-Python CRC32 and serialise results to JSON-like text.
# Prints one checksum line per round; the output is deterministic.
import sys


class Rng:
    """Park-Miller style LCG: deterministic across Python versions."""

    def __init__(self, seed):
        self.state = seed & 0x7FFFFFFF or 1

    def next(self):
        self.state = (self.state * 48271) % 0x7FFFFFFF
        return self.state

    def below(self, n):
        return self.next() % n


SYLLABLES = ["ka", "ri", "to", "me", "su", "lo", "an", "be", "ch", "de", "fi", "go", "hu", "ix"]


def make_words(rng, n):
    return ["".join(SYLLABLES[rng.below(len(SYLLABLES))] for _ in range(1 + rng.below(4))) for _ in range(n)]


# ---- a tiny expression language: tokenizer, parser, tree-walking evaluator ----
class Tok:
    __slots__ = ("kind", "text")

    def __init__(self, kind, text):
        self.kind = kind
        self.text = text


def tokenize(src):
    toks = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c.isspace():
            i += 1
        elif c.isdigit():
            j = i
            while j < n and src[j].isdigit():
                j += 1
            toks.append(Tok("num", src[i:j]))
            i = j
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            toks.append(Tok("id", src[i:j]))
            i = j
        else:
            two = src[i:i + 2]
            if two in ("==", "<=", ">=", "!="):
                toks.append(Tok("op", two))
                i += 2
            else:
                toks.append(Tok("op", c))
                i += 1
    toks.append(Tok("eof", ""))
    return toks


class Parser:
    PREC = {"==": 1, "!=": 1, "<": 2, ">": 2, "<=": 2, ">=": 2, "+": 3, "-": 3, "*": 4, "/": 4, "%": 4}

    def __init__(self, toks):
        self.toks = toks
        self.pos = 0

    def peek(self):
        return self.toks[self.pos]

    def take(self):
        t = self.toks[self.pos]
        self.pos += 1
        return t

    def program(self):
        stmts = []
        while self.peek().kind != "eof":
            stmts.append(self.statement())
        return stmts

    def statement(self):
        t = self.peek()
        if t.kind == "id" and t.text == "while":
            self.take()
            cond = self.expr(0)
            body = self.block()
            return ("while", cond, body)
        if t.kind == "id" and t.text == "if":
            self.take()
            cond = self.expr(0)
            body = self.block()
            return ("if", cond, body)
        name = self.take().text
        self.take()  # '='
        value = self.expr(0)
        self.take()  # ';'
        return ("set", name, value)

    def block(self):
        self.take()  # '{'
        body = []
        while self.peek().text != "}":
            body.append(self.statement())
        self.take()
        return body

    def expr(self, min_prec):
        left = self.atom()
        while True:
            t = self.peek()
            prec = self.PREC.get(t.text) if t.kind == "op" else None
            if prec is None or prec <= min_prec:
                return left
            self.take()
            right = self.expr(prec)
            left = ("bin", t.text, left, right)

    def atom(self):
        t = self.take()
        if t.kind == "num":
            return ("num", int(t.text))
        if t.kind == "id":
            return ("var", t.text)
        e = self.expr(0)
        self.take()  # ')'
        return e


def evaluate(node, env):
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "var":
        return env.get(node[1], 0)
    op, a, b = node[1], evaluate(node[2], env), evaluate(node[3], env)
    if op == "+":
        return (a + b) & 0xFFFFFFFF
    if op == "-":
        return (a - b) & 0xFFFFFFFF
    if op == "*":
        return (a * b) & 0xFFFFFFFF
    if op == "/":
        return a // b if b else 0
    if op == "%":
        return a % b if b else 0
    if op == "<":
        return int(a < b)
    if op == ">":
        return int(a > b)
    if op == "<=":
        return int(a <= b)
    if op == ">=":
        return int(a >= b)
    if op == "==":
        return int(a == b)
    return int(a != b)


def execute(stmts, env, budget):
    for s in stmts:
        if s[0] == "set":
            env[s[1]] = evaluate(s[2], env)
        elif s[0] == "if":
            if evaluate(s[1], env):
                budget = execute(s[2], env, budget)
        else:
            while evaluate(s[1], env) and budget > 0:
                budget = execute(s[2], env, budget - 1)
    return budget


PROGRAM = """
i = 0; acc = 1; primes = 0;
while i < LIMIT {
  n = i + 2; d = 2; isp = 1;
  while d * d <= n { if n % d == 0 { isp = 0; } d = d + 1; }
  if isp { primes = primes + 1; acc = (acc * 31 + n) % 1000003; }
  i = i + 1;
}
"""


def interpreter_task(limit):
    stmts = Parser(tokenize(PROGRAM.replace("LIMIT", str(limit)))).program()
    env = {}
    execute(stmts, env, 10 ** 9)
    return env["primes"] * 1000003 + env["acc"]


# ---- CRC32 in pure Python ----
CRC_TABLE = []
for _n in range(256):
    _c = _n
    for _k in range(8):
        _c = (0xEDB88320 ^ (_c >> 1)) if _c & 1 else (_c >> 1)
    CRC_TABLE.append(_c)


def crc32(data):
    c = 0xFFFFFFFF
    for b in data:
        c = CRC_TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


# ---- binary heap event simulation ----
def heap_push(h, item):
    h.append(item)
    i = len(h) - 1
    while i > 0:
        p = (i - 1) >> 1
        if h[p] <= h[i]:
            break
        h[p], h[i] = h[i], h[p]
        i = p


def heap_pop(h):
    last = h.pop()
    if not h:
        return last
    top, h[0] = h[0], last
    i, n = 0, len(h)
    while True:
        l = 2 * i + 1
        if l >= n:
            break
        m = l + 1 if l + 1 < n and h[l + 1] < h[l] else l
        if h[i] <= h[m]:
            break
        h[i], h[m] = h[m], h[i]
        i = m
    return top


def simulate(rng, events):
    h, clock, served, queue = [], 0, 0, 0
    for k in range(64):
        heap_push(h, (rng.below(1000), k, "arrive"))
    while h and served < events:
        clock, k, what = heap_pop(h)
        if what == "arrive":
            queue += 1
            heap_push(h, (clock + 1 + rng.below(50), k, "serve"))
        else:
            queue -= 1
            served += 1
            heap_push(h, (clock + 1 + rng.below(900), k, "arrive"))
    return clock * 7 + served


# ---- records: build, aggregate, sort, serialise ----
class Record:
    __slots__ = ("ident", "name", "city", "score", "tags")

    def __init__(self, ident, name, city, score, tags):
        self.ident, self.name, self.city, self.score, self.tags = ident, name, city, score, tags


def to_json(v):
    if isinstance(v, dict):
        return "{" + ",".join('"%s":%s' % (k, to_json(v[k])) for k in sorted(v)) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(to_json(x) for x in v) + "]"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(v)


def records_task(rng, words, n):
    recs = [Record(i, words[rng.below(len(words))].capitalize(), words[rng.below(64)],
                   rng.below(10000) / 100.0, [words[rng.below(len(words))] for _ in range(rng.below(4))])
            for i in range(n)]
    by_city = {}
    for r in recs:
        by_city.setdefault(r.city, []).append(r)
    summary = {}
    for city, rs in by_city.items():
        rs.sort(key=lambda r: (-r.score, r.name))
        summary[city] = {"n": len(rs), "best": rs[0].name, "mean": "%.3f" % (sum(r.score for r in rs) / len(rs))}
    counts = {}
    for r in recs:
        for t in r.tags:
            counts[t] = counts.get(t, 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:20]
    text = to_json({"cities": summary, "top": top})
    line = " ".join("%s:%d" % (r.name.lower(), int(r.score)) for r in recs)
    words_in_line = line.split()
    return crc32(text.encode()) ^ crc32(line.encode()[:20000]) ^ len(words_in_line)


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    rng = Rng(12345)
    words = make_words(rng, 3000)
    total = 0
    for r in range(rounds):
        a = interpreter_task(300 + 10 * (r % 5))
        b = records_task(rng, words, 4000)
        c = simulate(rng, 6000)
        total = (total * 1000003 + a + b + c) % (1 << 61)
        print("round %d %d %d %d" % (r, a, b, c))
    print("total", total)


main()
