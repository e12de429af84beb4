package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.Entity;
import java.util.Arrays;

/**
 * The columns a {@link CommandBuffer} recorded commands of, by id. A buffer stores column
 * ids, and another world's handle has an id that names a different column of the world that
 * plays it back; so the buffer keeps each column it recorded ({@link CommandBuffer#recordedColumns},
 * one compare per command once a column is known), and playback refuses the whole buffer
 * before it applies anything when one of them is not the applying world's.
 */
final class RecordedColumns {
    static final Component<?>[] NONE = new Component<?>[0];

    private RecordedColumns() {
    }

    /** {@code column}, noted in {@code buffer} as recorded; refuses null and a second handle with the same id. */
    static Component<?> recorded(CommandBuffer buffer, Component<?> column, String operation) {
        Component<?>[] seen = buffer.recordedColumns;
        if (column == null || column.id() >= seen.length || seen[column.id()] != column) {
            buffer.recordedColumns = note(seen, column, operation);
        }
        return column;
    }

    /** The columns of a template {@code buffer} spawns from, noted as {@link #recorded} notes one. */
    static void recorded(CommandBuffer buffer, Template template) {
        for (int i = 0, n = template.size(); i < n; i++) {
            recorded(buffer, template.column(i), "spawn");
        }
    }

    /** The columns of a shape {@code buffer} spawns through, noted as {@link #recorded} notes one. */
    static void recorded(CommandBuffer buffer, Component<?>[] shapeColumns) {
        for (Component<?> c : shapeColumns) {
            recorded(buffer, c, "spawn");
        }
    }

    private static Component<?>[] note(Component<?>[] seen, Component<?> column, String operation) {
        if (column == null) {
            throw Owned.refusal(null, "commands." + operation);
        }
        int id = column.id();
        if (id >= seen.length) {
            seen = Arrays.copyOf(seen, Math.max(id + 1, seen.length * 2));
        } else if (seen[id] != null) {
            throw new IllegalArgumentException("commands." + operation + " " + column + " refused: this buffer holds "
                    + "commands of " + seen[id] + ", which has the same column id in another world; record a buffer's "
                    + "commands with the component handles of the one world that applies it");
        }
        seen[id] = column;
        return seen;
    }

    /**
     * Refuses playback of {@code buffer} into the world of {@code registry} when it recorded a
     * column of another world; nothing has been applied then.
     *
     * @throws IllegalArgumentException naming the buffer, the component and the fix
     */
    static void checkOwner(CommandBuffer buffer, ComponentRegistry registry) {
        for (Component<?> c : buffer.recordedColumns) {
            if (c != null && !registry.owns(c)) {
                throw new IllegalArgumentException("command buffer " + buffer.id() + " holds commands of " + c + ", a "
                        + "component registered by another world; nothing was applied. Record commands with this "
                        + "world's component handles (" + Owned.handleOf(c) + ")");
            }
        }
    }

    /** Refuses a command on {@link Entity#NULL} as it is recorded. */
    static void refuseNull(long entity, String operation) {
        if (entity == Entity.NULL) {
            throw new IllegalArgumentException("commands." + operation + "(Entity.NULL) refused: Entity.NULL is not an "
                    + "entity; give an id world.spawn(...) or commands.spawn() returned (test for Entity.NULL first "
                    + "where an id may be missing)");
        }
    }
}
