/*
 * first_fit: what a runtime arena allocator does when it serves the model step by step, like TFLite's
 * SimpleMemoryArena but taking the lowest fitting block rather than the tightest.
 *
 * Algorithm:
 *   1. Fixed buffers keep their offsets. Buffers that occupy no memory (size 0 or never live) go to offset 0.
 *   2. Order the other buffers by start step, then size (largest first), then index.
 *   3. Walk that order. When the step advances, release every live buffer whose lifetime has ended; the free space
 *      is then the gaps between the live buffers, so adjacent free blocks are coalesced by construction.
 *   4. Allocate each buffer at the lowest offset that is a multiple of its alignment and fits a gap between the live
 *      buffers and the fixed buffers whose lifetime intersects its own (a fixed buffer is reserved for its whole
 *      lifetime, even before it starts); when no gap fits, the arena grows at the top.
 * A buffer allocated later that conflicts with an earlier one is live while the earlier one still is, so checking
 * the live set is enough.
 *
 * The live buffers never share bytes (they are all live at the current step), so they sit in a balanced search tree
 * by offset (a treap whose priorities hash the buffer index: expected depth O(log n) whatever the offsets), each
 * node knowing the gap below its buffer (down to the previous live buffer's end) and the largest such gap in its
 * subtree. The lowest gap that can hold a buffer is then found by one descent that skips every subtree whose largest
 * gap is too small; a gap large enough but too small once its start is aligned is passed over and the descent goes
 * on, so misaligned gaps cost O(log n) each. Conflicting fixed buffers (usually none) come from an interval tree;
 * the search alternates between them and the live tree with a rising floor until both agree.
 *
 * Complexity: O(n log n) expected (the orders are radix sorts; each allocation and release is O(log n)), plus
 * O(log n) per misaligned gap passed over and O(f log f) per allocation for its f conflicting fixed buffers.
 * Worst shape: many gaps that are just too small once aligned (alignments much larger than the gaps), or many fixed
 * buffers live throughout. Scratch: 32 bytes per buffer (orders by start and by end 8, tree links 12, previous live
 * buffer 4, largest gap 8) plus 16 per fixed buffer that occupies memory (interval tree 8, conflicting list 4, sort
 * space 4).
 * Guarantee: a valid plan; deterministic. It models an online allocator, so it is usually worse than greedy_by_size.
 */
#include "aplan/strategies.h"
#include "core/internal.h"

#define NONE UINT32_MAX

enum { ORDER, BY_UPPER, LEFT, RIGHT, PARENT, PREV, ARRAYS };    /* n entries each */
enum { FIXED_ORDER, FIXED_MAX, FIXED_HITS, FIXED_TMP, FIXED_ARRAYS }; /* one entry per fixed buffer */

typedef struct {
    const aplan_problem *p;
    const uint64_t *off;
    uint32_t *left, *right, *parent, *prev;
    uint64_t *gapmax; /* largest gap below a buffer of the subtree */
    uint32_t root;
} live_tree;

static size_t fixed_count(const aplan_problem *p) {
    size_t f = 0;
    for (size_t i = 0; i < p->count; i++) f += aplan__fixed(p, i) != APLAN_NO_OFFSET && aplan__occupies(p, i);
    return f;
}

/* The one layout of the scratch: measures when s has no base. */
static void layout(aplan__scratch *s, size_t n, size_t f, uint32_t **w, uint32_t **fw, uint64_t **gapmax) {
    (void)aplan__take_u32_arrays(s, n, w, ARRAYS);
    *gapmax = aplan__scratch_take(s, n, sizeof(uint64_t), sizeof(uint64_t));
    (void)aplan__take_u32_arrays(s, f, fw, FIXED_ARRAYS);
}

static aplan_status scratch_size(const aplan_strategy *self, const aplan_problem *p, size_t *bytes) {
    (void)self;
    aplan__scratch s;
    uint32_t *w[ARRAYS], *fw[FIXED_ARRAYS];
    uint64_t *gapmax;
    aplan__scratch_init(&s, NULL, SIZE_MAX);
    layout(&s, p->count, fixed_count(p), w, fw, &gapmax);
    if (s.failed) return APLAN_E_SIZE_OVERFLOW;
    *bytes = s.used;
    return APLAN_OK;
}

/* Treap priority: a fixed hash of the index (splitmix64's finaliser), so the shape is random-looking but
 * deterministic; ties, which a 64-bit hash of distinct indices does not have, would fall to the index. */
