/* The compiled search of remikit.solver: the same search, the same order of
 * candidate melds and the same tie-breaking as Solver._best, so that both find
 * the same arrangement (remikit/solver.py explains the search).
 *
 * Natural cards are counted two bits a card in two words (cards 0-31, 32-51),
 * so a hand holds at most three copies of a card and fifteen wild cards; the
 * Python side falls back to its own search beyond that.
 *
 * The memo is a set of fixed-size tables, one per thread searching at once
 * (a table is taken from the pool at the start of a call and given back at its
 * end, both under the GIL), so its memory is bounded and no two threads ever
 * share a table. An entry is keyed by the natural cards, the wild count, the
 * flags and a tag: the solver's serial (a new one when it forgets) and the
 * goal's mode (Solver._mode), so entries of different solvers and goals never
 * mix. A search starts holding the GIL; past GIL_BUDGET positions and
 * candidates it gives the GIL up and finishes without it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NEG (-1000000000LL)
#define HALF_NEG (NEG / 2)
#define F_PURE 1
#define F_OWED 2
#define MOVE_DEAD 0
#define MOVE_DISCARD 1
#define MOVE_MELD 2
#define TABLE_BITS 14
#define POOL_MAX 16
#define GIL_BUDGET 1000 /* positions and candidates searched before the GIL is given up */
#define MAX_WILDS 15
#define VALUE_LIMIT 1000000LL /* the largest value of a card or meld position */

/* -- the memo ------------------------------------------------------------ */

typedef struct {
    uint64_t k0, k1;
    uint64_t tag;   /* the solver and the mode; 0: empty */
    int64_t packed; /* value * 2^MOVE_SHIFT + move */
} Entry;

#define MOVE_SHIFT 20
#define MOVE_MASK ((1 << MOVE_SHIFT) - 1)

typedef struct {
    Entry *slots;
    uint64_t mask;
} Table;

static Table *pool[POOL_MAX];
static int pool_free = 0;
static long tables_live = 0;       /* tables allocated and not freed */
static long released_searches = 0; /* searches finished without the GIL */

static Table *table_new(int bits) {
    Table *t = PyMem_RawMalloc(sizeof(Table));
    if (t == NULL) return NULL;
    t->slots = PyMem_RawCalloc((size_t)1 << bits, sizeof(Entry));
    if (t->slots == NULL) {
        PyMem_RawFree(t);
        return NULL;
    }
    t->mask = ((uint64_t)1 << bits) - 1;
    tables_live++;
    return t;
}

static void table_free(Table *t) {
    tables_live--;
    PyMem_RawFree(t->slots);
    PyMem_RawFree(t);
}

/* Taken and given back with the GIL held. */
static Table *table_take(void) {
    if (pool_free > 0) return pool[--pool_free];
    return table_new(TABLE_BITS);
}

static void table_give(Table *t) {
    if (pool_free < POOL_MAX) {
        pool[pool_free++] = t;
    } else {
        table_free(t);
    }
}

static inline uint64_t slot_of(const Table *t, uint64_t k0, uint64_t k1, uint64_t tag) {
    uint64_t h = k0 * 0x9E3779B97F4A7C15ULL ^ (k1 + tag) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBULL;
    h ^= h >> 29;
    return h & t->mask;
}

/* -- the rules ----------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    uint64_t serial; /* tells this solver's memo entries from others'; a new one forgets */
    int64_t run_totals[15]; /* run_totals[i]: the value of run positions 0 ... i-1 */
    int64_t set_rank[14];
    int64_t dead[52];
    int64_t royal_value, dead_joker, dead_wild_rank;
    int ace; /* 0 low, 1 high, 2 both */
    int distinct_suits, set_max, wild_only, royal, natural4, wilds_free, naturals_first;
} Core;

/* A candidate meld: its value, the natural cards it takes, the wilds it uses. */
typedef struct {
    int64_t value;
    uint64_t m0, m1;
    int8_t used, pure, room, kind; /* kind: 0 run, 1 royal, 2 set */
    int8_t suit, lo, hi, rank0;
    uint16_t wild_pos; /* run positions held by wilds */
    int8_t take[4];
} Cand;

