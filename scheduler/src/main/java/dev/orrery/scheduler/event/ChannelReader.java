package dev.orrery.scheduler.event;

import dev.orrery.scheduler.EventReader;

/**
 * The executor's {@link EventReader}: a window onto one channel's merged events, bound by
 * {@link EventChannel#openReader} as the reading system starts.
 *
 * <p><b>Threading:</b> bound on the executor's owner thread, then read (never changed) by the
 * system's jobs on any worker after the job hand-off.
 *
 * @param <T> the type of the events
 */
public final class ChannelReader<T> implements EventReader<T> {
    private EventChannel<T> channel;
    private int from;
    private int count;
    private boolean missed;

    /** An unbound reader (no events); {@link EventChannel#openReader} binds it. */
    public ChannelReader() {
    }

    void bind(EventChannel<T> channel, int from, int count, boolean missed) {
        this.channel = channel;
        this.from = from;
        this.count = count;
        this.missed = missed;
    }

    @Override
    public int size() {
        return count;
    }

    @Override
    public boolean missed() {
        return missed;
    }

    @Override
    public T get(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("event " + i + " of " + count + " unread in channel '"
                    + (channel == null ? "?" : channel.key().name()) + "'");
        }
        return channel.at(from + i);
    }
}
