package dev.orrery.scheduler.executor;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JFR event per sync point at which command buffers were applied: how long playback took
 * and how much it applied, so JDK Mission Control shows the serial part of a tick.
 */
@Name("dev.orrery.SyncPoint")
@Label("Orrery Sync Point")
@Category({"Orrery"})
@Description("Command buffers of every worker merged by key and applied to the world")
@StackTrace(false)
public final class SyncPointEvent extends Event {
    /** Commands applied. */
    @Label("Commands")
    public int commands;

    /** Archetype moves made. */
    @Label("Moves")
    public int moves;

    /** Creates an event; the executor fills and commits it. */
    public SyncPointEvent() {
    }
}