typedef struct {
    const Core *core;
    Table *table;
    uint64_t tag;
    int all_melded, need_pure, keep;
    int n_values, n_after; /* n_after < 0: no discard of a wild is possible */
    int64_t values[MAX_WILDS + 1], after[MAX_WILDS + 1];
    Cand *buf;
    size_t top, cap;
    long budget; /* positions and candidates left before the GIL is given up; < 0: no limit */
    int stopped; /* 1: the budget ran out, 2: out of memory */
} Search;

static inline int count_of(uint64_t k0, uint64_t k1, int card) {
    return card < 32 ? (int)((k0 >> (2 * card)) & 3) : (int)((k1 >> (2 * (card - 32))) & 3);
}

static inline void add_unit(uint64_t *m0, uint64_t *m1, int card) {
    if (card < 32) {
        *m0 += (uint64_t)1 << (2 * card);
    } else {
        *m1 += (uint64_t)1 << (2 * (card - 32));
    }
}

static inline int card_at(int suit, int position) { return suit * 13 + position % 13; }

static int is_pure_run(const Core *core, int lo, int hi, unsigned wild_pos) {
    if (!core->natural4) return wild_pos == 0 && hi - lo >= 3;
    int prev = lo - 1;
    for (int p = lo; p <= hi; p++) {
        if (wild_pos & (1u << p)) {
            if (p - prev > 4) return 1;
            prev = p;
        }
    }
    return hi + 1 - prev > 4;
}

static Cand *push(Search *s) {
    if (s->top == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        Cand *grown = PyMem_RawRealloc(s->buf, cap * sizeof(Cand));
        if (grown == NULL) {
            s->stopped = 2;
            return NULL;
        }
        s->buf = grown;
        s->cap = cap;
    }
    return &s->buf[s->top++];
}

static int add_run(Search *s, int64_t value, uint64_t m0, uint64_t m1, int suit, int lo, int hi,
                   unsigned wild_pos) {
    Cand *cand = push(s);
    if (cand == NULL) return -1;
    cand->value = value;
    cand->m0 = m0;
    cand->m1 = m1;
    cand->used = (int8_t)__builtin_popcount(wild_pos);
    cand->pure = (int8_t)is_pure_run(s->core, lo, hi, wild_pos);
    cand->room = (int8_t)(13 - (hi - lo + 1));
    cand->kind = 0;
    cand->suit = (int8_t)suit;
    cand->lo = (int8_t)lo;
    cand->hi = (int8_t)hi;
    cand->wild_pos = (uint16_t)wild_pos;
    return 0;
}

