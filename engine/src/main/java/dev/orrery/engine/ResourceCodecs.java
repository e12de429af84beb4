package dev.orrery.engine;

import dev.orrery.scheduler.ResourceKey;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Which resources of a store snapshots carry, and how: a {@link ResourceCodec} per key. The
 * values live in the scheduler's {@code dev.orrery.scheduler.Resources} store (one
 * store for schedule and simulation); this registry is the engine's part on top of it.
 *
 * <p><b>Threading:</b> not thread-safe; register on the thread that builds the simulation,
 * read on the tick thread between ticks.
 */
public final class ResourceCodecs {
    private final Map<ResourceKey<?>, ResourceCodec<?>> codecs = new IdentityHashMap<>();

    /** An empty registry. */
    public ResourceCodecs() {
    }

    /**
     * Registers how {@code key}'s value is written to and read from snapshots.
     *
     * @param <T> the resource's type
     * @param key the resource's key (keys compare by identity); not null
     * @param codec how to write and read its value; not null; replaces one put before for the key
     * @return this registry, for chaining
     * @throws NullPointerException if {@code key} or {@code codec} is null
     */
    public <T> ResourceCodecs put(ResourceKey<T> key, ResourceCodec<T> codec) {
        codecs.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(codec, "codec"));
        return this;
    }

    /**
     * The codec registered for {@code key}, or {@code null}.
     *
     * @param <T> the resource's type
     * @param key the resource's key
     * @return the codec, or {@code null} when none was put for that key object
     */
    @SuppressWarnings("unchecked")
    public <T> ResourceCodec<T> of(ResourceKey<T> key) {
        return (ResourceCodec<T>) codecs.get(key);
    }
}
