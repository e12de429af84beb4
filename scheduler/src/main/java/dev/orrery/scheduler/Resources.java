package dev.orrery.scheduler;

import dev.orrery.scheduler.check.CheckedMode;
import dev.orrery.scheduler.event.EventChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The store of a schedule's singleton values (a clock, configuration, a spatial grid, a
 * count, this tick's inputs), each under a {@link ResourceKey}. Systems declare which keys
 * they read, write or reduce ({@code readsResource}, {@code writesResource},
 * {@code reducesResource}), so the scheduler orders them like components; the values live
 * here. One store serves a schedule and, when there is one, the engine's simulation (which
 * adds snapshot codecs on top of it): {@code Schedule.builder(world).resource(key, value)}
 * puts into it, {@code Schedule.Builder.resources(store)} shares an existing one.
 *
 * <p>Jobs reach it through {@code JobContext.resource(key)} (a declared read),
 * {@code resourceForWrite(key)} (a declared write) and {@code add(key, n)} (a declared
 * reduction into a {@link LongSum}), each checked against the system's declaration.
 * Exclusive systems and the tick thread call {@link #get} and {@link #getForWrite}
 * directly (capture the store from the builder).
 *
 * <pre>{@code
 * ResourceKey<Settings> SETTINGS = ResourceKey.of("settings", Settings.class);
 * Schedule.Builder b = Schedule.builder(world).resource(SETTINGS, new Settings(0.5f));
 * b.system("drag").query(moving).writes(vel).readsResource(SETTINGS)
 *     .forEachChunk(job -> {
 *         float k = job.resource(SETTINGS).drag();
 *         float[] v = job.chunk().writeFloats(vx);
 *         for (int i = 0; i < job.chunk().size(); i++) v[i] *= 1 - k;
 *     });
 * }</pre>
 *
 * <p><b>Threading:</b> {@link #put} runs on the thread that owns the schedule, between
 * runs. {@link #get} may be called from jobs: the executor hands out jobs after the owner's
 * writes (a happens-before edge through its job queues), and a system may change the inside
 * of a value only if it declared a write of its key. In checked mode (under {@code -ea}),
 * {@link #get} and {@link #getForWrite} called from inside a job check the job's declaration.
 */
public final class Resources {
    private final Map<ResourceKey<?>, Object> values = new IdentityHashMap<>();
    private final List<ResourceKey<?>> order = new ArrayList<>();
    /** The key registered under each name: two keys may not share one (snapshots and messages go by name). */
    private final Map<String, ResourceKey<?>> byName = new HashMap<>();

    /** An empty store. */
    public Resources() {
    }

    /**
     * Stores {@code value} under {@code key}, replacing any value there. The first put of a key
     * registers it; its name must be its own, as snapshots, graph output and messages name
     * resources by name.
     *
     * @param <T> the resource's type
     * @param key the key, not null; keys compare by identity, so make it once (a constant)
     * @param value the value, not null, an instance of the key's type
     * @return this store, for the next put
     * @throws NullPointerException naming the key or the value, when one is null
     * @throws IllegalArgumentException if {@code value} is not of the key's type, or if another
     *     key with the same name is registered (the message names both keys and their types)
     */
    public <T> Resources put(ResourceKey<T> key, T value) {
        Objects.requireNonNull(key, "resource key");
        if (value == null) { // not requireNonNull(value, () -> ...): the lambda would capture key on every put, a tick's too
            throw new NullPointerException("value of resource '" + key.name() + "' is null; put a "
                    + key.type().getName() + " (a resource holds no null: leave the key unput until it has a value)");
        }
        if (!key.type().isInstance(value)) {
            throw new IllegalArgumentException("resource '" + key.name() + "' holds " + key.type().getName()
                    + ", not " + value.getClass().getName());
        }
        if (values.put(key, value) == null) { // a new key: registered once, so a tick's re-put costs nothing more
            ResourceKey<?> other = byName.putIfAbsent(key.name(), key);
            if (other != null) {
                values.remove(key);
                if (value instanceof EventChannel<?> now && values.get(other) instanceof EventChannel<?> first) {
                    throw new IllegalArgumentException("two event keys are named '" + now.key().name() + "': the one "
                            + "declared first carries " + first.key().type().getName() + ", the one declared now carries "
                            + now.key().type().getName() + "; snapshots and messages name event channels by name, so "
                            + "give each EventKey its own name, or share one key instance (keys compare by identity)");
                }
                throw new IllegalArgumentException("two resource keys are named '" + key.name() + "': the one "
                        + "registered first holds " + other.type().getName() + ", the one put now holds "
                        + key.type().getName() + "; snapshots and messages name resources by name, so give each "
                        + "ResourceKey its own name, or share one key instance (keys compare by identity)");
            }
            order.add(key);
        }
        if (value instanceof States<?> machine) { // its requests are checked against a write of this key
            machine.storedUnder(key);
        } else if (value instanceof FixedTimestep clock) { // so are its rate changes
            clock.storedUnder(key);
        } else if (value instanceof LongSum sum) { // and a sum's set and reset
            sum.storedUnder(key);
        }
        return this;
    }

    /**
     * The value under {@code key}. In checked mode (under {@code -ea}), from inside a job,
     * the job's system must have declared a read or a write of {@code key}.
     *
     * @param <T> the resource's type
     * @param key a key put before
     * @return the value under {@code key}, never null
     * @throws IllegalStateException naming the key and the keys that exist, when it has no value
     * @throws dev.orrery.scheduler.UndeclaredResourceAccessException in checked mode,
     *     naming the system and the key, when the running job's system declared no access to it
     */
    public <T> T get(ResourceKey<T> key) {
        CheckedMode.checkResourceRead(key);
        return value(key);
    }

    /**
     * The value under {@code key}, to change its inside: what a system that declared
     * {@code writesResource(key)} calls. In checked mode, from inside a job, the job's system
     * must have declared a write of {@code key}.
     *
     * @param <T> the resource's type
     * @param key a key put before
     * @return the value under {@code key}, never null, to change in place
     * @throws IllegalStateException naming the key and the keys that exist, when it has no value
     * @throws dev.orrery.scheduler.UndeclaredResourceAccessException in checked mode,
     *     naming the system and the key, when the running job's system declared no write of it
     */
    public <T> T getForWrite(ResourceKey<T> key) {
        CheckedMode.checkResourceWrite(key);
        return value(key);
    }

    /**
     * The value under {@code key} with no declaration check: for the executor's
     * {@code JobContext}, which has checked the running system's declaration already.
     *
     * @param <T> the resource's type
     * @param key a key put before
     * @return the value under {@code key}, never null
     * @throws IllegalStateException naming the key and the keys that exist, when it has no value
     *     (or, when another key of the same name has one, saying that keys compare by identity)
     */
    public <T> T value(ResourceKey<T> key) {
        T value = valueIfPut(key);
        if (value == null) {
            List<String> names = new ArrayList<>();
            for (ResourceKey<?> k : order) {
                names.add(k.name());
            }
            // Names the engine's builder as text only: the scheduler does not depend on the engine.
            throw new IllegalStateException("resource '" + key.name() + "' has no value; put one before the first "
                    + "run with .resource(key, value) on the simulation or schedule builder (SimulationBuilder.resource, "
                    + "Schedule.Builder.resource) or with Resources.put (resources present: " + names + ")");
        }
        return value;
    }

    /**
     * The value under {@code key}, or null when no key of its name has one: the one place that
     * tells a missing resource from a second key made with the same name. For {@link #value}
     * and, through {@code SchedulerInternals.valueIfPut}, for the executor's own keys (a state
     * machine, a fixed step), which refuse a missing value in their own words.
     *
     * @throws IllegalStateException when another key of the same name has a value, saying that
     *     keys compare by identity
     */
    <T> T valueIfPut(ResourceKey<T> key) {
        Object v = values.get(key);
        if (v == null) {
            ResourceKey<?> sameName = byName.get(key.name());
            if (sameName != null && sameName != key) {
                throw new IllegalStateException("resource '" + key.name() + "' has no value under this key, but "
                        + "another ResourceKey named '" + key.name() + "' (of " + sameName.type().getName() + ") has "
                        + "one; keys compare by identity, not by name, so make the key once (a static final constant) "
                        + "and use that one key to put, declare and read the resource");
            }
            return null;
        }
        @SuppressWarnings("unchecked") // checked against the key's class when put
        T value = (T) key.type().cast(v);
        return value;
    }

    /**
     * Gives every {@link LongSum} in the store a slot per worker of an executor with
     * {@code workers} workers; the executor calls it as each run starts. Allocates only when
     * a sum grows.
     */
    void prepareReductions(int workers) {
        for (int i = 0, n = order.size(); i < n; i++) {
            if (values.get(order.get(i)) instanceof LongSum sum) {
                sum.prepare(workers);
            }
        }
    }

    /**
     * True when {@code key} has a value.
     *
     * @param key the key to look for; a key of the same name but another instance is not it
     * @return true when a value was put under this very key
     */
    public boolean has(ResourceKey<?> key) {
        return values.containsKey(key);
    }

    /**
     * The keys in the order they were first put.
     *
     * @return an unmodifiable copy, taken now
     */
    public List<ResourceKey<?>> keys() {
        return List.copyOf(order);
    }
}