/* The runs holding card c as their lowest natural card (Solver._runs). */
static int gen_runs(Search *s, uint64_t k0, uint64_t k1, int c, int wilds) {
    const Core *core = s->core;
    int suit = c / 13, rank0 = c % 13;
    int starts[2], n_starts = 0;
    if (rank0 == 0) {
        if (core->ace != 1) starts[n_starts++] = 0;
        if (core->ace != 0) starts[n_starts++] = 13;
    } else {
        starts[n_starts++] = rank0;
    }
    int lo_limit = core->ace == 1 ? 1 : 0;
    int hi_limit = core->ace == 0 ? 12 : 13;
    for (int si = 0; si < n_starts; si++) {
        int pc = starts[si];
        int lo_min = pc == 13 ? 1 : lo_limit;
        int hi_max = pc == 0 ? 12 : hi_limit;
        int have[14] = {0};
        for (int p = lo_min; p <= hi_max; p++) {
            if (p != pc) have[p] = count_of(k0, k1, card_at(suit, p)) > 0;
        }
        unsigned gaps_below = 0;
        int n_gaps_below = 0;
        uint64_t b0 = 0, b1 = 0;
        add_unit(&b0, &b1, c);
        for (int lo = pc; lo >= lo_min; lo--) {
            if (lo < pc) {
                if (have[lo]) {
                    add_unit(&b0, &b1, card_at(suit, lo));
                } else {
                    gaps_below |= 1u << lo;
                    if (++n_gaps_below > wilds) break;
                }
            }
            unsigned gaps = gaps_below;
            int n_gaps = n_gaps_below;
            uint64_t m0 = b0, m1 = b1;
            for (int hi = pc; hi <= hi_max; hi++) {
                if (hi > pc) {
                    if (lo == 0 && hi == 13) break;
                    if (have[hi]) {
                        add_unit(&m0, &m1, card_at(suit, hi));
                    } else {
                        gaps |= 1u << hi;
                        if (++n_gaps > wilds) break;
                    }
                }
                int length = hi - lo + 1;
                if (length < 3) continue;
                int64_t value = core->run_totals[hi + 1] - core->run_totals[lo];
                if (core->naturals_first) {
                    if (length > 3 && !((lo == pc || have[lo]) && (hi == pc || have[hi]))) continue;
                    if (add_run(s, value, m0, m1, suit, lo, hi, gaps) < 0) return -1;
                    continue;
                }
                /* the natural cards of the run but c, ascending: a wild may stand in for
                 * any of them, as many as the spare wilds allow (combinations in order) */
                int cards[14], n_cards = 0;
                for (int p = lo; p <= hi; p++) {
                    if (p != pc && !(gaps & (1u << p))) cards[n_cards++] = p;
                }
                int spare = wilds - n_gaps;
                int k_max = spare < n_cards ? spare : n_cards;
                for (int k = 0; k <= k_max; k++) {
                    int idx[14];
                    for (int i = 0; i < k; i++) idx[i] = i;
                    for (;;) {
                        unsigned wild_pos = gaps;
                        uint64_t x0 = m0, x1 = m1;
                        for (int i = 0; i < k; i++) {
                            int p = cards[idx[i]];
                            wild_pos |= 1u << p;
                            int card = card_at(suit, p);
                            if (card < 32) {
                                x0 -= (uint64_t)1 << (2 * card);
                            } else {
                                x1 -= (uint64_t)1 << (2 * (card - 32));
                            }
                        }
                        if (add_run(s, value, x0, x1, suit, lo, hi, wild_pos) < 0) return -1;
                        int i = k - 1;
                        while (i >= 0 && idx[i] == n_cards - k + i) i--;
                        if (i < 0) break;
                        idx[i]++;
                        for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
                    }
                }
            }
        }
        if (core->royal && pc == 13 && suit == 3 && have[9] && have[10] && have[11] && have[12]) {
            uint64_t m0 = 0, m1 = 0;
            add_unit(&m0, &m1, c);
            for (int p = 9; p <= 12; p++) add_unit(&m0, &m1, card_at(suit, p));
            Cand *cand = push(s);
            if (cand == NULL) return -1;
            cand->value = core->royal_value;
            cand->m0 = m0;
            cand->m1 = m1;
            cand->used = 0;
            cand->pure = 1;
            cand->room = 0;
            cand->kind = 1;
            cand->suit = (int8_t)suit;
            cand->lo = 9;
            cand->hi = 13;
            cand->wild_pos = 0;
        }
    }
    return 0;
}

/* The sets holding card c as their lowest natural card (Solver._sets). */
static int gen_sets(Search *s, uint64_t k0, uint64_t k1, int c, int wilds) {
    const Core *core = s->core;
    int suit = c / 13, rank0 = c % 13;
    int64_t per_card = core->set_rank[rank0 + 1];
    int counts[4];
    for (int x = 0; x < 4; x++) {
        int n = count_of(k0, k1, x * 13 + rank0);
        if (x == suit) {
            n -= 1;
            if (core->distinct_suits) n = 0;
        } else if (core->distinct_suits && n > 1) {
            n = 1;
        }
        counts[x] = n;
    }
    int limit = core->set_max ? core->set_max : 1000000;
    int take[4] = {0, 0, 0, 0};
    for (;;) {
        int naturals = 1 + take[0] + take[1] + take[2] + take[3];
        if (naturals <= limit) {
            int w_lo = 3 - naturals > 0 ? 3 - naturals : 0;
            int w_hi;
            if (core->wilds_free) {
                w_hi = w_lo;
            } else {
                w_hi = limit - naturals < wilds ? limit - naturals : wilds;
            }
            uint64_t m0 = 0, m1 = 0;
            add_unit(&m0, &m1, c);
            for (int x = 0; x < 4; x++) {
                for (int k = 0; k < take[x]; k++) add_unit(&m0, &m1, x * 13 + rank0);
            }
            for (int used = w_lo; used <= w_hi && used <= wilds; used++) {
                int size = naturals + used;
                Cand *cand = push(s);
                if (cand == NULL) return -1;
                cand->value = per_card * size;
                cand->m0 = m0;
                cand->m1 = m1;
                cand->used = (int8_t)used;
                cand->pure = 0;
                cand->room = (int8_t)(core->set_max ? limit - size : 3);
                cand->kind = 2;
                cand->suit = (int8_t)suit;
                cand->rank0 = (int8_t)rank0;
                memcpy(cand->take, (int8_t[4]){(int8_t)take[0], (int8_t)take[1], (int8_t)take[2],
                                                (int8_t)take[3]},
                       4);
            }
        }
        /* the next choice of take, the last suit fastest (itertools.product) */
        int x = 3;
        while (x >= 0 && take[x] == counts[x]) {
            take[x] = 0;
            x--;
        }
        if (x < 0) break;
        take[x]++;
    }
    return 0;
}

