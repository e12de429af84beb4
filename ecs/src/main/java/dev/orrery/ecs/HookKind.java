package dev.orrery.ecs;

/** What happened to a component that an observer hook reacts to. */
public enum HookKind {
    /** The entity gained the component (spawn, add, or a move that brings it). */
    ADD,
    /** The entity lost the component (remove, or a move that drops it; a despawn fires it too). */
    REMOVE,
    /** A value of the component was written by a set ({@code World.set}, a typed setter, a set command). */
    SET,
    /** The entity was despawned while holding the component (fired after {@link #REMOVE}). */
    DESPAWN;

    /** The registration method's name, for messages ({@code onAdd}). */
    String method() {
        return switch (this) {
            case ADD -> "onAdd";
            case REMOVE -> "onRemove";
            case SET -> "onSet";
            case DESPAWN -> "onDespawn";
        };
    }
}
