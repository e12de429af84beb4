package dev.orrery.engine.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A JFR event per sync point at which command buffers were applied: how long playback took
 * and how much it applied, so JDK Mission Control shows the serial part of a tick. The
 * scheduler reports each playback to its {@code JobObserver}; {@link JfrObserver} commits
 * this event from that report, on the thread that ran the playback, so the playback's time
 * is the {@code nanos} field rather than the event's own duration.
 */
@Name("dev.orrery.SyncPoint")
@Label("Orrery Sync Point")
@Category({"Orrery"})
@Description("Command buffers of every worker merged by key and applied to the world")
@StackTrace(false)
public final class SyncPointEvent extends Event {
    /** Commands applied. */
    @Label("Commands")
    public long commands;

    /** Archetype moves made. */
    @Label("Moves")
    public long moves;

    /** How long the playback ran. */
    @Label("Duration")
    @Timespan(Timespan.NANOSECONDS)
    public long nanos;

    /** Creates an event; {@link JfrObserver} fills and commits it. */
    public SyncPointEvent() {
    }
}