/* -- the search ---------------------------------------------------------- */

static int64_t leftover(const Search *s, int wilds, int flags) {
    const Core *core = s->core;
    if (s->need_pure && !(flags & F_PURE)) return NEG;
    const int64_t *values = s->values;
    if (flags & F_OWED) {
        if (wilds == 0 || s->n_after < 0) return NEG;
        values = s->after;
        wilds -= 1;
    }
    if (wilds == 0) return 0;
    if (core->wild_only && wilds >= 3) return 0;
    int dead = wilds;
    if (core->wilds_free) {
        int room = flags >> 2;
        dead = wilds - (wilds < room ? wilds : room);
    }
    if (dead && s->all_melded) return NEG;
    int64_t total = 0;
    for (int i = 0; i < dead; i++) total += values[i];
    return total;
}

static int64_t best(Search *s, uint64_t k0, uint64_t k1, int wilds, int flags);

static inline uint64_t key1(uint64_t k1, int wilds, int flags) {
    return k1 | ((uint64_t)wilds << 40) | ((uint64_t)flags << 48);
}

static void store(Search *s, uint64_t k0, uint64_t k1, int64_t value, int move) {
    Entry *e = &s->table->slots[slot_of(s->table, k0, k1, s->tag)];
    e->k0 = k0;
    e->k1 = k1;
    e->tag = s->tag;
    e->packed = value * ((int64_t)1 << MOVE_SHIFT) + move;
}

static const Entry *lookup(const Search *s, uint64_t k0, uint64_t k1) {
    const Entry *e = &s->table->slots[slot_of(s->table, k0, k1, s->tag)];
    if (e->tag == s->tag && e->k0 == k0 && e->k1 == k1) return e;
    return NULL;
}

static inline int64_t value_of(const Entry *e) { return e->packed >> MOVE_SHIFT; }
static inline int move_of(const Entry *e) { return (int)(e->packed & MOVE_MASK); }

static inline int lowest_card(uint64_t k0, uint64_t k1) {
    return k0 ? __builtin_ctzll(k0) >> 1 : 32 + (__builtin_ctzll(k1) >> 1);
}

