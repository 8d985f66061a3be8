/* module.c - one "translation unit worth" of ordinary C for the cc1 workload.
 * main.c includes this file several times with a different NS() prefix, so
 * cc1 parses, optimises and emits every copy: the amount of compiler work
 * scales with the number of copies while the code stays realistic (hash
 * tables, sorting, a tokenizer, a bytecode interpreter, bit manipulation,
 * fixed-point maths, a state machine and string handling).
 * Requires: NS(x) defined by the includer; module.h included before. */

struct NS(entry) {
    const char *key;
    u32 hash;
    int value;
    struct NS(entry) *next;
};

struct NS(table) {
    struct NS(entry) **slots;
    u32 nslots;
    u32 count;
};

static u32 NS(hash_str)(const char *s)
{
    u32 h = 2166136261u;
    while (*s) {
        h ^= (u8)*s++;
        h *= 16777619u;
    }
    return h ^ (h >> 15);
}

static int NS(table_init)(struct NS(table) *t, u32 nslots)
{
    t->slots = calloc(nslots, sizeof *t->slots);
    t->nslots = nslots;
    t->count = 0;
    return t->slots ? 0 : -1;
}

static int NS(str_eq)(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

static int NS(table_grow)(struct NS(table) *t)
{
    u32 n = t->nslots * 2, i;
    struct NS(entry) **slots = calloc(n, sizeof *slots);
    if (!slots)
        return -1;
    for (i = 0; i < t->nslots; i++) {
        struct NS(entry) *e = t->slots[i], *next;
        for (; e; e = next) {
            next = e->next;
            e->next = slots[e->hash & (n - 1)];
            slots[e->hash & (n - 1)] = e;
        }
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = n;
    return 0;
}

static int *NS(table_get)(struct NS(table) *t, const char *key, int create)
{
    u32 h = NS(hash_str)(key);
    struct NS(entry) *e;
    for (e = t->slots[h & (t->nslots - 1)]; e; e = e->next)
        if (e->hash == h && NS(str_eq)(e->key, key))
            return &e->value;
    if (!create)
        return 0;
    if (t->count * 4 >= t->nslots * 3 && NS(table_grow)(t) != 0)
        return 0;
    e = malloc(sizeof *e);
    if (!e)
        return 0;
    e->key = key;
    e->hash = h;
    e->value = 0;
    e->next = t->slots[h & (t->nslots - 1)];
    t->slots[h & (t->nslots - 1)] = e;
    t->count++;
    return &e->value;
}

static void NS(table_free)(struct NS(table) *t)
{
    u32 i;
    for (i = 0; i < t->nslots; i++) {
        struct NS(entry) *e = t->slots[i], *next;
        for (; e; e = next) {
            next = e->next;
            free(e);
        }
    }
    free(t->slots);
}

/* ---- sorting ---- */
static void NS(insertion_sort)(int *a, int n)
{
    int i, j;
    for (i = 1; i < n; i++) {
        int v = a[i];
        for (j = i - 1; j >= 0 && a[j] > v; j--)
            a[j + 1] = a[j];
        a[j + 1] = v;
    }
}

static void NS(quick_sort)(int *a, int n)
{
    while (n > 16) {
        int pivot = a[n / 2], i = 0, j = n - 1;
        while (i <= j) {
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i <= j) {
                int t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                j--;
            }
        }
        if (j + 1 < n - i) {
            NS(quick_sort)(a, j + 1);
            a += i;
            n -= i;
        } else {
            NS(quick_sort)(a + i, n - i);
            n = j + 1;
        }
    }
    NS(insertion_sort)(a, n);
}

static void NS(merge_sort)(u64 *a, u64 *tmp, size_t n)
{
    size_t mid = n / 2, i = 0, j, k = 0;
    if (n < 2)
        return;
    NS(merge_sort)(a, tmp, mid);
    NS(merge_sort)(a + mid, tmp, n - mid);
    j = mid;
    while (i < mid && j < n)
        tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < mid)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

/* ---- tokenizer ---- */
enum NS(tok_kind) { NS(T_EOF), NS(T_NUM), NS(T_IDENT), NS(T_STR), NS(T_PUNCT) };

struct NS(token) {
    enum NS(tok_kind) kind;
    const char *start;
    int len;
    i64 num;
};

static int NS(is_ident)(int c, int first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!first && c >= '0' && c <= '9');
}

