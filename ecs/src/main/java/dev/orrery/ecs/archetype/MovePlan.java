package dev.orrery.ecs.archetype;

import java.util.Arrays;

/**
 * How a row moves from one archetype to another, worked out once per pair: which field of
 * the source feeds each field of the target, and which target fields start at zero. A
 * single-entity move ({@code World.add}, {@code remove}, {@code moveTo}) then copies field
 * arrays by precomputed position, with no per-move merge of the two column lists. Plans
 * are cached on the source archetype (and on its add and remove edges); archetypes never
 * change their columns, so a plan never goes stale.
 *
 * <p><b>Threading:</b> immutable once built; used by the thread that applies structural changes.
 */
public final class MovePlan {
    private final Archetype source;
    private final Archetype target;
    final FieldCopies copies;
    final FieldCopies clears;
    // The prototype-index transition this plan last caused: an entity at prototype
    // namesFrom ended at namesTo, in reclaim epoch namesEpoch. Entities moved together
    // (command playback, one shape) share their prototype, so the next one repeats it.
    private int namesFrom = -1;
    private int namesTo;
    private int namesEpoch;

    MovePlan(Archetype source, Archetype target) {
        this.source = source;
        this.target = target;
        int n = target.fieldCount();
        int[] cSrc = new int[n];
        int[] cDst = new int[n];
        int[] zDst = new int[n];
        int copied = 0;
        int cleared = 0;
        for (int s = 0; s < target.columnCount(); s++) {
            int from = source.slotOf(target.columnId(s));
            int base = target.fieldBase(s);
            int fields = target.fieldBase(s + 1) - base;
            for (int f = 0; f < fields; f++) {
                if (from >= 0) {
                    cSrc[copied] = source.fieldBase(from) + f;
                    cDst[copied++] = base + f;
                } else {
                    zDst[cleared++] = base + f;
                }
            }
        }
        this.copies = new FieldCopies(source, target, Arrays.copyOf(cSrc, copied), Arrays.copyOf(cDst, copied));
        int[] z = Arrays.copyOf(zDst, cleared);
        this.clears = new FieldCopies(target, target, z, z);
    }

    /** The archetype rows move out of. */
    public Archetype source() {
        return source;
    }

    /** The archetype rows move into. */
    public Archetype target() {
        return target;
    }

    /**
     * The prototype an entity at prototype {@code from} reached the last time it moved
     * along this plan, if that was in reclaim epoch {@code epoch}; else -1. Kept for the
     * prototype index ({@code NamedInstances}), which owns the meaning of the handles.
     */
    public int rememberedNames(int from, int epoch) {
        return from == namesFrom && epoch == namesEpoch ? namesTo : -1;
    }

    /** Remembers that a move along this plan took an entity from prototype {@code from} to {@code to} in {@code epoch}. */
    public void rememberNames(int from, int to, int epoch) {
        namesFrom = from;
        namesTo = to;
        namesEpoch = epoch;
    }

    /**
     * Appends a row for {@code entity} to the target holding the values of row
     * ({@code chunk}, {@code row}) of the source in every shared column and, with
     * {@code zero}, zero in the others; returns its location packed as
     * {@code chunk << 32 | row}. The source row is left in place (remove it with
     * {@link Archetype#removeRow}). Without {@code zero} a reused row's new columns keep what
     * they held, for a caller that writes every field of them before anything reads the row
     * ({@code world.add(e, column, value)}).
     */
    public long append(long entity, int chunk, int row, boolean zero) {
        return target.appendRowFrom(entity, this, source.chunk(chunk), row, zero);
    }
}
