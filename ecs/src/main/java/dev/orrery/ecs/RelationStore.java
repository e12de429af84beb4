package dev.orrery.ecs;

import dev.orrery.ecs.component.Entity;
import it.unimi.dsi.fastutil.ints.IntArrays;
import java.util.Arrays;

/**
 * The pairs of one relation, both ways: per holder its targets, per target its holders, each
 * list in the order the pairs were made (ascending {@code seq}). A pair lives in a slot of a
 * pool of parallel arrays and is linked into two doubly linked lists, so adding (at the tail)
 * and removing are O(1) and walking a list is in pair order, which is how children keep their
 * order. Entity-indexed heads grow with the highest entity index seen.
 *
 * <p>Once grown, nothing here allocates: slots are reused through a free stack.
 *
 * <p><b>Threading:</b> the world's thread only, while no job runs (as every structural change).
 */
final class RelationStore {
    private static final int NONE = -1;

    final Relation relation;
    // The pool: one slot per pair.
    private long[] holder = new long[64];
    private long[] target = new long[64];
    private long[] seq = new long[64];
    private int[] nextOfHolder = new int[64];
    private int[] prevOfHolder = new int[64];
    private int[] nextOfTarget = new int[64];
    private int[] prevOfTarget = new int[64];
    private int[] free = new int[64];
    private int freeCount;
    private int highWater;
    private int live;
    // Per entity index: first and last pair as holder, as target (NONE when empty).
    private int[] headH = none(64);
    private int[] tailH = none(64);
    private int[] headT = none(64);
    private int[] tailT = none(64);
    private long nextSeq = 1;
    // Cycle check scratch: the walk's stack and a per-index visited stamp.
    private long[] walk = new long[16];
    private int[] seen = new int[0];
    private int seenStamp;
    private long version;

    RelationStore(Relation relation) {
        this.relation = relation;
    }

    private static int[] none(int n) {
        int[] a = new int[n];
        Arrays.fill(a, NONE);
        return a;
    }

    /** Number of pairs. */
    int size() {
        return live;
    }

    /** Counts every change of the pairs; a traversal order cached at one version is current while it holds. */
    long version() {
        return version;
    }

    /** The sequence number the next pair gets. */
    long nextSeq() {
        return nextSeq;
    }

    private void ensureEntity(int idx) {
        if (idx >= headH.length) {
            int n = Math.max(idx + 1, headH.length * 2);
            headH = grow(headH, n);
            tailH = grow(tailH, n);
            headT = grow(headT, n);
            tailT = grow(tailT, n);
        }
    }

    private static int[] grow(int[] a, int n) {
        int old = a.length;
        int[] b = Arrays.copyOf(a, n);
        Arrays.fill(b, old, n, NONE);
        return b;
    }

    private int allocate() {
        if (freeCount > 0) {
            return free[--freeCount];
        }
        if (highWater == holder.length) {
            int n = holder.length * 2;
            holder = Arrays.copyOf(holder, n);
            target = Arrays.copyOf(target, n);
            seq = Arrays.copyOf(seq, n);
            nextOfHolder = Arrays.copyOf(nextOfHolder, n);
            prevOfHolder = Arrays.copyOf(prevOfHolder, n);
            nextOfTarget = Arrays.copyOf(nextOfTarget, n);
            prevOfTarget = Arrays.copyOf(prevOfTarget, n);
            free = Arrays.copyOf(free, n);
        }
        return highWater++;
    }

    /** Links pair (h, t) at the tail of both lists with sequence number {@code s}; returns its slot. */
    int link(long h, long t, long s) {
        int hi = Entity.index(h);
        int ti = Entity.index(t);
        ensureEntity(Math.max(hi, ti));
        int p = allocate();
        holder[p] = h;
        target[p] = t;
        seq[p] = s;
        nextOfHolder[p] = NONE;
        prevOfHolder[p] = tailH[hi];
        if (tailH[hi] == NONE) {
            headH[hi] = p;
        } else {
            nextOfHolder[tailH[hi]] = p;
        }
        tailH[hi] = p;
        nextOfTarget[p] = NONE;
        prevOfTarget[p] = tailT[ti];
        if (tailT[ti] == NONE) {
            headT[ti] = p;
        } else {
            nextOfTarget[tailT[ti]] = p;
        }
        tailT[ti] = p;
        live++;
        version++;
        if (s >= nextSeq) {
            nextSeq = s + 1;
        }
        return p;
    }

    /** Links a new pair (h, t) with the next sequence number. */
    int add(long h, long t) {
        return link(h, t, nextSeq);
    }

