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
 * on, so misaligned gaps cost O(log n) each. Below TREE_MIN (8,192) buffers, the fixed buffers in conflict with each
 * buffer come from an interval tree, sorted by offset, and aplan__first_gap walks them. From TREE_MIN they sit in a
 * second tree, over their (offset, index) order, holding those not yet over (one leaves it for good once the walk's
 * step reaches its upper step); the ones in conflict with a buffer are then those still in it that start before the
 * buffer ends. Each node sums up its subtree: the first and last start, the highest end, the lowest offset, and a
 * bound on the largest free gap. The walk over them in offset order (aplan__first_gap's) passes a subtree over whole
 * when none of its fixed buffers is in conflict or all end below the candidate, or when all are in conflict and no
 * gap among them holds the buffer (the candidate then rises above them at once), and looks inside only otherwise.
 * The search alternates between the two trees with a rising floor until both agree.
 *
 * Complexity: O(n log n) expected (the orders are radix sorts; each allocation and release is O(log n)), plus O(log
 * n) per misaligned gap passed over and O(log f) per subtree of fixed buffers the walk looks into, for f fixed
 * buffers (each leaves the tree once, O(log f)): O(log f) for a stack of fixed buffers live throughout, which were
 * listed and sorted for every allocation before (O(n f log f): 4.4 s on 957 KB of CSV; below TREE_MIN buffers they
 * still are, O(f log f) per allocation, under 0.2 s in all there). Worst shape: many gaps that are just too small
 * once aligned (alignments much larger than the gaps), or fixed buffers in conflict interleaved, in offset order,
 * with fixed buffers that are not (each subtree holding both is looked into). Scratch: 32 bytes per buffer (orders
 * by start and by end 8, tree links 12, previous live buffer 4, largest gap 8) plus, for the f fixed buffers that
 * occupy memory, 16 per fixed buffer (orders, maxima or the list, sort space) and, from TREE_MIN buffers, 24 per
 * node of the fixed tree (2 p nodes for p the power of two at or above f: 48 to 96 bytes per fixed buffer).
 * Guarantee: a valid plan; deterministic. It models an online allocator, so it is usually worse than greedy_by_size.
 */
#include "aplan/strategies.h"
#include "core/internal.h"

#define NONE UINT32_MAX

enum { ORDER, BY_UPPER, LEFT, RIGHT, PARENT, PREV, ARRAYS };    /* n entries each */
/* One entry per fixed buffer. Below TREE_MIN buffers the interval tree lists the fixed buffers in conflict (order
 * by lower step, maxima, the list); from TREE_MIN the fixed tree (order by offset, order by upper step, unused). */
enum { FIXED_ORDER, FIXED_MAX, FIXED_HITS, FIXED_TMP, FIXED_ARRAYS };
#define FIXED_BY_UPPER FIXED_MAX
/* Problems of fewer buffers list the fixed buffers in conflict for each allocation and sort them, in 16 bytes per
 * fixed buffer (the TFLM adapter's figure for problems below 8,192 buffers, kPlanScratchPerOfflineBuffer, holds the
 * scratch of a microcontroller's arena to it): O(n f log f) there is under 0.2 s. From TREE_MIN the fixed tree. */
#define TREE_MIN 8192u

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

/* The fixed tree: a complete binary tree over leaves = the power of two at or above f (node 1 the root, node v's
 * children 2v and 2v + 1, leaf k at leaves + k), leaf k holding the k-th fixed buffer in (offset, index) order until
 * it is over. Each node sums up the fixed buffers of its subtree not yet over: the one with the lowest lower step
 * (first), the highest lower step (last), the highest end in bytes (high), the lowest offset (low: the leftmost),
 * and a bound on the largest free gap between their bytes (gap: no gap between two of them, below the highest end
 * of those before it, is larger). NONE (gap 0) when there is none. */
typedef struct {
    uint64_t gap;
    uint32_t first, last, high, low;
} fixed_node;

typedef struct {
    const aplan_problem *p;
    const uint64_t *off;
    const uint32_t *order; /* the fixed buffers by (offset, index) */
    fixed_node *node;      /* 2 * leaves entries (entry 0 unused) */
    size_t count, leaves;
} fixed_tree;

static size_t leaves_for(size_t f) {
    size_t l = 1;
    while (l < f && l <= SIZE_MAX / 4u) l <<= 1;
    return l < f ? SIZE_MAX / 2u : l; /* past SIZE_MAX / 4: a count no scratch holds, so the take fails */
}

/* The one layout of the scratch: measures when s has no base. */
static void layout(aplan__scratch *s, size_t n, size_t f, uint32_t **w, uint32_t **fw, uint64_t **gapmax,
                   fixed_tree *ft) {
    (void)aplan__take_u32_arrays(s, n, w, ARRAYS);
    *gapmax = aplan__scratch_take(s, n, sizeof(uint64_t), sizeof(uint64_t));
    (void)aplan__take_u32_arrays(s, f, fw, FIXED_ARRAYS);
    ft->leaves = f == 0 || n < TREE_MIN ? 0 : leaves_for(f);
    ft->node = aplan__scratch_take(s, 2u * ft->leaves, sizeof(fixed_node), sizeof(uint64_t));
}

static aplan_status scratch_size(const aplan_strategy *self, const aplan_problem *p, size_t *bytes) {
    (void)self;
    aplan__scratch s;
    uint32_t *w[ARRAYS], *fw[FIXED_ARRAYS];
    uint64_t *gapmax;
    fixed_tree ft;
    aplan__scratch_init(&s, NULL, SIZE_MAX);
    layout(&s, p->count, fixed_count(p), w, fw, &gapmax, &ft);
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

static uint64_t fixed_end(const fixed_tree *ft, uint32_t j) { return ft->off[j] + aplan__size(ft->p, j); }

static uint64_t lower_of(const fixed_tree *ft, uint32_t j) { return aplan__lower(ft->p, j); }

/* Node v's summary from its children's. */
static void fixed_pull(fixed_tree *ft, size_t v) {
    const fixed_node *l = &ft->node[2u * v], *r = &ft->node[2u * v + 1u];
    fixed_node *n = &ft->node[v];
    if (l->first == NONE || r->first == NONE) {
        *n = l->first == NONE ? *r : *l;
        return;
    }
    n->first = lower_of(ft, r->first) < lower_of(ft, l->first) ? r->first : l->first;
    n->last = lower_of(ft, r->last) > lower_of(ft, l->last) ? r->last : l->last;
    n->high = fixed_end(ft, r->high) > fixed_end(ft, l->high) ? r->high : l->high;
    n->low = l->low;
    /* The gaps inside each side, and the one between them (the right side's first offset above the left's highest
     * end); the left side's buffers can only narrow the right side's gaps, so the maximum stays a bound. */
    const uint64_t lend = fixed_end(ft, l->high), roff = ft->off[r->low];
    n->gap = l->gap > r->gap ? l->gap : r->gap;
    if (roff > lend && roff - lend > n->gap) n->gap = roff - lend;
}

/* Fills the leaves from order (count fixed buffers sorted by (offset, index)) and every node above. O(leaves). */
static void fixed_build(fixed_tree *ft) {
    for (size_t k = 0; k < ft->leaves; k++) {
        const uint32_t j = k < ft->count ? ft->order[k] : NONE;
        ft->node[ft->leaves + k] = (fixed_node){0, j, j, j, j};
    }
    for (size_t v = ft->leaves; v-- > 1;) fixed_pull(ft, v);
}

/* Fixed buffer j is over: out of the tree. Its leaf by binary search over (offset, index). O(log f). */
static void fixed_remove(fixed_tree *ft, uint32_t j) {
    size_t lo = 0, hi = ft->count;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2u;
        const uint32_t m = ft->order[mid];
        if (ft->off[m] < ft->off[j] || (ft->off[m] == ft->off[j] && m < j)) lo = mid + 1u;
        else hi = mid;
    }
    APLAN_ASSERT(lo < ft->count && ft->order[lo] == j);
    size_t v = ft->leaves + lo;
    ft->node[v] = (fixed_node){0, NONE, NONE, NONE, NONE};
    for (v >>= 1; v >= 1; v >>= 1) fixed_pull(ft, v);
}

/*
 * Lowest offset >= floor, aligned to align, at which size bytes miss every fixed buffer in the tree that starts
 * before upper (with the tree holding only those not over at the buffer's lower step: exactly the fixed buffers whose
 * lifetimes intersect the buffer's). The walk of aplan__first_gap over them in (offset, index) order, a subtree at a
 * time: one none of whose buffers is in conflict (its first start is too late) or that ends below the candidate is
 * passed over; one whose buffers are all in conflict (its last start is early enough) ends the walk when it starts
 * above the candidate, and is passed over whole, the candidate rising above its highest end, when no gap in it can
 * hold size bytes; else the walk looks inside. APLAN_E_SIZE_OVERFLOW when the offset or its end passes 2^64 - 1.
 * No stack: the next subtree to the right of node v is found by climbing while v is a right child.
 */
static aplan_status fixed_fit(const fixed_tree *ft, uint64_t upper, uint64_t floor, uint64_t size, uint64_t align,
                              uint64_t *out) {
    uint64_t c, c_end;
    if (!aplan__align_up(floor, align, &c) || !aplan__add(c, size, &c_end)) return APLAN_E_SIZE_OVERFLOW;
    for (size_t v = ft->leaves == 0 ? 0 : 1; v != 0;) {
        const fixed_node *n = &ft->node[v];
        if (n->first != NONE && lower_of(ft, n->first) < upper && fixed_end(ft, n->high) > c) {
            if (lower_of(ft, n->last) >= upper) { /* some are in conflict, some not: look inside */
                v = 2u * v;                          /* (a leaf's one buffer is either) */
                continue;
            }
            if (ft->off[n->low] >= c_end) break; /* it and every fixed buffer after it start above [c, c_end) */
            if (n->gap >= size) { /* a gap inside may hold it (a leaf has none) */
                v = 2u * v;
                continue;
            }
            if (!aplan__align_up(fixed_end(ft, n->high), align, &c) || !aplan__add(c, size, &c_end))
                return APLAN_E_SIZE_OVERFLOW;
        }
        while (v & 1u) v >>= 1; /* up while a right child (the root, 1, climbs to 0: the walk is over) */
        if (v != 0) v++;
    }
    *out = c;
    return APLAN_OK;
}

static aplan_status plan(const aplan_strategy *self, const aplan_problem *p, void *scratch, size_t scratch_size,
                         uint64_t *offsets, aplan_report *report) {
    (void)self;
    aplan__scratch s;
    uint32_t *w[ARRAYS], *fw[FIXED_ARRAYS];
    live_tree t = {.p = p, .off = offsets, .root = NONE};
    fixed_tree ft = {.p = p, .off = offsets};
    const size_t f = fixed_count(p);
    aplan__scratch_init(&s, scratch, scratch_size);
    layout(&s, p->count, f, w, fw, &t.gapmax, &ft);
    if (s.failed) return APLAN_E_SCRATCH_TOO_SMALL;
    t.left = w[LEFT];
    t.right = w[RIGHT];
    t.parent = w[PARENT];
    t.prev = w[PREV];
    size_t online, listed;
    aplan__split(p, true, offsets, w[ORDER], &online, fw[FIXED_ORDER], &listed, NULL);
    APLAN_ASSERT(listed == f);
    const bool tree = ft.leaves > 0;
    aplan__itree listed_fixed;
    if (tree) { /* listed by rising index: by (offset, index) for the tree, by upper step for their end */
        for (size_t k = 0; k < f; k++) fw[FIXED_BY_UPPER][k] = fw[FIXED_ORDER][k];
        aplan__sort_by(fw[FIXED_ORDER], fw[FIXED_TMP], f, APLAN__BY_OFFSET, p, offsets);
        aplan__sort_by(fw[FIXED_BY_UPPER], fw[FIXED_TMP], f, APLAN__BY_UPPER, p, NULL);
        ft.order = fw[FIXED_ORDER];
        ft.count = f;
        fixed_build(&ft);
    } else {
        aplan__itree_build(&listed_fixed, p, offsets, fw[FIXED_ORDER], fw[FIXED_MAX], fw[FIXED_TMP], f);
    }
    /* (start, size descending, index): stable sorts, the last key first, from a list by rising index. The tree's
     * arrays are free until the walk and serve as the sorts' second array. */
    for (size_t k = 0; k < online; k++) w[BY_UPPER][k] = w[ORDER][k];
    aplan__sort_by(w[ORDER], w[LEFT], online, APLAN__BY_SIZE_DESC, p, NULL);
    aplan__sort_by(w[ORDER], w[LEFT], online, APLAN__BY_LOWER, p, NULL);
    aplan__sort_by(w[BY_UPPER], w[LEFT], online, APLAN__BY_UPPER, p, NULL);
    size_t released = 0, fixed_over = 0;
    for (size_t k = 0; k < online; k++) {
        const uint32_t x = w[ORDER][k];
        const aplan_buffer b_at = aplan__buffer(p, x), *b = &b_at;
        /* Every buffer that ends by this start has started earlier, so it was allocated and is in the tree. */
        for (; released < online && aplan__upper(p, w[BY_UPPER][released]) <= b->lower; released++) {
            release(&t, w[BY_UPPER][released]);
        }
        /* A fixed buffer over by this start conflicts with none of the buffers still to place (they start later). */
        for (; tree && fixed_over < f && aplan__upper(p, fw[FIXED_BY_UPPER][fixed_over]) <= b->lower; fixed_over++) {
            fixed_remove(&ft, fw[FIXED_BY_UPPER][fixed_over]);
        }
        const uint64_t size = aplan__size(p, x);
        const uint64_t align = aplan__alignment(p, x);
        size_t n_fixed = 0, pos = 0;
        if (!tree) {
            n_fixed = aplan__itree_query(&listed_fixed, b->lower, b->upper, fw[FIXED_HITS]);
            aplan__sort_by(fw[FIXED_HITS], fw[FIXED_TMP], n_fixed, APLAN__BY_OFFSET, p, offsets);
        }
        /* Each side gives the lowest offset >= floor it allows; the floor rises until both allow the same one. */
        uint64_t floor = 0, at;
        aplan_status st;
        for (;;) {
            if ((st = lowest_fit(&t, floor, size, align, &at)) != APLAN_OK) break;
            if (tree ? fixed_over == f : n_fixed == 0) break; /* no fixed buffer left in the way */
            uint64_t fixed_at;
            st = tree ? fixed_fit(&ft, b->upper, at, size, align, &fixed_at)
                      : aplan__first_gap(p, offsets, fw[FIXED_HITS], n_fixed, &pos, at, size, align, &fixed_at);
            if (st != APLAN_OK || fixed_at == at) break;
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
