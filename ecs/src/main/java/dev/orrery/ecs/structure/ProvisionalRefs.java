package dev.orrery.ecs.structure;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;

/**
 * Keeps command buffers' provisional handles (generation 0, resolved only at their buffer's
 * playback) out of {@link dev.orrery.ecs.component.EntityRef} fields written straight to the
 * world: spawns, adds, sets and field writes check here; recorded commands do not (their
 * playback resolves the handles). A column with no entity-ref field costs one field test.
 *
 * <p><b>Threading:</b> stateless; called on the thread doing the write.
 */
public final class ProvisionalRefs {
    private ProvisionalRefs() {
    }

    /**
     * Refuses a value record of {@code column} one of whose {@link dev.orrery.ecs.component.EntityRef}
     * fields holds a command buffer's provisional handle, on a write straight to the world
     * (a spawn, add or set, not a recorded command): only that buffer's playback resolves the
     * handle, so stored as it is it would name no entity. Columns with no entity-ref field
     * pass on one field test.
     *
     * @throws IllegalArgumentException naming the field and the fix
     */
    public static void refuse(Component<?> column, Object value) {
        if (column.type().hasEntityRefs()) {
            int f = column.type().provisionalEntityRef(value);
            if (f >= 0) {
                throw provisionalRef(column, f, column.type().bitsOf(value)[f]);
            }
        }
    }

    /**
     * {@link #refuse(Component, Object)} for one field written from raw bits ({@code setLong},
     * {@code setBits}, property writes): a provisional handle in an entity-ref field is refused.
     */
    public static void refuse(Component<?> column, int field, long bits) {
        if (Entity.generation(bits) == 0 && bits != Entity.NULL && column.type().isEntityRef(field)) {
            throw provisionalRef(column, field, bits);
        }
    }

    private static IllegalArgumentException provisionalRef(Component<?> column, int field, long id) {
        return new IllegalArgumentException("entity-reference field " + column + "." + column.type().fieldName(field)
                + " was given " + Entity.toString(id) + ", a provisional handle from a command buffer's spawn: only "
                + "that buffer's playback resolves it to the new entity, so written straight to the world it would name "
                + "no entity; record this write in the command buffer that spawned it (commands.set or commands.add), "
                + "or write the real id after the playback");
    }
}
