package dev.orrery.ecs;


/**
 * An observer hook: code run when a component is added to, removed from or set on an
 * entity, or the entity holding it is despawned (see {@link ComponentObservers}).
 *
 * <p>A hook may read the world and write values by id ({@code world.set}, {@code setFloat},
 * ...), but it runs with the world's structure locked: a structural change (spawn, despawn,
 * add, remove) is recorded into {@code commands}, which is applied after the hooks of the
 * round, and may fire further hooks (a cascade, run to a fixed point with a depth limit).
 *
 * <p><b>Threading:</b> runs on the thread that applies the change: the world's owner (the
 * sync point's applying thread during a scheduled run).
 */
@FunctionalInterface
public interface Hook {
    /**
     * Reacts to the change of {@code entity}: for {@link HookKind#REMOVE} and
     * {@link HookKind#DESPAWN} the component is gone already (for a despawn, so is the
     * entity); for the others the entity holds it with its written value.
     *
     * @param world the world the change was made in; read it, write values by id
     * @param entity the entity changed
     * @param commands where to record structural changes, applied after the round's hooks
     */
    void run(World world, long entity, CommandBuffer commands);
}