static const char *NS(next_token)(const char *p, struct NS(token) *t)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    t->start = p;
    t->num = 0;
    if (!*p) {
        t->kind = NS(T_EOF);
        t->len = 0;
        return p;
    }
    if (*p >= '0' && *p <= '9') {
        int base = 10;
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            base = 16;
            p += 2;
        }
        for (;;) {
            int d;
            if (*p >= '0' && *p <= '9')
                d = *p - '0';
            else if (base == 16 && *p >= 'a' && *p <= 'f')
                d = *p - 'a' + 10;
            else if (base == 16 && *p >= 'A' && *p <= 'F')
                d = *p - 'A' + 10;
            else
                break;
            t->num = t->num * base + d;
            p++;
        }
        t->kind = NS(T_NUM);
    } else if (NS(is_ident)(*p, 1)) {
        while (NS(is_ident)(*p, 0))
            p++;
        t->kind = NS(T_IDENT);
    } else if (*p == '"') {
        p++;
        while (*p && *p != '"') {
            if (*p == '\\' && p[1])
                p++;
            p++;
        }
        if (*p)
            p++;
        t->kind = NS(T_STR);
    } else {
        static const char *const two[] = {"==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "->", "++", "--"};
        size_t i;
        t->kind = NS(T_PUNCT);
        for (i = 0; i < ARRAY_LEN(two); i++)
            if (p[0] == two[i][0] && p[1] == two[i][1]) {
                p += 2;
                t->len = 2;
                return p;
            }
        p++;
    }
    t->len = (int)(p - t->start);
    return p;
}

/* ---- bytecode interpreter ---- */
enum NS(op) { NS(OP_PUSH), NS(OP_ADD), NS(OP_SUB), NS(OP_MUL), NS(OP_DIV), NS(OP_DUP), NS(OP_SWAP),
              NS(OP_JZ), NS(OP_JMP), NS(OP_LOAD), NS(OP_STORE), NS(OP_LT), NS(OP_HALT) };

struct NS(vm) {
    i64 stack[256];
    i64 vars[16];
    int sp;
    long steps;
};

static i64 NS(vm_run)(struct NS(vm) *vm, const int *code, int len, long max_steps)
{
    int pc = 0;
    vm->sp = 0;
    while (pc >= 0 && pc < len && vm->steps < max_steps) {
        int op = code[pc++];
        i64 a, b;
        vm->steps++;
        switch (op) {
        case NS(OP_PUSH): vm->stack[vm->sp++] = code[pc++]; break;
        case NS(OP_ADD): b = vm->stack[--vm->sp]; a = vm->stack[--vm->sp]; vm->stack[vm->sp++] = a + b; break;
        case NS(OP_SUB): b = vm->stack[--vm->sp]; a = vm->stack[--vm->sp]; vm->stack[vm->sp++] = a - b; break;
        case NS(OP_MUL): b = vm->stack[--vm->sp]; a = vm->stack[--vm->sp]; vm->stack[vm->sp++] = a * b; break;
        case NS(OP_DIV):
            b = vm->stack[--vm->sp];
            a = vm->stack[--vm->sp];
            vm->stack[vm->sp++] = b ? a / b : 0;
            break;
        case NS(OP_DUP): a = vm->stack[vm->sp - 1]; vm->stack[vm->sp++] = a; break;
        case NS(OP_SWAP):
            a = vm->stack[vm->sp - 1];
            vm->stack[vm->sp - 1] = vm->stack[vm->sp - 2];
            vm->stack[vm->sp - 2] = a;
            break;
        case NS(OP_JZ): a = vm->stack[--vm->sp]; if (!a) pc = code[pc]; else pc++; break;
        case NS(OP_JMP): pc = code[pc]; break;
        case NS(OP_LOAD): vm->stack[vm->sp++] = vm->vars[code[pc++] & 15]; break;
        case NS(OP_STORE): vm->vars[code[pc++] & 15] = vm->stack[--vm->sp]; break;
        case NS(OP_LT): b = vm->stack[--vm->sp]; a = vm->stack[--vm->sp]; vm->stack[vm->sp++] = a < b; break;
        case NS(OP_HALT): return vm->sp ? vm->stack[vm->sp - 1] : 0;
        default: return -1;
        }
        if (vm->sp < 0 || vm->sp >= 250)
            return -2;
    }
    return vm->sp ? vm->stack[vm->sp - 1] : 0;
}

