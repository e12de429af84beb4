package dev.orrery.scheduler;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.RemovedEntities;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;

/**
 * What a job body gets: which worker runs it, which system and which chunk, the
 * {@link ChunkView} bound to that chunk, the worker's command buffer, and by-id access to
 * other entities' components. Everything it hands out is checked against the system's
 * declared access: reading an undeclared column, or writing one declared read-only, through
 * the view or by id, throws {@code UndeclaredAccessException} naming the system and the
 * component.
 *
 * <p><b>By-id access</b> ({@link #getFloat}, {@link #setFloat}, {@link #get}, {@link #set}
 * and the others) reads or writes one component of any live entity, not only the bound
 * chunk's: like Bevy's {@code Query::get}, a read needs a declared read or write of the
 * component, a write a declared write. It replaces {@code world.setFloat(...)} and the other
 * by-id writes of the world, which refuse to run inside a job. The declaration keeps other
 * systems away from the component while this one runs; the jobs of this same system may run
 * at once on other chunks, so a by-id write must touch only entities no other job of the
 * system writes (for example the job's own rows, or a target only this row picks), or the
 * system must be exclusive.
 *
 * <p>The tuple (system index, chunk ordinal, row) depends only on the schedule and the
 * world, never on which worker ran the job, so it is the sort key of the command buffer:
 * structural changes recorded through {@link #commands()} are applied at the next sync point
 * in an order that does not depend on the workers.
 *
 * <p><b>Threading:</b> one context per worker, owned by that worker's thread (worker 0 is
 * the thread that calls {@link dev.orrery.scheduler.ScheduleExecutor#run}); its
 * command buffer is bound to that thread, so recording from another thread fails an
 * assertion. A body must not keep the context, or its view, beyond the call, nor hand them
 * to another thread.
 *
 * <p>The scheduler provides the one implementation, handed to each job; implement it only
 * in a test double of your own, knowing that methods are added to it as the engine grows
 * (as {@link #has} was).
 */
public interface JobContext {
    /**
     * The worker running the job: 0 is the calling thread, 1.. the executor's threads.
     *
     * @return 0 to the executor's worker count minus 1; use it to index per-worker scratch
     */
    int workerId();

    /**
     * The system's position in the schedule's linear order (its graph position).
     *
     * @return the index into {@link Schedule#systemNames()}, 0 or more
     */
    int systemIndex();

    /**
     * The system's name.
     *
     * @return the name given to {@code system(name)}
     */
    String systemName();

    /**
     * Which of the system's matching chunks this is, counted from 0 in query order; -1 in a range system.
     *
     * @return the chunk's ordinal, 0 or more, or -1 outside a chunk system
     */
    int chunkOrdinal();

    /**
     * This worker's command buffer, for structural changes (spawn, despawn, add, remove):
     * they are applied at the next sync point, in an order that does not depend on which
     * worker ran which chunk. The buffer's key is already set to this system and chunk.
     *
     * @return the worker's buffer; the same object for every job this worker runs
     */
    CommandBuffer commands();

    /**
     * The entities that lost {@code column} (removed, moved out of it, or despawned holding
     * it) since this system last ran, oldest first: a window that the next call on this
     * worker reuses. Needs a declared read or write of {@code column}, and its removals
     * tracked ({@code world.trackRemoved(column)} during set-up); they are kept for two
     * schedule runs, and a system that did not run for longer (a run condition, a slow
     * fixed-step phase) sees {@link RemovedEntities#missed()} true: some of its removals
     * were retired unread.
     *
     * @param column a tracked table column the system declared a read or write of
     * @return the removed entities' ids, valid until the next call on this worker
     * @throws dev.orrery.ecs.UndeclaredAccessException if the system declared neither
     * @throws IllegalStateException if the column's removals are not tracked
     */
    RemovedEntities removed(Component<?> column);

    /**
     * The change tick of this system's previous run (0 before its first): what its query's
     * {@code added}/{@code changed} filters and {@link ChunkView#changed} compare against.
     *
     * @return the tick, 0 or more
     */
    long lastRunTick();

    /**
     * The bound chunk, through the system's access checks; {@code null} in a range system's body.
     *
     * @return the view of the job's chunk, valid only during the body's call
     */
    ChunkView chunk();

