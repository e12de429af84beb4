package dev.orrery.ecs.component;

/**
 * Static helpers for entity ids. An entity id is a {@code long}: the entity index in the
 * low 32 bits and the generation in the high 32 bits. Index slots are recycled; the
 * generation tells a live entity from an older one that used the same slot, so a stale id
 * is detected instead of silently reading another entity's data.
 *
 * <p>Generations start at 1, so {@link #NULL} (0) is never a live entity. A slot serves
 * generations 1 to {@code 0xFFFF_FFFF} ({@link #generation} returns them as an {@code int}, so
 * the later half are negative); when the entity of its last generation is despawned the slot
 * is retired and never reused, so a generation never wraps and a stale id never names a live
 * entity again, however often slots are reused.
 */
public final class Entity {
    /** The id that never names a live entity. */
    public static final long NULL = 0L;

    private Entity() {
    }

    /**
     * Builds an id from an index and a generation.
     *
     * @param index the slot in the location table, 0 or more
     * @param generation the slot's generation, 1 or more for a live entity (0 marks a command
     *     buffer's provisional handle)
     * @return the id: {@code generation} in the high 32 bits, {@code index} in the low 32
     */
    public static long of(int index, int generation) {
        return ((long) generation << 32) | (index & 0xFFFF_FFFFL);
    }

    /**
     * The index part of an id: the slot in the location table.
     *
     * @param entity an entity id
     * @return the low 32 bits
     */
    public static int index(long entity) {
        return (int) entity;
    }

    /**
     * The generation part of an id.
     *
     * @param entity an entity id
     * @return the high 32 bits, as an {@code int} (negative for the later half of the generations)
     */
    public static int generation(long entity) {
        return (int) (entity >>> 32);
    }

    /**
     * A readable form such as {@code 12v3} (index 12, generation 3), used in error messages.
     *
     * @param entity an entity id
     * @return {@code index + "v" + generation}
     */
    public static String toString(long entity) {
        return index(entity) + "v" + generation(entity);
    }
}
