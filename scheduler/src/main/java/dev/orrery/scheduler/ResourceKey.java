package dev.orrery.scheduler;

import java.util.Objects;

/**
 * The name of a world-wide value a system may read or write (the simulation clock, a random
 * seed, a spatial index). Only the key lives here, so the scheduler can order systems that
 * share a resource; the engine supplies the values. Keys compare by identity: create each
 * once and share it.
 *
 * <p>Reach the value through its key each time ({@code job.resource(KEY)},
 * {@code job.resourceForWrite(KEY)}, {@code resources.get(KEY)}), never through the object
 * captured when it was put: the engine's snapshot restore puts a new object under each key
 * with a codec, and a captured one would no longer be the store's.
 *
 * <p>A generic value is keyed by its raw class, with the full type on the key's declaration:
 * {@code ResourceKey<Map<Long, Integer>> SCORES = ResourceKey.of("scores", Map.class);}. Values
 * put under the key are checked against the raw class.
 *
 * <p><b>Threading:</b> immutable; safe to share between threads.
 *
 * @param <T> the type of the value the engine will store under this key
 */
public final class ResourceKey<T> {
    private final String name;
    private final Class<? super T> type;

    private ResourceKey(String name, Class<? super T> type) {
        this.name = Objects.requireNonNull(name, "resource name");
        this.type = Objects.requireNonNull(type, "resource type");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a resource needs a non-blank name, used in graph output and errors");
        }
    }

    /**
     * A new key named {@code name} for values of {@code type}, or of a parameterization of it
     * (a key for {@code List<String>} is made with {@code List.class}).
     *
     * @param <T> the resource's type
     * @param name the resource's name, not blank, unique among the keys put in one store; snapshots
     *     name the resource by it
     * @param type the value's class, not null
     * @return a new key, equal only to itself: keep it in a constant and use it to put, declare and
     *     read
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public static <T> ResourceKey<T> of(String name, Class<? super T> type) {
        return new ResourceKey<>(name, type);
    }

    /**
     * The name shown in graph output and error messages.
     *
     * @return the name given to {@link #of}
     */
    public String name() {
        return name;
    }

    /**
     * The class of the value stored under this key (the raw class of a generic type).
     *
     * @return the class given to {@link #of}
     */
    public Class<? super T> type() {
        return type;
    }

    @Override
    public String toString() {
        return name;
    }
}