    /** Unlinks the pair in slot {@code p} from both lists and frees the slot. */
    void unlink(int p) {
        int hi = Entity.index(holder[p]);
        int ti = Entity.index(target[p]);
        int n = nextOfHolder[p];
        int v = prevOfHolder[p];
        if (v == NONE) {
            headH[hi] = n;
        } else {
            nextOfHolder[v] = n;
        }
        if (n == NONE) {
            tailH[hi] = v;
        } else {
            prevOfHolder[n] = v;
        }
        n = nextOfTarget[p];
        v = prevOfTarget[p];
        if (v == NONE) {
            headT[ti] = n;
        } else {
            nextOfTarget[v] = n;
        }
        if (n == NONE) {
            tailT[ti] = v;
        } else {
            prevOfTarget[n] = v;
        }
        holder[p] = Entity.NULL; // a free slot: real ids never have generation 0
        target[p] = Entity.NULL;
        free[freeCount++] = p;
        live--;
        version++;
    }

    /** The slot of pair (h, t), or {@link #NONE}. */
    int find(long h, long t) {
        int hi = Entity.index(h);
        if (hi >= headH.length) {
            return NONE;
        }
        for (int p = headH[hi]; p != NONE; p = nextOfHolder[p]) {
            if (target[p] == t) {
                return p;
            }
        }
        return NONE;
    }

    /** True when {@code to} is reachable from {@code from} by following pairs holder to target. */
    boolean reaches(long from, long to) {
        if (++seenStamp == Integer.MAX_VALUE) {
            Arrays.fill(seen, 0);
            seenStamp = 1;
        }
        if (seen.length < headH.length) {
            seen = Arrays.copyOf(seen, headH.length);
        }
        int n = 0;
        walk[n++] = from;
        while (n > 0) {
            long e = walk[--n];
            if (e == to) {
                return true;
            }
            int ei = Entity.index(e);
            if (ei >= seen.length || seen[ei] == seenStamp) {
                continue; // not in any pair as holder, or reached already by another path
            }
            seen[ei] = seenStamp;
            for (int p = headH[ei]; p != NONE; p = nextOfHolder[p]) {
                if (n == walk.length) {
                    walk = Arrays.copyOf(walk, n * 2);
                }
                walk[n++] = target[p];
            }
        }
        return false;
    }

    /** First pair slot of the holder at entity index {@code hi} ({@link #NONE} when it holds none). */
    int firstOfHolder(int hi) {
        return hi < headH.length ? headH[hi] : NONE;
    }

    /** First pair slot whose target is at entity index {@code ti} ({@link #NONE} when none). */
    int firstOfTarget(int ti) {
        return ti < headT.length ? headT[ti] : NONE;
    }

    int nextOfHolder(int p) {
        return nextOfHolder[p];
    }

    int nextOfTarget(int p) {
        return nextOfTarget[p];
    }

    long holderAt(int p) {
        return holder[p];
    }

    long targetAt(int p) {
        return target[p];
    }

    /** True when the entity at index {@code idx} holds a pair or is a target of one. */
    boolean involves(int idx) {
        return idx < headH.length && (headH[idx] != NONE || headT[idx] != NONE);
    }

    /** Highest entity index that may hold or be a target + 1 (the heads' length). */
    int entityBound() {
        return headH.length;
    }

    /** Every pair as (holder, target, seq) triples in ascending seq: the canonical order. Cold path. */
    long[] pairsInOrder() {
        int[] slots = new int[live];
        int n = 0;
        for (int p = 0; p < highWater; p++) {
            if (holder[p] != Entity.NULL) {
                slots[n++] = p;
            }
        }
        long[] s = seq;
        IntArrays.quickSort(slots, 0, n, (a, b) -> Long.compare(s[a], s[b]));
        long[] out = new long[n * 3];
        for (int i = 0; i < n; i++) {
            int p = slots[i];
            out[i * 3] = holder[p];
            out[i * 3 + 1] = target[p];
            out[i * 3 + 2] = seq[p];
        }
        return out;
    }

    /** Every pair, targets by ascending index, each target's holders in pair order. */
    void forEachPair(Relations.PairVisitor visitor) {
        int bound = headT.length;
        for (int ti = 0; ti < bound; ti++) {
            for (int p = headT[ti]; p != NONE; p = nextOfTarget[p]) {
                visitor.visit(holder[p], target[p], seq[p]);
            }
        }
    }

    /** Forgets every pair and sets the next sequence number (snapshot restore). */
    void clear(long next) {
        Arrays.fill(holder, Entity.NULL);
        Arrays.fill(target, Entity.NULL);
        Arrays.fill(headH, NONE);
        Arrays.fill(tailH, NONE);
        Arrays.fill(headT, NONE);
        Arrays.fill(tailT, NONE);
        highWater = 0;
        freeCount = 0;
        live = 0;
        nextSeq = next;
        version++;
    }
}
