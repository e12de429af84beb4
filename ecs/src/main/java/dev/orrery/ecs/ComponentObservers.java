package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;

/**
 * The hooks registered for one component, from {@code world.observe(c)}:
 *
 * <pre>{@code
 * world.observe(health).onRemove((w, e, commands) -> commands.add(e, corpse));
 * world.observe(loot).onRemove((w, e, last, commands) ->      // with the value it held
 *         commands.add(commands.spawn(), loot, last));        // dropped as an entity of its own
 * world.observe(burning).onAdd((w, e, commands) -> System.out.println("burning " + Entity.toString(e)));
 * }</pre>
 *
 * <p><b>When they run.</b> A direct structural call on the world outside jobs ({@code spawn},
 * {@code add}, {@code remove}, {@code moveTo}, {@code despawn}, the bulk moves, {@code set} and
 * the typed setters) fires its hooks when it returns. Command playback at a sync point fires
 * them after the whole playback (and after the spawn values it writes side by side are in
 * place), in playback order, on the applying thread. Hooks of one event run in registration
 * order. Registering costs nothing for components no hook observes.
 *
 * <p><b>Threading:</b> register during set-up on the world's owning thread.
 *
 * @param <T> the observed component's Java type (its record, or a reference component's class)
 */
public final class ComponentObservers<T> {
    private final ChangeTracker tracker;
    private final Component<T> column;

    ComponentObservers(ChangeTracker tracker, Component<T> column) {
        this.tracker = tracker;
        this.column = column;
    }

    /**
     * Runs {@code hook} after the component is added to an entity (spawn, add, move); returns this.
     *
     * @param hook run on the world's owning thread, not null; the entity holds the component by then
     * @return these observers, for the next hook
     */
    public ComponentObservers<T> onAdd(Hook hook) {
        tracker.register(column, HookKind.ADD, hook);
        return this;
    }

    /**
     * Runs {@code hook} after the component is removed from an entity, or its entity despawned; returns this.
     *
     * @param hook run on the world's owning thread, not null; the entity no longer holds the
     *     component
     * @return these observers, for the next hook
     */
    public ComponentObservers<T> onRemove(Hook hook) {
        tracker.register(column, HookKind.REMOVE, hook);
        return this;
    }

    /**
     * Runs {@code hook} after the component leaves an entity (removed, dropped by a move, or its
     * entity despawned) with the value it held, read just before the row went; returns this.
     * Runs right after this component's plain {@link #onRemove(Hook)} hooks for the same event.
     *
     * @param hook run on the world's owning thread with the value the entity held, not null
     * @return these observers, for the next hook
     */
    public ComponentObservers<T> onRemove(ValueHook<? super T> hook) {
        tracker.registerValueHook(column, hook);
        return this;
    }

    /**
     * Runs {@code hook} after a value of the component is set (not spawned or added); returns this.
     *
     * @param hook run on the world's owning thread, not null; the entity holds the new value
     * @return these observers, for the next hook
     */
    public ComponentObservers<T> onSet(Hook hook) {
        tracker.register(column, HookKind.SET, hook);
        return this;
    }

    /**
     * Runs {@code hook} after an entity holding the component is despawned (after its onRemove); returns this.
     *
     * @param hook run on the world's owning thread, not null; the entity is dead by then
     * @return these observers, for the next hook
     */
    public ComponentObservers<T> onDespawn(Hook hook) {
        tracker.register(column, HookKind.DESPAWN, hook);
        return this;
    }
}