static int64_t best(Search *s, uint64_t k0, uint64_t k1, int wilds, int flags) {
    uint64_t kk1 = key1(k1, wilds, flags);
    const Entry *hit = lookup(s, k0, kk1);
    if (hit != NULL) return value_of(hit);
    if (s->budget >= 0 && --s->budget < 0) {
        s->stopped = 1;
        return 0;
    }
    if (k0 == 0 && k1 == 0) {
        int64_t value = leftover(s, wilds, flags);
        store(s, k0, kk1, value, MOVE_DEAD);
        return value;
    }
    const Core *core = s->core;
    int c = lowest_card(k0, k1);
    uint64_t r0 = k0, r1 = k1;
    if (c < 32) {
        r0 -= (uint64_t)1 << (2 * c);
    } else {
        r1 -= (uint64_t)1 << (2 * (c - 32));
    }
    int64_t top = NEG;
    int move = MOVE_DEAD;
    if (!s->all_melded) {
        int64_t v = best(s, r0, r1, wilds, flags);
        if (s->stopped) return 0;
        v += core->dead[c];
        if (v > top) top = v;
    }
    if ((flags & F_OWED) && c != s->keep) {
        int64_t v = best(s, r0, r1, wilds, flags & ~F_OWED);
        if (s->stopped) return 0;
        if (v > top) {
            top = v;
            move = MOVE_DISCARD;
        }
    }
    size_t first = s->top;
    if (gen_runs(s, k0, k1, c, wilds) < 0 || gen_sets(s, k0, k1, c, wilds) < 0) {
        s->top = first;
        return 0;
    }
    size_t end = s->top;
    if (s->budget >= 0) s->budget -= (long)(end - first); /* each candidate is work too */
    int room0 = flags >> 2;
    for (size_t i = first; i < end; i++) {
        const Cand cand = s->buf[i]; /* a copy: deeper searches may move the buffer */
        int new_flags = flags & F_OWED;
        if (cand.pure || (flags & F_PURE)) new_flags |= F_PURE;
        if (core->wilds_free) {
            int room = room0 + cand.room;
            new_flags |= (room < 3 ? room : 3) << 2;
        }
        int64_t v = best(s, k0 - cand.m0, k1 - cand.m1, wilds - cand.used, new_flags);
        if (s->stopped) {
            s->top = first;
            return 0;
        }
        if (v > HALF_NEG && v + cand.value > top) {
            top = v + cand.value;
            move = MOVE_MELD + (int)(i - first);
        }
        if (MOVE_MELD + (i - first) >= MOVE_MASK) { /* more candidates than a move holds */
            s->stopped = 2;
            s->top = first;
            return 0;
        }
    }
    s->top = first;
    store(s, k0, kk1, top, move);
    return top;
}

/* -- from Python --------------------------------------------------------- */

static PyObject *index_name; /* "index", interned */
static uint64_t next_serial = 1;

static PyObject *kind_names[3]; /* "run", "royal", "set", interned */

/* A new tuple of n items, each reference stolen (NULL items: the tuple is not made). */
static PyObject *tuple_of(Py_ssize_t n, PyObject **items) {
    PyObject *tuple = NULL;
    int ok = 1;
    for (Py_ssize_t i = 0; i < n; i++) ok &= items[i] != NULL;
    if (ok) tuple = PyTuple_New(n);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (tuple != NULL) {
            PyTuple_SET_ITEM(tuple, i, items[i]);
        } else {
            Py_XDECREF(items[i]);
        }
    }
    return tuple;
}

/* One meld of the path: (description, wilds used, value), the description as
 * Solver._runs and Solver._sets give it. */
static PyObject *meld_step(const Cand *cand) {
    PyObject *desc;
    if (cand->kind == 2) {
        PyObject *take[4];
        for (int x = 0; x < 4; x++) take[x] = PyLong_FromLong(cand->take[x]);
        PyObject *items[5] = {Py_NewRef(kind_names[2]), PyLong_FromLong(cand->rank0),
                              tuple_of(4, take), PyLong_FromLong(cand->used),
                              PyLong_FromLong(cand->suit)};
        desc = tuple_of(5, items);
    } else {
        PyObject *positions[14];
        Py_ssize_t j = 0;
        for (int p = 0; p < 14; p++) {
            if (cand->wild_pos & (1u << p)) positions[j++] = PyLong_FromLong(p);
        }
        PyObject *items[5] = {Py_NewRef(kind_names[(int)cand->kind]), PyLong_FromLong(cand->suit),
                              PyLong_FromLong(cand->lo), PyLong_FromLong(cand->hi),
                              tuple_of(j, positions)};
        desc = tuple_of(5, items);
    }
    PyObject *items[3] = {desc, PyLong_FromLong(cand->used), PyLong_FromLongLong(cand->value)};
    return tuple_of(3, items);
}

/* The arrangement's path from the root: (dead natural cards, melds, the discard or
 * None, the flags at the end), the cards being the hand's own objects (cards[i]). */
