package dev.orrery.bench.hierarchy;

import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.scheduler.ResourceKey;

/**
 * The scratch space of slot-space transform propagation ({@link SlotPropagation}), held as a
 * schedule resource: the {@code ChildOf} {@link Hierarchy} taken this tick and two arrays
 * indexed by its slots, four floats a slot ({@code x, y, cos, sin} side by side, so the
 * row-order passes touch one cache line per entity). User code, written with the public API
 * only: nothing here is part of Orrery.
 *
 * <p><b>Threading:</b> {@link #refresh} runs in an exclusive system (the world's thread, no
 * jobs out). The systems after it reach the instance through their job
 * ({@code job.resource}/{@code job.resourceForWrite}, declared); a job writes only the slots of
 * its own entities (gather, scatter) or of its own slot range (the level walk). The
 * executor's hand-off of each system's jobs orders those writes before the next system's
 * reads. The pairs must not change between {@link #refresh} and the last system that uses
 * the slots (no pair commands played back in between), or the slots would name other entities.
 */
final class SlotTransforms {
    /** The resource key the propagation's systems declare. */
    static final ResourceKey<SlotTransforms> KEY = ResourceKey.of("slot transforms", SlotTransforms.class);

    /** Floats per slot in {@link #local} and {@link #world}. */
    static final int STRIDE = 4;

    /** The hierarchy this tick's slots belong to. */
    Hierarchy hierarchy;
    /** Local transform of slot {@code i} at {@code [4i, 4i + 4)}: x, y, cos, sin. */
    float[] local = new float[0];
    /** World transform of slot {@code i} at {@code [4i, 4i + 4)}: x, y, cos, sin. */
    float[] world = new float[0];

    /**
     * Takes {@code relation}'s current hierarchy (rebuilt if the pairs changed) and grows the
     * arrays to its size; they never shrink, so a warm tick allocates nothing.
     */
    void refresh(World w, Relation relation) {
        hierarchy = w.relations().hierarchy(relation);
        int need = hierarchy.size() * STRIDE;
        if (local.length < need) {
            int grown = Math.max(need, local.length + (local.length >> 1));
            local = new float[grown];
            world = new float[grown];
        }
    }
}
