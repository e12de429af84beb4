package dev.orrery.engine.resource;

import dev.orrery.scheduler.access.ResourceKey;
import dev.orrery.scheduler.check.CheckedMode;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The simulation's singleton values (clock, configuration, a spatial index, this tick's
 * inputs), each stored under a {@link ResourceKey}. Systems declare which keys they read
 * and write, so the scheduler orders them like components; the values live here. Keys are
 * made with {@code ResourceKey.of(name, type)} and live in the scheduler's
 * {@code dev.orrery.scheduler.access} package, because the scheduler orders systems by them.
 *
 * <p><b>Threading:</b> {@link #put} and {@link #codec} run on the tick thread between
 * ticks. {@link #get} may be called from jobs: the executor hands out jobs after the tick
 * thread's writes (a happens-before edge through its job queues), and a system may change
 * the inside of a value only if it declared a write of its key.
 */
public final class Resources {
    private final Map<ResourceKey<?>, Object> values = new IdentityHashMap<>();
    private final Map<ResourceKey<?>, ResourceCodec<?>> codecs = new IdentityHashMap<>();
    private final List<ResourceKey<?>> order = new ArrayList<>();

    /** An empty store. */
    public Resources() {
    }

    /** Stores {@code value} under {@code key}, replacing any value there. */
    public <T> Resources put(ResourceKey<T> key, T value) {
        Objects.requireNonNull(value, () -> "value of resource '" + key.name() + "'");
        if (!key.type().isInstance(value)) {
            throw new IllegalArgumentException("resource '" + key.name() + "' holds " + key.type().getName()
                    + ", not " + value.getClass().getName());
        }
        if (values.put(key, value) == null) {
            order.add(key);
        }
        return this;
    }

    /** Registers how {@code key}'s value is written to and read from snapshots. */
    public <T> Resources codec(ResourceKey<T> key, ResourceCodec<T> codec) {
        codecs.put(key, Objects.requireNonNull(codec, "codec"));
        return this;
    }

    /**
     * The value under {@code key}. In checked mode (under {@code -ea}), from inside a job,
     * the job's system must have declared a read or a write of {@code key}.
     *
     * @throws IllegalStateException naming the key and the keys that exist, when it has no value
     * @throws dev.orrery.scheduler.access.UndeclaredResourceAccessException in checked mode,
     *     naming the system and the key, when the running job's system declared no access to it
     */
    public <T> T get(ResourceKey<T> key) {
        CheckedMode.checkResourceRead(key);
        Object v = values.get(key);
        if (v == null) {
            List<String> names = new ArrayList<>();
            for (ResourceKey<?> k : order) {
                names.add(k.name());
            }
            throw new IllegalStateException("resource '" + key.name() + "' has no value; put one with "
                    + "Resources.put before the first tick (resources present: " + names + ")");
        }
        return key.type().cast(v);
    }

    /**
     * The value under {@code key}, to change its inside: what a system that declared
     * {@code writesResource(key)} calls. In checked mode, from inside a job, the job's system
     * must have declared a write of {@code key}.
     *
     * @throws dev.orrery.scheduler.access.UndeclaredResourceAccessException in checked mode,
     *     naming the system and the key, when the running job's system declared no write of it
     */
    public <T> T getForWrite(ResourceKey<T> key) {
        CheckedMode.checkResourceWrite(key);
        return get(key);
    }

    /** True when {@code key} has a value. */
    public boolean has(ResourceKey<?> key) {
        return values.containsKey(key);
    }

    /** The keys in the order they were first put. */
    public List<ResourceKey<?>> keys() {
        return List.copyOf(order);
    }

    /** The codec registered for {@code key}, or {@code null}. */
    @SuppressWarnings("unchecked")
    public <T> ResourceCodec<T> codecOf(ResourceKey<T> key) {
        return (ResourceCodec<T>) codecs.get(key);
    }
}