static PyObject *walk(Search *s, uint64_t k0, uint64_t k1, int wilds, int flags,
                      PyObject *const *cards) {
    PyObject *dead = PyList_New(0), *melds = PyList_New(0);
    PyObject *discard = Py_None;
    if (dead == NULL || melds == NULL) goto fail;
    while (k0 || k1) {
        const Entry *e = lookup(s, k0, key1(k1, wilds, flags));
        if (e == NULL) { /* overwritten in the table since: searched again */
            best(s, k0, k1, wilds, flags);
            if (s->stopped) {
                PyErr_NoMemory();
                goto fail;
            }
            e = lookup(s, k0, key1(k1, wilds, flags));
        }
        int move = move_of(e);
        int c = lowest_card(k0, k1);
        if (move == MOVE_DEAD || move == MOVE_DISCARD) {
            if (move == MOVE_DEAD) {
                if (PyList_Append(dead, cards[c]) < 0) goto fail;
            } else {
                discard = cards[c];
                flags &= ~F_OWED;
            }
            if (c < 32) {
                k0 -= (uint64_t)1 << (2 * c);
            } else {
                k1 -= (uint64_t)1 << (2 * (c - 32));
            }
            continue;
        }
        size_t first = s->top;
        if (gen_runs(s, k0, k1, c, wilds) < 0 || gen_sets(s, k0, k1, c, wilds) < 0) {
            s->top = first;
            PyErr_NoMemory();
            goto fail;
        }
        Cand cand = s->buf[first + (size_t)(move - MOVE_MELD)];
        s->top = first;
        PyObject *step = meld_step(&cand);
        if (step == NULL || PyList_Append(melds, step) < 0) {
            Py_XDECREF(step);
            goto fail;
        }
        Py_DECREF(step);
        k0 -= cand.m0;
        k1 -= cand.m1;
        wilds -= cand.used;
        int new_flags = flags & F_OWED;
        if (cand.pure || (flags & F_PURE)) new_flags |= F_PURE;
        if (s->core->wilds_free) {
            int room = (flags >> 2) + cand.room;
            new_flags |= (room < 3 ? room : 3) << 2;
        }
        flags = new_flags;
    }
    return Py_BuildValue("(NNOi)", dead, melds, discard, flags);
fail:
    Py_XDECREF(dead);
    Py_XDECREF(melds);
    return NULL;
}

static int card_index(PyObject *card) {
    PyObject *index = PyObject_GetAttr(card, index_name);
    if (index == NULL) return -1;
    long i = PyLong_AsLong(index);
    Py_DECREF(index);
    if (i < 0 || i > 52) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card's index is 0 to 52");
        return -1;
    }
    return (int)i;
}

