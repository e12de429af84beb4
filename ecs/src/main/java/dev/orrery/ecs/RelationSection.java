package dev.orrery.ecs;

import dev.orrery.ecs.component.Entity;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The relations as a snapshot section ({@value #NAME}): per registered relation, in id order,
 * its name, traits and next sequence number, then its pairs as (holder, target, seq) triples
 * in ascending seq, the order that gives every holder its targets and every target its
 * holders (a parent's children) in order. {@link WorldSnapshot} writes it only for a world
 * that registered a relation, so snapshots of worlds without relations are byte for byte as
 * before; it never appears among the extras handed back to the caller.
 *
 * <p>Reading checks, before the world is touched, that the target registered the same
 * relations (names and traits, in id order) and that the pairs agree with the rows: every
 * pair names live entities, each holder carries the relation's marker column holding its
 * first target, and every entity with the marker holds a pair. The pairs are restored
 * ({@link Relations#restore}) after the rows.
 *
 * <p><b>Threading:</b> as {@link WorldSnapshot}: the world's owning thread.
 */
final class RelationSection {
    /** The section's name among the snapshot's extras. */
    static final String NAME = "orrery.relations";
    /** The section's own format number, first in it. */
    private static final int FORMAT = 1;
    /** The section of a snapshot without relations, read into a world without relations. */
    static final RelationSection NONE = new RelationSection(new Relation[0], new long[0], new long[0][], null,
            new int[0]);

    private final Relation[] relations; // the target's, in id order
    private final long[] nextSeq;
    private final long[][] triples;
    private final SnapshotInput in; // for messages
    private final int[] pairsAt; // per relation, the section offset of its first pair

    private RelationSection(Relation[] relations, long[] nextSeq, long[][] triples, SnapshotInput in, int[] pairsAt) {
        this.relations = relations;
        this.nextSeq = nextSeq;
        this.triples = triples;
        this.in = in;
        this.pairsAt = pairsAt;
    }

    /** The section of {@code world}, which registered at least one relation. */
    static byte[] write(World world) {
        Relations rel = world.relations();
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(FORMAT);
            out.writeInt(rel.all().size());
            for (Relation r : rel.all()) {
                out.writeUTF(r.name());
                out.writeBoolean(r.exclusive());
                out.writeBoolean(r.acyclic());
                out.writeByte(r.cleanup().ordinal());
                out.writeLong(rel.nextSeq(r));
                long[] t = rel.pairs(r);
                out.writeInt(t.length / 3);
                for (long w : t) {
                    out.writeLong(w);
                }
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array stream does not fail
        }
    }

    /**
     * Parses {@code section} ({@code null}: the snapshot has none) and checks it against the
     * relations {@code target} registered.
     *
     * @throws SnapshotException naming the relation that differs and the fix, or when the
     *     section is unreadable
     */
    static RelationSection parse(SnapshotInput section, Relations target) throws IOException {
        List<Relation> own = target.all();
        if (section == null) {
            if (!own.isEmpty()) {
                throw new SnapshotException("the snapshot holds no relations (its world registered none) but the target "
                        + "world registered " + describe(own) + "; restore it into a world built without relations, as "
                        + "the snapshot's was");
            }
            return NONE;
        }
        SnapshotInput in = section;
        int format = in.readInt();
        if (format != FORMAT) {
            throw in.corruptAt(0, "relation section format " + format + " is not supported; this build reads " + FORMAT);
        }
        int n = in.readCount("relation", 2 + 1 + 1 + 1 + 8 + 4, Integer.MAX_VALUE);
        String[] names = new String[n];
        boolean[] exclusive = new boolean[n];
        boolean[] acyclic = new boolean[n];
        int[] cleanup = new int[n];
        long[] next = new long[n];
        long[][] pairs = new long[n][];
        int[] pairsAt = new int[n];
        for (int i = 0; i < n; i++) {
            in.part("relation " + i);
            names[i] = in.readUTF();
            exclusive[i] = in.readBoolean();
            acyclic[i] = in.readBoolean();
            int at = in.position();
            cleanup[i] = in.readByte();
            if (cleanup[i] < 0 || cleanup[i] >= Cleanup.values().length) {
                throw in.corruptAt(at, "relation " + SnapshotInput.quote(names[i]) + " has cleanup rule " + cleanup[i]
                        + ", which does not exist");
            }
            at = in.position();
            next[i] = in.readLong();
            if (next[i] < 1) {
                throw in.corruptAt(at, "relation " + SnapshotInput.quote(names[i]) + " gives " + next[i] + " as its next sequence "
                        + "number; sequence numbers start at 1");
            }
            pairs[i] = new long[in.readCount("pair", 24, Integer.MAX_VALUE / 3) * 3];
            pairsAt[i] = in.position();
            for (int k = 0; k < pairs[i].length; k++) {
                pairs[i][k] = in.readLong();
            }
        }
        in.part(null);
        in.requireEnd();
        Relation[] matched = match(names, exclusive, acyclic, cleanup, pairs, own, in);
        return new RelationSection(matched, next, pairs, in, pairsAt);
    }

    /** The target's relations, checked one by one against the snapshot's. */
    private static Relation[] match(String[] names, boolean[] exclusive, boolean[] acyclic, int[] cleanup,
            long[][] pairs, List<Relation> own, SnapshotInput in) {
        int n = names.length;
        StringBuilder theirs = new StringBuilder();
        long pairCount = 0;
        for (int i = 0; i < n; i++) {
            theirs.append(i == 0 ? "" : ", ").append(describe(SnapshotInput.quote(names[i]), exclusive[i], acyclic[i],
                    Cleanup.values()[cleanup[i]]));
            pairCount += pairs[i].length / 3;
        }
        if (own.isEmpty()) {
            throw in.refuseAt(0, "the snapshot holds relations " + theirs + " with " + pairCount + " pairs, but "
                    + "the target world registered no relation; register them with world.relations().childOf() or "
                    + "world.relations().register(name, exclusive, acyclic, cleanup), in the same order, before restoring");
        }
        Relation[] out = new Relation[n];
        for (int i = 0; i < Math.max(n, own.size()); i++) {
            Relation r = i < own.size() ? own.get(i) : null;
            boolean same = r != null && i < n && r.name().equals(names[i]) && r.exclusive() == exclusive[i]
                    && r.acyclic() == acyclic[i] && r.cleanup().ordinal() == cleanup[i];
            if (!same) {
                String mine = r == null ? "missing" : describe(List.of(r));
                String snap = i < n ? describe(SnapshotInput.quote(names[i]), exclusive[i], acyclic[i], Cleanup.values()[cleanup[i]])
                        : "missing";
                throw in.refuseAt(0, "snapshot relation " + i + " is " + snap + " but the target world's is "
                        + mine + " (snapshot: " + theirs + "; target: " + describe(own) + "); register the same "
                        + "relations, with the same traits, in the same order, before restoring" + childOfHint(names, own));
            }
            out[i] = r;
        }
        return out;
    }

    /**
     * Where the snapshot's ChildOf sits elsewhere among its relations than the target's (or
     * the target lacks it): a reminder that {@code childOf()} registers it on its first call,
     * which a game may first make during play, after its own relations; "" otherwise.
     */
    private static String childOfHint(String[] names, List<Relation> own) {
        int snap = Arrays.asList(names).indexOf("ChildOf");
        int mine = -1;
        for (int i = 0; i < own.size(); i++) {
            mine = own.get(i).name().equals("ChildOf") ? i : mine;
        }
        if (snap < 0 || snap == mine) {
            return "";
        }
        return "; ChildOf is registered by the first call of world.relations().childOf(), which the snapshot's world "
                + "made as its relation " + snap + ": call childOf() at set-up, in that place among the registrations";
    }

    /**
     * Checks the pairs against the parsed rows, so that restoring cannot fail half-way: live
     * entities only, seq ascending below the next seq, no self pair, no pair twice, at most one
     * target per holder of an exclusive relation, no cycle in an acyclic one, and the marker
     * column of every holder (and only of holders) holding its first target.
     *
     * @param entityBound the snapshot's entity high-water mark
     * @param rows per archetype, its entity ids
     * @param columns per archetype, its column ids (ascending)
     * @param values per archetype and slot, each field's parsed values
     * @throws SnapshotException naming the pair or entity at fault
     */
    void validate(int entityBound, long[][] rows, int[][] columns, Object[][][] values) {
        if (relations.length == 0) {
            return;
        }
        long[] live = new long[entityBound];
        for (long[] ids : rows) {
            for (long id : ids) {
                live[Entity.index(id)] = id; // validated: in range, once each
            }
        }
        for (int k = 0; k < relations.length; k++) {
            Relation r = relations[k];
            long[] firstTarget = checkPairs(k, r, triples[k], nextSeq[k], live);
            if (r.acyclic()) {
                checkAcyclic(k, r, triples[k], entityBound);
            }
            checkMarkers(k, r, firstTarget, live, rows, columns, values);
        }
    }

    /** Per holder index, its first target (0 for none), after checking each pair alone. */
    private long[] checkPairs(int k, Relation r, long[] t, long next, long[] live) {
        long[] firstTarget = new long[live.length];
        Set<Long> seen = new HashSet<>();
        long last = 0;
        for (int i = 0; i < t.length; i += 3) {
            long h = t[i];
            long tg = t[i + 1];
            long q = t[i + 2];
            if (q <= last || q >= next) {
                throw corrupt(pairsAt[k] + i / 3 * 24, pairText(r, h, tg) + " has seq " + q + ", out of order (after " + last + ", next "
                        + next + ")");
            }
            last = q;
            if (!isLive(h, live) || !isLive(tg, live)) {
                throw corrupt(pairsAt[k] + i / 3 * 24, pairText(r, h, tg) + " names an entity that is not alive in the snapshot");
            }
            if (h == tg) {
                throw corrupt(pairsAt[k] + i / 3 * 24, pairText(r, h, tg) + " has the holder as its own target");
            }
            int hi = Entity.index(h);
            if (firstTarget[hi] != 0 && r.exclusive()) {
                throw corrupt(pairsAt[k] + i / 3 * 24, pairText(r, h, tg) + ": the holder already holds (" + r + ", "
                        + Entity.toString(firstTarget[hi])
                        + ") and " + r + " is exclusive");
            }
            if (!seen.add(((long) hi << 32) | (Entity.index(tg) & 0xFFFF_FFFFL))) {
                throw corrupt(pairsAt[k] + i / 3 * 24, pairText(r, h, tg) + " is listed twice");
            }
            if (firstTarget[hi] == 0) {
                firstTarget[hi] = tg;
            }
        }
        return firstTarget;
    }

    /** The pair as messages name it; built only when one is refused. */
    private static String pairText(Relation r, long holder, long target) {
        return "pair (" + r + ", " + Entity.toString(target) + ") of " + Entity.toString(holder);
    }

    private static boolean isLive(long id, long[] live) {
        int idx = Entity.index(id);
        return id != Entity.NULL && idx >= 0 && idx < live.length && live[idx] == id;
    }

    /** Refuses a cycle: a depth-first walk from every holder along holder-to-target edges. */
    private void checkAcyclic(int k, Relation r, long[] t, int bound) {
        int m = t.length / 3;
        int[] start = new int[bound + 1];
        for (int i = 0; i < m; i++) {
            start[Entity.index(t[i * 3]) + 1]++;
        }
        for (int i = 0; i < bound; i++) {
            start[i + 1] += start[i];
        }
        int[] edge = new int[m];
        int[] fill = Arrays.copyOf(start, bound);
        for (int i = 0; i < m; i++) {
            edge[fill[Entity.index(t[i * 3])]++] = Entity.index(t[i * 3 + 1]);
        }
        byte[] state = new byte[bound]; // 0 unseen, 1 on the walk, 2 done
        int[] stack = new int[bound];
        int[] cursor = new int[bound];
        for (int s = 0; s < bound; s++) {
            if (state[s] != 0 || start[s] == start[s + 1]) {
                continue;
            }
            int depth = 0;
            stack[depth] = s;
            cursor[depth] = start[s];
            state[s] = 1;
            while (depth >= 0) {
                int v = stack[depth];
                if (cursor[depth] == start[v + 1]) {
                    state[v] = 2;
                    depth--;
                    continue;
                }
                int w = edge[cursor[depth]++];
                if (state[w] == 1) {
                    throw corrupt(pairsAt[k], "the pairs of acyclic relation " + r + " form a cycle through entity index " + w);
                }
                if (state[w] == 0) {
                    state[w] = 1;
                    stack[++depth] = w;
                    cursor[depth] = start[w];
                }
            }
        }
    }

    /** Every row holding {@code r}'s marker is a holder whose first target the marker holds, and every holder has one. */
    private void checkMarkers(int k, Relation r, long[] firstTarget, long[] live, long[][] rows, int[][] columns,
            Object[][][] values) {
        int marker = r.column().id();
        boolean[] marked = new boolean[firstTarget.length];
        for (int a = 0; a < rows.length; a++) {
            int s = Arrays.binarySearch(columns[a], marker);
            if (s < 0) {
                continue;
            }
            long[] targets = (long[]) values[a][s][0];
            for (int row = 0; row < rows[a].length; row++) {
                long h = rows[a][row];
                int hi = Entity.index(h);
                if (firstTarget[hi] == 0) {
                    throw corrupt(pairsAt[k], "entity " + Entity.toString(h) + " carries the " + r + " marker column but holds no "
                            + r + " pair");
                }
                if (targets[row] != firstTarget[hi]) {
                    throw corrupt(pairsAt[k], "entity " + Entity.toString(h) + "'s " + r + " marker names "
                            + Entity.toString(targets[row]) + " but its first " + r + " target is "
                            + Entity.toString(firstTarget[hi]));
                }
                marked[hi] = true;
            }
        }
        for (int hi = 0; hi < firstTarget.length; hi++) {
            if (firstTarget[hi] != 0 && !marked[hi]) {
                throw corrupt(pairsAt[k], "entity " + Entity.toString(live[hi]) + " holds a " + r + " pair (target "
                        + Entity.toString(firstTarget[hi]) + ") but lacks the " + r + " marker column");
            }
        }
    }

    /** Restores the pairs into {@code target}, whose rows (with their marker columns) are already in place. */
    void apply(Relations target) {
        for (int k = 0; k < relations.length; k++) {
            target.restore(relations[k], triples[k], nextSeq[k]);
        }
    }

    private SnapshotException corrupt(int at, String what) {
        return in.corruptAt(at, what);
    }

    private static String describe(List<Relation> rs) {
        StringBuilder sb = new StringBuilder();
        for (Relation r : rs) {
            sb.append(sb.length() == 0 ? "" : ", ").append(describe(r.name(), r.exclusive(), r.acyclic(), r.cleanup()));
        }
        return sb.toString();
    }

    private static String describe(String name, boolean exclusive, boolean acyclic, Cleanup cleanup) {
        return name + " (" + Relation.traits(exclusive, acyclic, cleanup) + ")";
    }
}
