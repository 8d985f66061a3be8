# gen.py N SEED - write N generated English sentences, one per line, for the
# parser workload (link-parser).  A small phrase-structure grammar of our own
# over a small vocabulary (every word is in link-grammar's English
# dictionary): declaratives with prepositional phrases, relative clauses,
# that-complements, coordination, conditionals and questions, 4-20 words.
# Deterministic: a 64-bit LCG, no Python hashing, no clock.
import sys

n, seed = int(sys.argv[1]), int(sys.argv[2])
state = (seed * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)


def rnd(k):
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
    return (state >> 33) % k


def pick(xs):
    return xs[rnd(len(xs))]


DET_S = ["the", "a", "this", "that", "every", "one", "my", "his", "her", "our"]
DET_P = ["the", "some", "these", "those", "many", "few", "two", "three", "my", "our"]
NOUNS = [("dog", "dogs"), ("cat", "cats"), ("farmer", "farmers"), ("teacher", "teachers"),
         ("student", "students"), ("child", "children"), ("woman", "women"), ("man", "men"),
         ("horse", "horses"), ("book", "books"), ("letter", "letters"), ("car", "cars"),
         ("house", "houses"), ("city", "cities"), ("river", "rivers"), ("garden", "gardens"),
         ("doctor", "doctors"), ("friend", "friends"), ("committee", "committees"),
         ("bridge", "bridges"), ("machine", "machines"), ("idea", "ideas"), ("table", "tables"),
         ("window", "windows"), ("road", "roads"), ("village", "villages"), ("box", "boxes")]
ADJS = ["old", "young", "big", "small", "red", "quiet", "happy", "strange", "new", "heavy",
        "clever", "tired", "green", "long", "famous", "cold"]
# transitive verbs: (3sg present, plural present, past)
VT = [("sees", "see", "saw"), ("likes", "like", "liked"), ("finds", "find", "found"),
      ("sells", "sell", "sold"), ("buys", "buy", "bought"), ("visits", "visit", "visited"),
      ("chases", "chase", "chased"), ("builds", "build", "built"), ("reads", "read", "read"),
      ("watches", "watch", "watched"), ("carries", "carry", "carried"),
      ("remembers", "remember", "remembered"), ("helps", "help", "helped")]
# intransitive verbs
VI = [("sleeps", "sleep", "slept"), ("arrives", "arrive", "arrived"), ("walks", "walk", "walked"),
      ("laughs", "laugh", "laughed"), ("waits", "wait", "waited"), ("works", "work", "worked"),
      ("runs", "run", "ran")]
# verbs taking a that-clause
VS = [("says", "say", "said"), ("thinks", "think", "thought"), ("knows", "know", "knew"),
      ("believes", "believe", "believed"), ("hopes", "hope", "hoped")]
PREPS = ["in", "on", "near", "with", "from", "under", "behind", "after", "before", "without"]
ADVS = ["quickly", "slowly", "quietly", "often", "yesterday", "carefully", "again"]
NAMES = ["John", "Mary", "Peter", "Susan", "Tom", "Alice"]


def np(depth, plural=None):
    """A noun phrase; returns (words, plural?)."""
    if plural is None:
        plural = rnd(3) == 0
    if rnd(8) == 0 and not plural:
        return [pick(NAMES)], False
    words = [pick(DET_P if plural else DET_S)]
    for _ in range(rnd(3) if rnd(2) else 0):
        words.append(pick(ADJS))
    noun = pick(NOUNS)
    words.append(noun[1] if plural else noun[0])
    if depth > 0 and rnd(4) == 0:
        words += pp(depth - 1)
    if depth > 0 and rnd(5) == 0:
        words += relative(depth - 1, plural)
    return words, plural


def pp(depth):
    return [pick(PREPS)] + np(depth)[0]


def verb(v, plural, past):
    return v[2] if past else (v[1] if plural else v[0])


def vp(depth, plural, past):
    kind = rnd(10)
    if kind < 5:
        words = [verb(pick(VT), plural, past)] + np(depth)[0]
    elif kind < 7:
        words = [verb(pick(VI), plural, past)]
    elif kind < 9 and depth > 0:
        words = [verb(pick(VS), plural, past), "that"] + clause(depth - 1)
    else:
        words = [verb(pick(VT), plural, past)] + np(depth)[0]
    if rnd(3) == 0:
        words += pp(max(depth - 1, 0))
    if rnd(4) == 0:
        words.append(pick(ADVS))
    return words


def relative(depth, plural):
    past = rnd(2) == 0
    if rnd(2):
        return ["who"] + vp(depth, plural, past)
    subj, sp = np(0)
    return ["that"] + subj + [verb(pick(VT), sp, past)]


def clause(depth):
    subj, plural = np(depth)
    if rnd(6) == 0:
        other, _ = np(0)
        subj, plural = subj + ["and"] + other, True
    past = rnd(2) == 0
    words = subj + vp(depth, plural, past)
    if depth > 0 and rnd(6) == 0:
        subj2, pl2 = np(0)
        words += [pick(["and", "but"])] + subj2 + vp(0, pl2, past)
    return words


def sentence():
    kind = rnd(10)
    if kind == 0:
        words = ["if"] + clause(1) + [","] + clause(1)
    elif kind == 1:
        subj, plural = np(1)
        words = ["does" if not plural else "do"] + subj + \
            [pick(VT)[1]] + np(1)[0]
        words[0] = words[0].capitalize()
        return " ".join(words) + " ?"
    else:
        words = clause(1 + rnd(2))
    while len(words) > 20:
        words = clause(0)
    words[0] = words[0][0].upper() + words[0][1:]
    return " ".join(words) + " ."


for _ in range(n):
    print(sentence())