/* search(hand, wild_rank, all_melded, need_pure, discard, keep, path) */
static PyObject *Core_search(Core *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "search() takes 7 arguments");
        return NULL;
    }
    long wild_rank = args[1] == Py_None ? 0 : PyLong_AsLong(args[1]);
    if (wild_rank == -1 && PyErr_Occurred()) return NULL;
    int all_melded = PyObject_IsTrue(args[2]), need_pure = PyObject_IsTrue(args[3]);
    int discard = PyObject_IsTrue(args[4]), path = PyObject_IsTrue(args[6]);
    if (all_melded < 0 || need_pure < 0 || discard < 0 || path < 0) return NULL;
    int keep = -1;
    if (args[5] != Py_None && (keep = card_index(args[5])) < 0) return NULL;

    PyObject *hand = PySequence_Tuple(args[0]); /* our own: the cards outlive the search */
    if (hand == NULL) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(hand);
    PyObject *const *items = &PyTuple_GET_ITEM(hand, 0);
    PyObject *cards[53] = {NULL};
    Py_ssize_t wild_at[MAX_WILDS]; /* where the wild cards are in the hand */
    uint64_t k0 = 0, k1 = 0;
    int jokers = 0, wild_ranks = 0, beyond = 0, wild_rank_may_go = 0;
    for (Py_ssize_t i = 0; i < n && !beyond; i++) {
        int c = card_index(items[i]);
        if (c < 0) goto fail;
        if (c == 52 || (wild_rank && c % 13 + 1 == wild_rank)) {
            if (jokers + wild_ranks == MAX_WILDS) {
                beyond = 1; /* more wilds than four bits count */
                break;
            }
            wild_at[jokers + wild_ranks] = i;
            if (c == 52) {
                jokers++;
            } else {
                wild_ranks++;
                wild_rank_may_go |= c != keep;
            }
        } else if (count_of(k0, k1, c) == 3) {
            beyond = 1; /* more copies than two bits count */
        } else {
            add_unit(&k0, &k1, c);
            cards[c] = items[i];
        }
    }
    if (beyond) {
        Py_DECREF(hand);
        Py_RETURN_NONE;
    }

    /* the mode, as Solver._mode: the wild values, costliest first, and the values left
     * once the cheapest wild that may go (not `keep`) is discarded */
    Search s = {0};
    s.core = self;
    s.all_melded = all_melded;
    s.need_pure = need_pure;
    int keep_wild = keep == 52 || (keep >= 0 && wild_rank && keep % 13 + 1 == wild_rank);
    s.keep = keep_wild ? -1 : keep;
    int64_t first_value = self->dead_joker, second_value = self->dead_wild_rank;
    int first_count = jokers, second_count = wild_ranks;
    if (second_value > first_value) {
        first_value = self->dead_wild_rank;
        second_value = self->dead_joker;
        first_count = wild_ranks;
        second_count = jokers;
    }
    for (int i = 0; i < first_count; i++) s.values[s.n_values++] = first_value;
    for (int i = 0; i < second_count; i++) s.values[s.n_values++] = second_value;
    int joker_may_go = jokers > 0 && keep != 52;
    if (joker_may_go || wild_rank_may_go) {
        int64_t gone;
        if (joker_may_go && wild_rank_may_go) {
            gone = self->dead_joker < self->dead_wild_rank ? self->dead_joker
                                                           : self->dead_wild_rank;
        } else {
            gone = joker_may_go ? self->dead_joker : self->dead_wild_rank;
        }
        int removed = 0;
        s.n_after = 0;
        for (int i = 0; i < s.n_values; i++) {
            if (!removed && s.values[i] == gone) {
                removed = 1;
            } else {
                s.after[s.n_after++] = s.values[i];
            }
        }
    } else {
        s.n_after = -1;
    }
    uint64_t mode = (uint64_t)all_melded | (uint64_t)need_pure << 1 | (uint64_t)jokers << 2 |
                    (uint64_t)wild_ranks << 6 | (uint64_t)(s.keep + 1) << 10 |
                    (uint64_t)joker_may_go << 16 | (uint64_t)wild_rank_may_go << 17;
    s.tag = self->serial << 24 | mode;

    int wilds = jokers + wild_ranks, flags = discard ? F_OWED : 0;
    s.table = table_take();
    if (s.table == NULL) {
        Py_DECREF(hand);
        return PyErr_NoMemory();
    }
    s.budget = GIL_BUDGET;
    int64_t value = best(&s, k0, k1, wilds, flags);
    if (s.stopped == 1) { /* a long search: the rest without the GIL */
        s.stopped = 0;
        s.budget = -1;
        Py_BEGIN_ALLOW_THREADS
        value = best(&s, k0, k1, wilds, flags);
        Py_END_ALLOW_THREADS
        released_searches++;
    }
    PyObject *result = NULL;
    if (s.stopped) {
        PyErr_NoMemory();
    } else if (!path) {
        result = PyLong_FromLongLong(value);
    } else if (value <= HALF_NEG) {
        result = Py_NewRef(Py_False);
    } else {
        s.budget = -1;
        PyObject *steps = walk(&s, k0, k1, wilds, flags, cards);
        PyObject *wild_cards = steps != NULL ? PyList_New(wilds) : NULL;
        if (wild_cards != NULL) {
            for (int i = 0; i < wilds; i++) {
                PyList_SET_ITEM(wild_cards, i, Py_NewRef(items[wild_at[i]]));
            }
            result = Py_BuildValue("(LNN)", (long long)value, steps, wild_cards);
        } else {
            Py_XDECREF(steps);
        }
    }
    PyMem_RawFree(s.buf);
    table_give(s.table);
    Py_DECREF(hand);
    return result;
fail:
    Py_DECREF(hand);
    return NULL;
}

static PyObject *Core_forget(Core *self, PyObject *unused) {
    (void)unused;
    self->serial = next_serial++;
    Py_RETURN_NONE;
}

static int read_ints(PyObject *seq, int64_t *out, Py_ssize_t n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd values expected", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v > VALUE_LIMIT || v < -VALUE_LIMIT) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: values are at most %lld", what, VALUE_LIMIT);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    return 0;
}

static const char *init_kwlist[] = {"run_position", "set_rank",     "dead",
                                    "royal_value",  "dead_joker",   "dead_wild_rank",
                                    "ace",          "distinct_suits", "set_max",
                                    "wild_only",    "royal",        "natural4",
                                    "naturals_first", NULL};

