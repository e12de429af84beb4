package dev.orrery.scheduler;

import dev.orrery.scheduler.event.EventChannel;
import java.util.Objects;

/**
 * The name of a typed event channel between systems: writers declare
 * {@code .writesEvents(key)} and send through {@code job.send(key, event)}; readers declare
 * {@code .readsEvents(key)} and read through {@code job.events(key)}. The graph orders every
 * writer of a channel before every later reader of it in the same phase, like a resource
 * write before a read. The events themselves live in a channel the schedule keeps in its
 * resource store, under the key's name: the schedule makes an empty one when it is built, and
 * a simulation's {@code SimulationBuilder.events(key, codec)} gives it a snapshot codec.
 * Keys compare by identity: create each once and share it; two keys with one name are
 * refused when the schedule is built.
 *
 * <pre>{@code
 * record Hit(long target, int damage) {}
 * EventKey<Hit> HITS = EventKey.of("hits", Hit.class);
 * }</pre>
 *
 * <p><b>Threading:</b> immutable; safe to share between threads.
 *
 * @param <T> the type of the events
 */
public final class EventKey<T> {
    private final String name;
    private final Class<T> type;
    private final ResourceKey<EventChannel<T>> channel;

    @SuppressWarnings("unchecked")
    private EventKey(String name, Class<T> type) {
        this.name = Objects.requireNonNull(name, "event channel name");
        this.type = Objects.requireNonNull(type, "event type");
        if (name.isBlank()) {
            throw new IllegalArgumentException("an event channel needs a non-blank name, used in graph output and "
                    + "errors");
        }
        Class<EventChannel<T>> channelType = (Class<EventChannel<T>>) (Class<?>) EventChannel.class;
        this.channel = ResourceKey.of("events:" + name, channelType);
    }

    /**
     * A new channel named {@code name} carrying events of {@code type}.
     *
     * @param <T> the event type
     * @param name the channel's name, not blank, unique among the channels of one schedule
     * @param type the events' class, not null
     * @return a new key, equal only to itself: keep it in a constant and use it to declare, send
     *     and read
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public static <T> EventKey<T> of(String name, Class<T> type) {
        return new EventKey<>(name, type);
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
     * The type of the events.
     *
     * @return the class given to {@link #of}
     */
    public Class<T> type() {
        return type;
    }

    /**
     * The resource key the channel's {@link EventChannel} is stored under (named
     * {@code "events:<name>"}); the engine registers a snapshot codec under it to carry
     * pending events and reader positions through a snapshot.
     */
    ResourceKey<EventChannel<T>> channel() {
        return channel;
    }

    @Override
    public String toString() {
        return name;
    }
}
