package dev.orrery.ecs;

/**
 * An observer hook that also gets the component value it is about: registered with
 * {@link ComponentObservers#onRemove(ValueHook)}, it receives the value the entity held when
 * the component left it (by remove, by a move that drops it, or by despawn), read just
 * before the row went, so a hook can still see what is being removed (a dying unit's last
 * position, the loot table of a chest being opened).
 *
 * <pre>{@code
 * world.observe(health).onRemove((w, e, last, commands) ->   // last: the Health it held
 *         commands.setInt(commands.spawn(corpse), corpseSize, last.max()));   // a corpse that big
 * }</pre>
 *
 * <p>The value is a new record (a reference component's stored object); keep it if you like.
 * The entity has left the component when the hook runs (it may be despawned); record
 * structural changes in {@code commands}, as in a {@link Hook}.
 *
 * @param <T> the component's type
 */
@FunctionalInterface
public interface ValueHook<T> {
    /**
     * Runs for {@code entity}, which held {@code value} in the observed column.
     *
     * @param world the world the change was made in
     * @param entity the entity that left the component (it may be despawned)
     * @param value the value it held, a new record (or the stored object of a reference column)
     * @param commands where to record structural changes, applied after the round's hooks
     */
    void run(World world, long entity, T value, CommandBuffer commands);
}
