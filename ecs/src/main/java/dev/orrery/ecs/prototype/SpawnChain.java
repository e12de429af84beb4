package dev.orrery.ecs.prototype;

import dev.orrery.ecs.component.Component;

/**
 * A fixed sequence of columns that entities are spawned with, remembering the prototype
 * the sequence leads to in the {@link PrototypeIndex}: a repeated spawn of the same shape
 * then registers all its instance names with one reference count instead of one
 * transition per column ({@link NamedInstances#spawned(int, SpawnChain)}). The remembered
 * handle is trusted only while the index's {@link PrototypeIndex#reclaimEpoch()} is the
 * one seen when it was taken, so a reclaimed and reused handle is never followed.
 *
 * <p><b>Threading:</b> owned by the world's owning thread, like the index.
 */
public final class SpawnChain {
    final Component<?>[] columns;
    private final boolean holdsSparse;
    int prototype = PrototypeIndex.EMPTY;
    int epoch;

    /** A chain of {@code columns} in registration order (the array is kept, not copied). */
    public SpawnChain(Component<?>[] columns) {
        this.columns = columns;
        boolean any = false;
        for (Component<?> c : columns) {
            any |= c.isSparse();
        }
        this.holdsSparse = any;
    }

    /** True when a column of the chain has sparse storage (the spawn then goes through the sparse side). */
    public boolean holdsSparse() {
        return holdsSparse;
    }

    /** The columns, in registration order (callers must not write the array). */
    public Component<?>[] columns() {
        return columns;
    }
}