    /**
     * The value of {@code column} on a live entity, as a new record (cold code: hot loops use
     * the chunk's arrays); needs a declared read or write of {@code column}.
     *
     * @param <T> the column's value type
     * @param entity a live entity of the schedule's world
     * @param column a column the system declared a read or write of
     * @return a fresh copy of the value (writing to it changes nothing), the stored object of a
     *     reference column, or null for a tag
     * @throws dev.orrery.ecs.UndeclaredAccessException if the system declared neither
     * @throws dev.orrery.ecs.component.StaleEntityException if {@code entity} is not alive
     * @throws IllegalArgumentException if the entity lacks the column
     */
    <T> T get(long entity, Component<T> column);

    /**
     * True when a live entity holds {@code column}, table or sparse: the by-id test to make
     * before {@link #get} of a column the entity may lack (a marker added and removed often,
     * held by another entity than the job's rows); needs a declared read or write of
     * {@code column}, which also places the sync point that shows an earlier system's adds and
     * removes of it. For a row of the job's own chunk, {@code chunk().has(column, row)} answers
     * the same. The world's own {@code has} is refused while jobs run.
     *
     * @param entity a live entity of the schedule's world
     * @param column a column the system declared a read or write of
     * @return true when the entity holds the column; the answer holds until the next sync point
     * @throws dev.orrery.ecs.UndeclaredAccessException if the system declared neither
     * @throws dev.orrery.ecs.component.StaleEntityException if {@code entity} is not alive (test
     *     {@code world.isAlive(entity)} first, which a job may call)
     */
    boolean has(long entity, Component<?> column);

    /**
     * Overwrites the value of {@code column} on a live entity that holds it; needs a declared
     * write of {@code column}. Not a structural change.
     *
     * @param <T> the column's value type
     * @param entity a live entity holding {@code column}, written by no other job of the system
     * @param column a column the system declared a write of
     * @param value the new value, not null
     * @throws dev.orrery.ecs.UndeclaredAccessException if the system declared no write of it
     * @throws NullPointerException naming the call when {@code value} is null, as
     *     {@code world.set} and {@code commands.set} refuse it (a set takes the new value)
     */
    <T> void set(long entity, Component<T> column, T value);

    /**
     * One {@code float} field of a live entity; needs a declared read or write of its component.
     *
     * @param entity a live entity of the schedule's world
     * @param field a {@code float} field of a component the system declared a read or write of
     * @return the field's value
     * @throws dev.orrery.ecs.UndeclaredAccessException naming the system and the declaration to add
     */
    float getFloat(long entity, Field field);

    /**
     * Writes one {@code float} field of a live entity; needs a declared write of its component.
     *
     * @param entity a live entity, written by no other job of the system
     * @param field a {@code float} field of a component the system declared a write of
     * @param value the new value
     * @throws dev.orrery.ecs.UndeclaredAccessException naming the system and the declaration to add
     */
    void setFloat(long entity, Field field, float value);

    /**
     * One {@code int} field of a live entity; needs a declared read or write of its component.
     *
     * @param entity a live entity of the schedule's world
     * @param field a {@code int} field of a component the system declared a read or write of
     * @return the field's value
     * @throws dev.orrery.ecs.UndeclaredAccessException naming the system and the declaration to add
     */
    int getInt(long entity, Field field);

    /**
     * Writes one {@code int} field of a live entity; needs a declared write of its component.
     *
     * @param entity a live entity, written by no other job of the system
     * @param field a {@code int} field of a component the system declared a write of
     * @param value the new value
     * @throws dev.orrery.ecs.UndeclaredAccessException naming the system and the declaration to add
     */
    void setInt(long entity, Field field, int value);

    /**
     * One {@code long} field of a live entity; needs a declared read or write of its component.
     *
     * @param entity a live entity of the schedule's world
     * @param field a {@code long} field of a component the system declared a read or write of
     * @return the field's value
     * @throws dev.orrery.ecs.UndeclaredAccessException naming the system and the declaration to add
     */
    long getLong(long entity, Field field);

