package dev.orrery.ecs;

/**
 * The kinds of command a {@link PlaybackReport} counts outcomes for. A spawn from a
 * template or a {@link dev.orrery.ecs.Shape}, with the field values written into it at
 * recording, counts as one {@link #SPAWN}; a whole-value set and a one-field set both
 * count as {@link #SET}.
 */
public enum CommandKind {
    /** {@code spawn()}, {@code spawn(template)}, {@code spawn(shape)}. */
    SPAWN,
    /** {@code despawn(entity)}. */
    DESPAWN,
    /** {@code add(entity, column)}, {@code add(entity, column, value)} and {@code addPair}. */
    ADD,
    /** {@code remove(entity, column)} and {@code removePair}. */
    REMOVE,
    /** {@code set(entity, column, value)} and the typed one-field writes. */
    SET;

    private static final CommandKind[] BY_OP = {null, SPAWN, DESPAWN, ADD, REMOVE, SET, SET, SPAWN, SPAWN, ADD, REMOVE};

    /** The kind of a {@link CommandBuffer} opcode. */
    static CommandKind of(int op) {
        return BY_OP[op];
    }
}
