package dev.orrery.ecs;

import dev.orrery.ecs.access.StructuralEffects;
import dev.orrery.ecs.component.Component;

/**
 * A command buffer's check of each command against the structural effects its system
 * declared: what is not covered is refused with an {@link UndeclaredCommandException} naming
 * the system, the command and the declaration to add. Stateless; called on the recording
 * thread.
 */
final class EffectChecks {
    private EffectChecks() {
    }

    /**
     * Checks one command about to be recorded against the declared effects; {@code op} is one
     * of the opcodes above and {@code column} the component ({@code null} for spawns and
     * despawns).
     *
     * @throws UndeclaredCommandException if the declaration does not cover it
     */
    static void check(StructuralEffects e, int op, Component<?> column) {
        if (e.isUnchecked()) {
            return;
        }
        switch (op) {
            case CommandBuffer.OP_SPAWN, CommandBuffer.OP_SPAWN_TEMPLATE, CommandBuffer.OP_SPAWN_SHAPE -> {
                if (!e.spawns()) {
                    throw new UndeclaredCommandException(e.owner(), "spawn", null, ".spawns(components...)");
                }
            }
            case CommandBuffer.OP_DESPAWN -> {
                if (!e.despawns()) {
                    throw new UndeclaredCommandException(e.owner(), "despawn", null, ".despawns()");
                }
            }
            case CommandBuffer.OP_REMOVE -> {
                if (!e.mayRemove(column)) {
                    throw new UndeclaredCommandException(e.owner(), "remove", column.toString(),
                            ".removes(" + declared(column) + ")");
                }
            }
            case CommandBuffer.OP_ADD -> {
                if (!e.mayAdd(column)) {
                    throw new UndeclaredCommandException(e.owner(), "add", column.toString(), ".adds(" + declared(column)
                            + ") (or list it in .spawns(...) to give it to entities spawned in the same tick)");
                }
            }
            default -> { // OP_SET, OP_SET_FIELD
                if (!e.maySet(column)) {
                    throw new UndeclaredCommandException(e.owner(), "set", column.toString(), ".setsLater(" + declared(column)
                            + ") (or list it in .spawns(...) or .adds(...))");
                }
            }
        }
    }

    /**
     * How a declaration names {@code column}: its handle, or for a relation's marker column the
     * relation's {@code column()} ({@code childOf.column()}), the way the relation is declared.
     * Also used by {@link UndeclaredAccessException}.
     */
    static String declared(Component<?> column) {
        if (!column.isRelationMarker()) {
            return column.toString();
        }
        String relation = column.name();
        return Character.toLowerCase(relation.charAt(0)) + relation.substring(1) + ".column()";
    }

    /**
     * Checks a spawn through a shape of {@code columns}: a spawn, plus each column as a
     * component given to the spawned entity (declared among the spawned or added components).
     *
     * @throws UndeclaredCommandException if the declaration does not cover it
     */
    static void checkSpawn(StructuralEffects e, Component<?>[] columns) {
        if (e.isUnchecked()) {
            return;
        }
        check(e, CommandBuffer.OP_SPAWN, null);
        for (Component<?> c : columns) {
            if (!e.mayGive(c)) {
                throw new UndeclaredCommandException(e.owner(), "spawn through a shape", c.toString(), ".spawns(" + c
                        + ") (every column of the shape)");
            }
        }
    }

    /**
     * Checks a spawn from {@code template} as a spawn through a shape of its columns: each
     * column is given to the spawned entity, so each must be declared, or a later reader of one
     * would get no sync point before it and miss the tick's new entities.
     *
     * @throws UndeclaredCommandException if the declaration does not cover it
     */
    static void checkSpawn(StructuralEffects e, Template template) {
        if (e.isUnchecked()) {
            return;
        }
        check(e, CommandBuffer.OP_SPAWN_TEMPLATE, null);
        for (int i = 0, n = template.size(); i < n; i++) {
            Component<?> c = template.column(i);
            if (!e.mayGive(c)) {
                throw new UndeclaredCommandException(e.owner(), "spawn from template '" + template.name() + "'",
                        c.toString(), ".spawns(" + c + ") (every column of the template)");
            }
        }
    }
}