static uint64_t priority(uint32_t i) {
    uint64_t z = i + 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static bool above(uint32_t a, uint32_t b) { return priority(a) > priority(b) || (priority(a) == priority(b) && a > b); }

static uint64_t end_of(const live_tree *t, uint32_t v) { return t->off[v] + aplan__size(t->p, v); }

/* Free bytes between v and the live buffer below it (or offset 0). */
static uint64_t gap_below(const live_tree *t, uint32_t v) {
    return t->off[v] - (t->prev[v] == NONE ? 0 : end_of(t, t->prev[v]));
}

static void pull(live_tree *t, uint32_t v) {
    uint64_t g = gap_below(t, v);
    if (t->left[v] != NONE && t->gapmax[t->left[v]] > g) g = t->gapmax[t->left[v]];
    if (t->right[v] != NONE && t->gapmax[t->right[v]] > g) g = t->gapmax[t->right[v]];
    t->gapmax[v] = g;
}

static void pull_to_root(live_tree *t, uint32_t v) {
    for (; v != NONE; v = t->parent[v]) pull(t, v);
}

/* Lifts x above its parent, keeping the offset order. */
static void rotate_up(live_tree *t, uint32_t x) {
    const uint32_t p = t->parent[x], g = t->parent[p];
    uint32_t moved;
    if (t->left[p] == x) {
        moved = t->right[x];
        t->left[p] = moved;
        t->right[x] = p;
    } else {
        moved = t->left[x];
        t->right[p] = moved;
        t->left[x] = p;
    }
    if (moved != NONE) t->parent[moved] = p;
    t->parent[p] = x;
    t->parent[x] = g;
    if (g == NONE) t->root = x;
    else if (t->left[g] == p) t->left[g] = x;
    else t->right[g] = x;
    pull(t, p);
    pull(t, x);
}

static void insert(live_tree *t, uint32_t x) {
    uint32_t pred = NONE, succ = NONE, at = NONE;
    for (uint32_t v = t->root; v != NONE;) {
        at = v;
        if (t->off[x] < t->off[v]) { /* live buffers never share an offset */
            succ = v;
            v = t->left[v];
        } else {
            pred = v;
            v = t->right[v];
        }
    }
    t->left[x] = t->right[x] = NONE;
    t->parent[x] = at;
    if (at == NONE) t->root = x;
    else if (at == succ) t->left[at] = x;
    else t->right[at] = x;
    t->prev[x] = pred;
    if (succ != NONE) t->prev[succ] = x;
    pull(t, x);
    while (t->parent[x] != NONE && above(x, t->parent[x])) rotate_up(t, x);
    pull_to_root(t, x);
    pull_to_root(t, succ);
}

static void release(live_tree *t, uint32_t x) {
    uint32_t succ = t->right[x];
    if (succ != NONE) {
        while (t->left[succ] != NONE) succ = t->left[succ];
    } else {
        uint32_t v = x;
        for (succ = t->parent[v]; succ != NONE && t->right[succ] == v; succ = t->parent[v]) v = succ;
    }
    while (t->left[x] != NONE || t->right[x] != NONE) { /* rotate x down to a leaf */
        const uint32_t l = t->left[x], r = t->right[x];
        rotate_up(t, l == NONE ? r : r == NONE ? l : above(l, r) ? l : r);
    }
    const uint32_t p = t->parent[x];
    if (p == NONE) t->root = NONE;
    else if (t->left[p] == x) t->left[p] = NONE;
    else t->right[p] = NONE;
    if (succ != NONE) t->prev[succ] = t->prev[x];
    pull_to_root(t, p);
    pull_to_root(t, succ);
}

/* Whether the gap below v holds size bytes at an aligned offset >= floor; if so *at is the lowest such offset. */
static bool fits_below(const live_tree *t, uint32_t v, uint64_t floor, uint64_t size, uint64_t align, uint64_t *at) {
    uint64_t lo = t->prev[v] == NONE ? 0 : end_of(t, t->prev[v]);
    if (lo < floor) lo = floor;
    uint64_t c;
    if (!aplan__align_up(lo, align, &c) || size > t->off[v] || c > t->off[v] - size) return false;
    *at = c;
    return true;
}

/*
 * Lowest aligned offset >= floor at which size bytes miss every live buffer: the first gap, in offset order, that
 * holds them, else the first aligned offset above the highest live buffer and the floor. APLAN_E_SIZE_OVERFLOW when
 * that passes 2^64 - 1. An in-order walk that enters only subtrees whose largest gap could hold size bytes and,
 * on the left, only below buffers that start above the floor; parent links bring it back up, so no stack.
 */
static aplan_status lowest_fit(const live_tree *t, uint64_t floor, uint64_t size, uint64_t align, uint64_t *out) {
    uint32_t v = t->root;
    if (v != NONE && t->gapmax[v] >= size) {
        for (;;) {
            for (uint32_t l = t->left[v]; l != NONE && t->gapmax[l] >= size && t->off[v] > floor; l = t->left[v]) {
                v = l; /* the lowest candidates are on the left */
            }
            for (;;) { /* v: its left subtree is done; try the gap below v, then its right subtree */
                if (gap_below(t, v) >= size && fits_below(t, v, floor, size, align, out)) {
                    return APLAN_OK;
                }
                const uint32_t r = t->right[v];
                if (r != NONE && t->gapmax[r] >= size) {
                    v = r;
                    break; /* descend into it */
                }
                uint32_t from = v; /* climb to the first ancestor entered from its left: it is next in order */
                for (v = t->parent[from]; v != NONE && t->right[v] == from; v = t->parent[from]) from = v;
                if (v == NONE) goto top;
            }
        }
    }
top:;
    uint64_t lo = 0;
    for (uint32_t u = t->root; u != NONE; u = t->right[u]) lo = end_of(t, u); /* the highest live buffer's end */
    if (lo < floor) lo = floor;
    uint64_t end;
    if (!aplan__align_up(lo, align, out) || !aplan__add(*out, size, &end)) return APLAN_E_SIZE_OVERFLOW;
    return APLAN_OK;
}

static aplan_status plan(const aplan_strategy *self, const aplan_problem *p, void *scratch, size_t scratch_size,
                         uint64_t *offsets, aplan_report *report) {
    (void)self;
    aplan__scratch s;
    uint32_t *w[ARRAYS], *fw[FIXED_ARRAYS];
    live_tree t = {.p = p, .off = offsets, .root = NONE};
    const size_t f = fixed_count(p);
    aplan__scratch_init(&s, scratch, scratch_size);
    layout(&s, p->count, f, w, fw, &t.gapmax);
    if (s.failed) return APLAN_E_SCRATCH_TOO_SMALL;
    t.left = w[LEFT];
    t.right = w[RIGHT];
    t.parent = w[PARENT];
    t.prev = w[PREV];
    size_t online, listed;
    aplan__split(p, true, offsets, w[ORDER], &online, fw[FIXED_ORDER], &listed, NULL);
    APLAN_ASSERT(listed == f);
    aplan__itree fixed;
    aplan__itree_build(&fixed, p, offsets, fw[FIXED_ORDER], fw[FIXED_MAX], fw[FIXED_TMP], f);
    /* (start, size descending, index): stable sorts, the last key first, from a list by rising index. The tree's
     * arrays are free until the walk and serve as the sorts' second array. */
    for (size_t k = 0; k < online; k++) w[BY_UPPER][k] = w[ORDER][k];
    aplan__sort_by(w[ORDER], w[LEFT], online, APLAN__BY_SIZE_DESC, p, NULL);
    aplan__sort_by(w[ORDER], w[LEFT], online, APLAN__BY_LOWER, p, NULL);
    aplan__sort_by(w[BY_UPPER], w[LEFT], online, APLAN__BY_UPPER, p, NULL);
    size_t released = 0;
    for (size_t k = 0; k < online; k++) {
        const uint32_t x = w[ORDER][k];
        const aplan_buffer b_at = aplan__buffer(p, x), *b = &b_at;
        /* Every buffer that ends by this start has started earlier, so it was allocated and is in the tree. */
        for (; released < online && aplan__upper(p, w[BY_UPPER][released]) <= b->lower; released++) {
            release(&t, w[BY_UPPER][released]);
        }
        const uint64_t size = aplan__size(p, x);
        const uint64_t align = aplan__alignment(p, x);
        const size_t n_fixed = aplan__itree_query(&fixed, b->lower, b->upper, fw[FIXED_HITS]);
        aplan__sort_by(fw[FIXED_HITS], fw[FIXED_TMP], n_fixed, APLAN__BY_OFFSET, p, offsets);
        /* Each side gives the lowest offset >= floor it allows; the floor rises until both allow the same one. */
        uint64_t floor = 0, at;
        size_t pos = 0;
        aplan_status st;
        for (;;) {
            if ((st = lowest_fit(&t, floor, size, align, &at)) != APLAN_OK) break;
            if (n_fixed == 0) break;
            uint64_t fixed_at;
            if ((st = aplan__first_gap(p, offsets, fw[FIXED_HITS], n_fixed, &pos, at, size, align, &fixed_at)) !=
                    APLAN_OK ||
                fixed_at == at) {
                break;
            }
            floor = fixed_at;
        }
        if (st != APLAN_OK) {
            aplan__report_value(report, st, x, 0, size);
            return st;
        }
        offsets[x] = at;
        insert(&t, x);
    }
    return APLAN_OK;
}

static const aplan_strategy first_fit = {
    .abi_version = APLAN_STRATEGY_ABI_VERSION,
    .name = "first_fit",
    .description = APLAN_TEXT("runtime arena simulation: step order, free and coalesce, lowest block that fits"),
    .scratch_size = scratch_size,
    .plan = plan,
};

const aplan_strategy *aplan_strategy_first_fit(void) { return &first_fit; }