/* ---- bits and fixed point ---- */
static inline int NS(popcount64)(u64 x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

static u32 NS(crc32)(const u8 *p, size_t n)
{
    static u32 table[256];
    static int ready;
    u32 c = 0xffffffffu;
    size_t i;
    if (!ready) {
        u32 k, j;
        for (k = 0; k < 256; k++) {
            u32 v = k;
            for (j = 0; j < 8; j++)
                v = (v & 1) ? 0xedb88320u ^ (v >> 1) : v >> 1;
            table[k] = v;
        }
        ready = 1;
    }
    for (i = 0; i < n; i++)
        c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

typedef int NS(fix16);
static NS(fix16) NS(fix_mul)(NS(fix16) a, NS(fix16) b) { return (NS(fix16))(((i64)a * b) >> 16); }

static NS(fix16) NS(fix_sqrt)(NS(fix16) x)
{
    NS(fix16) r = x > 65536 ? x / 2 : 65536;
    int i;
    if (x <= 0)
        return 0;
    for (i = 0; i < 20; i++) {
        NS(fix16) q = (NS(fix16))(((i64)x << 16) / r);
        r = (r + q) / 2;
    }
    return r;
}

static void NS(matmul)(const NS(fix16) *a, const NS(fix16) *b, NS(fix16) *c, int n)
{
    int i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            NS(fix16) s = 0;
            for (k = 0; k < n; k++)
                s += NS(fix_mul)(a[i * n + k], b[k * n + j]);
            c[i * n + j] = s;
        }
}

/* ---- a protocol state machine ---- */
enum NS(state) { NS(S_IDLE), NS(S_HEADER), NS(S_BODY), NS(S_CHECK), NS(S_DONE), NS(S_ERROR) };

struct NS(parser) {
    enum NS(state) st;
    u32 need, got, sum, frames, errors;
    u8 hdr[4];
};

static void NS(feed)(struct NS(parser) *p, const u8 *buf, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        u8 c = buf[i];
        switch (p->st) {
        case NS(S_IDLE):
            if (c == 0x7e) {
                p->st = NS(S_HEADER);
                p->got = 0;
            }
            break;
        case NS(S_HEADER):
            p->hdr[p->got++] = c;
            if (p->got == 4) {
                p->need = (u32)p->hdr[2] << 8 | p->hdr[3];
                p->got = 0;
                p->sum = 0;
                p->st = p->need ? NS(S_BODY) : NS(S_CHECK);
            }
            break;
        case NS(S_BODY):
            p->sum = (p->sum << 1 | p->sum >> 31) ^ c;
            if (++p->got == p->need)
                p->st = NS(S_CHECK);
            break;
        case NS(S_CHECK):
            if ((u8)p->sum == c) {
                p->frames++;
                p->st = NS(S_DONE);
            } else {
                p->errors++;
                p->st = NS(S_ERROR);
            }
            break;
        case NS(S_DONE):
        case NS(S_ERROR):
            p->st = c == 0x7e ? NS(S_HEADER) : NS(S_IDLE);
            p->got = 0;
            break;
        }
    }
}

/* ---- strings ---- */
static size_t NS(str_len)(const char *s)
{
    const char *p = s;
    while (*p)
        p++;
    return (size_t)(p - s);
}