    /**
     * Writes one {@code long} field of a live entity; needs a declared write of its component.
     *
     * @param entity a live entity, written by no other job of the system
     * @param field a {@code long} field of a component the system declared a write of
     * @param value the new value
     * @throws dev.orrery.ecs.UndeclaredAccessException naming the system and the declaration to add
     */
    void setLong(long entity, Field field, long value);

    /**
     * One {@code double} field of a live entity; needs a declared read or write of its component.
     *
     * @param entity a live entity of the schedule's world
     * @param field a {@code double} field of a component the system declared a read or write of
     * @return the field's value
     * @throws dev.orrery.ecs.UndeclaredAccessException naming the system and the declaration to add
     */
    double getDouble(long entity, Field field);

    /**
     * Writes one {@code double} field of a live entity; needs a declared write of its component.
     *
     * @param entity a live entity, written by no other job of the system
     * @param field a {@code double} field of a component the system declared a write of
     * @param value the new value
     * @throws dev.orrery.ecs.UndeclaredAccessException naming the system and the declaration to add
     */
    void setDouble(long entity, Field field, double value);

    /**
     * The value under {@code key} in the schedule's resource store, to read; needs a declared
     * {@code readsResource}, {@code writesResource} or {@code reducesResource} of the key.
     * Allocates nothing.
     *
     * @param <T> the resource's type
     * @param key a key the system declared a read, write or reduction of
     * @return the stored value, not null; read it, do not change it (other jobs read it at once)
     * @throws dev.orrery.scheduler.UndeclaredResourceAccessException naming the system
     *     and the resource, when the system declared none of them
     * @throws IllegalStateException when the store holds no value under {@code key}
     */
    <T> T resource(ResourceKey<T> key);

    /**
     * The value under {@code key}, to change its inside; needs a declared
     * {@code writesResource(key)}.
     *
     * @param <T> the resource's type
     * @param key a key the system declared a write of
     * @return the stored value, to change in place; the jobs of this system share it, so split the
     *     writes between them or make the system exclusive
     * @throws dev.orrery.scheduler.UndeclaredResourceAccessException naming the system
     *     and the resource, when the system declared no write of it
     */
    <T> T resourceForWrite(ResourceKey<T> key);

    /**
     * Adds {@code amount} to the {@link LongSum} under {@code key}, into this worker's own slot
     * (no lock, no shared cache line); needs a declared {@code reducesResource(key)} (or a
     * write). Systems ordered after this one see the total. Add once per chunk or job where
     * you can: each call looks the key up.
     *
     * @param key the key of a {@link LongSum} the system declared a reduction (or write) of
     * @param amount the amount to add, negative to subtract
     * @throws dev.orrery.scheduler.UndeclaredResourceAccessException naming the system
     *     and the resource, when the system declared no reduction into it
     */
    void add(ResourceKey<LongSum> key, long amount);

    /**
     * Sends {@code event} on the channel {@code key}, into this worker's own buffer (no lock;
     * no allocation once the buffer has grown, beyond the event itself); needs a declared
     * {@code writesEvents(key)}. Events are merged in (system, chunk, sequence) order, so
     * readers see them in an order that does not depend on the workers; see
     * {@link dev.orrery.scheduler.event.EventChannel} for when they see them.
     *
     * @param <T> the channel's event type
     * @param key a channel the system declared a write of
     * @param event the event, not null; kept by reference until it is dropped from the channel
     * @throws dev.orrery.scheduler.UndeclaredEventAccessException naming the system and
     *     the channel, when the system declared no write of it
     */
    <T> void send(EventKey<T> key, T event);

    /**
     * The events on channel {@code key} this system had not read when it started this time,
     * in merge order; needs a declared {@code readsEvents(key)}. Every job of the system gets
     * the same events. Allocates nothing. Events live for the tick they are merged in and the
     * next, so a system that did not run for longer (a run condition, a slow fixed-step
     * phase) sees {@link EventReader#missed()} true: some events sent to it were dropped
     * unread.
     *
     * @param <T> the channel's event type
     * @param key a channel the system declared a read of
     * @return the events, valid during this run of the system; empty when none are new
     * @throws dev.orrery.scheduler.UndeclaredEventAccessException naming the system and
     *     the channel, when the system declared no read of it
     */
    <T> EventReader<T> events(EventKey<T> key);
}
