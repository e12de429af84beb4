package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.Field;

/**
 * The refusal of a component or field handle that is null or another world's: its id would
 * name a different column of this world, so it is refused before any use. The check itself
 * ({@link ComponentRegistry#owns}) is one reference compare; the message is built only here.
 */
final class Owned {
    private Owned() {
    }

    /** Refuses {@code column} unless {@code registry} made it (a {@code null} registry checks only for null). */
    static <C extends Component<?>> C check(ComponentRegistry registry, C column, String operation) {
        if (column == null || registry != null && !registry.owns(column)) {
            throw refusal(column, operation);
        }
        return column;
    }

    /** The exception for a null or foreign {@code handle} (a component or a field) given to {@code operation}. */
    static RuntimeException refusal(Object handle, String operation) {
        if (handle == null) {
            return new NullPointerException(operation + ": the component (or field) handle is null; give one from "
                    + "world.component(...) (or component.field(...))");
        }
        Component<?> c = handle instanceof Field f ? f.component() : (Component<?>) handle;
        return new IllegalArgumentException(operation + " " + handle + " refused: component " + c + " was registered by "
                + "another world; use this world's component handles (" + handleOf(c) + ")");
    }

    /**
     * How a world gives the handle of {@code c}'s type: {@code world.component(X.class)} (or
     * {@code referenceComponent}); for a relation's marker column, whose record type users cannot
     * name, the relation's registration.
     */
    static String handleOf(Component<?> c) {
        if (c.isRelationMarker()) {
            return c.name().equals("ChildOf") ? "world.relations().childOf()"
                    : "world.relations().register(\"" + c.name() + "\", ...), and its column()";
        }
        return "world." + (c.kind() == ComponentKind.REFERENCE ? "referenceComponent(" : "component(")
                + c.type().javaClass().getSimpleName() + ".class)";
    }
}