static char *NS(str_join)(const char *const *parts, int n, char sep)
{
    size_t total = 1, off = 0;
    int i;
    char *out;
    for (i = 0; i < n; i++)
        total += NS(str_len)(parts[i]) + 1;
    out = malloc(total);
    if (!out)
        return 0;
    for (i = 0; i < n; i++) {
        size_t l = NS(str_len)(parts[i]);
        memcpy(out + off, parts[i], l);
        off += l;
        if (i + 1 < n)
            out[off++] = sep;
    }
    out[off] = 0;
    return out;
}

static int NS(format_u64)(char *buf, u64 v, int base)
{
    char tmp[72];
    int n = 0, i;
    do {
        int d = (int)(v % (u64)base);
        tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        v /= (u64)base;
    } while (v);
    for (i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = 0;
    return n;
}

/* ---- driver for this copy ---- */
int NS(selftest)(int seed)
{
    static const char *const words[] = {"alpha", "beta", "gamma", "delta", "alpha", "beta", "alpha"};
    static const int prog[] = {NS(OP_PUSH), 0, NS(OP_STORE), 0, NS(OP_PUSH), 0, NS(OP_STORE), 1,
                               NS(OP_LOAD), 1, NS(OP_PUSH), 1000, NS(OP_LT), NS(OP_JZ), 30,
                               NS(OP_LOAD), 0, NS(OP_LOAD), 1, NS(OP_ADD), NS(OP_STORE), 0,
                               NS(OP_LOAD), 1, NS(OP_PUSH), 1, NS(OP_ADD), NS(OP_STORE), 1,
                               NS(OP_JMP), 8, NS(OP_LOAD), 0, NS(OP_HALT)};
    struct NS(table) t;
    struct NS(vm) vm;
    struct NS(parser) ps;
    struct NS(token) tok;
    int nums[64], i, score = 0;
    u64 big[32], tmp[32];
    NS(fix16) ma[16], mb[16], mc[16];
    u8 frame[16] = {0x7e, 1, 0, 3, 'a', 'b', 'c', 0};
    const char *src = "x = 0x1f + foo(\"s\\\"q\", 42) >= y && z;";
    char buf[80], *joined;

    if (NS(table_init)(&t, 8) != 0)
        return -1;
    for (i = 0; i < (int)ARRAY_LEN(words); i++) {
        int *v = NS(table_get)(&t, words[i], 1);
        if (v)
            *v += i + seed;
    }
    score += *NS(table_get)(&t, "alpha", 0);
    NS(table_free)(&t);

    for (i = 0; i < 64; i++)
        nums[i] = (i * 7919 + seed) % 101;
    NS(quick_sort)(nums, 64);
    for (i = 0; i < 32; i++)
        big[i] = ((u64)i * 0x9e3779b97f4a7c15ull) ^ (u64)seed;
    NS(merge_sort)(big, tmp, 32);
    score += nums[10] + NS(popcount64)(big[5]);

    while ((src = NS(next_token)(src, &tok)), tok.kind != NS(T_EOF))
        score += tok.kind * 3 + tok.len + (int)tok.num;

    memset(&vm, 0, sizeof vm);
    score += (int)NS(vm_run)(&vm, prog, (int)ARRAY_LEN(prog), 100000);

    for (i = 0; i < 16; i++) {
        ma[i] = (i + 1) << 16;
        mb[i] = NS(fix_sqrt)((i + 2) << 16);
    }
    NS(matmul)(ma, mb, mc, 4);
    score += mc[5] >> 16;

    memset(&ps, 0, sizeof ps);
    frame[7] = (u8)((((u32)'a' << 1) ^ 'b') << 1 ^ 'c');
    NS(feed)(&ps, frame, sizeof frame);
    score += (int)(ps.frames * 10 + ps.errors);

    joined = NS(str_join)(words, (int)ARRAY_LEN(words), ',');
    if (joined) {
        score += (int)(NS(crc32)((const u8 *)joined, NS(str_len)(joined)) & 0xff);
        free(joined);
    }
    score += NS(format_u64)(buf, (u64)score * 1000003u, 16);
    return score;
}