static int Core_init(Core *self, PyObject *args, PyObject *kwargs) {
    PyObject *run_position, *set_rank, *dead, *scalars[3];
    int ace, distinct, set_max, wild_only, royal, natural4, naturals_first;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOipipppp", (char **)init_kwlist,
                                     &run_position, &set_rank, &dead, &scalars[0], &scalars[1],
                                     &scalars[2], &ace, &distinct, &set_max, &wild_only, &royal,
                                     &natural4, &naturals_first)) {
        return -1;
    }
    int64_t positions[14], values[3];
    PyObject *scalar_tuple = PyTuple_Pack(3, scalars[0], scalars[1], scalars[2]);
    if (scalar_tuple == NULL) return -1;
    int bad = read_ints(run_position, positions, 14, "run_position") < 0 ||
              read_ints(set_rank, self->set_rank, 14, "set_rank") < 0 ||
              read_ints(dead, self->dead, 52, "dead") < 0 ||
              read_ints(scalar_tuple, values, 3, "royal_value, dead_joker, dead_wild_rank") < 0;
    Py_DECREF(scalar_tuple);
    if (bad) return -1;
    if (ace < 0 || ace > 2 || set_max < 0) {
        PyErr_SetString(PyExc_ValueError, "ace: 0 low, 1 high or 2 both; set_max: 0 or more");
        return -1;
    }
    self->run_totals[0] = 0;
    int any_value = 0;
    for (int i = 0; i < 14; i++) {
        self->run_totals[i + 1] = self->run_totals[i] + positions[i];
        any_value |= positions[i] != 0 || self->set_rank[i] != 0;
    }
    self->royal_value = values[0];
    self->dead_joker = values[1];
    self->dead_wild_rank = values[2];
    self->ace = ace;
    self->distinct_suits = distinct;
    self->set_max = set_max;
    self->wild_only = wild_only;
    self->royal = royal;
    self->natural4 = natural4;
    self->wilds_free = !any_value;
    self->naturals_first = naturals_first;
    self->serial = next_serial++;
    return 0;
}

static PyMethodDef Core_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Core_search, METH_FASTCALL,
     "search(hand, wild_rank, all_melded, need_pure, discard, keep, path)\n--\n\n"
     "The best value of the hand (Solver.value); with path, False for an impossible "
     "hand, else (value, (dead natural cards, melds as (description, wilds used, "
     "value), the discard or None, the flags at the end), the wild cards); None for a "
     "hand of more than three copies of a card or fifteen wild cards."},
    {"forget", (PyCFunction)Core_forget, METH_NOARGS,
     "forget()\n--\n\nForget every search made so far."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "remikit._solvercore.Core",
    .tp_doc = PyDoc_STR("One variant's meld rules and scoring, searched in C."),
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_methods = Core_methods,
};

static PyObject *clear_pool(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    while (pool_free > 0) table_free(pool[--pool_free]);
    Py_RETURN_NONE;
}

static PyObject *stats(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    return Py_BuildValue("{slslsl}", "tables", tables_live, "pooled", (long)pool_free,
                         "released", released_searches);
}

static PyMethodDef module_methods[] = {
    {"release", clear_pool, METH_NOARGS,
     "release()\n--\n\nFree the memo tables no search is using (made again when needed)."},
    {"stats", stats, METH_NOARGS,
     "stats()\n--\n\nThe memo tables allocated, those pooled for reuse, and how many "
     "searches finished without the GIL."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "remikit._solvercore",
    .m_doc = PyDoc_STR("The compiled search of remikit.solver."),
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__solvercore(void) {
    index_name = PyUnicode_InternFromString("index");
    kind_names[0] = PyUnicode_InternFromString("run");
    kind_names[1] = PyUnicode_InternFromString("royal");
    kind_names[2] = PyUnicode_InternFromString("set");
    if (index_name == NULL || kind_names[0] == NULL || kind_names[1] == NULL ||
        kind_names[2] == NULL || PyType_Ready(&CoreType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "TABLE_ENTRIES", 1L << TABLE_BITS) < 0 ||
        PyModule_AddIntConstant(m, "POOL_MAX", POOL_MAX) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
