package dev.orrery.engine.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A tick still running after the watchdog's limit (a multiple of the step): the system and
 * job it was in when the watchdog looked. The tick is not stopped.
 */
@Name("dev.orrery.TickOverrun")
@Label("Orrery Tick Overrun")
@Category({"Orrery"})
@Description("A tick ran longer than the watchdog's limit; names the system and job still running")
@StackTrace(false)
public final class TickOverrunEvent extends Event {
    /** The tick number. */
    @Label("Tick")
    public long tick;

    /** How long the tick had run when reported. */
    @Label("Elapsed")
    @Timespan(Timespan.NANOSECONDS)
    public long elapsed;

    /** The system still running, or empty when none was (input drain, sync point, hashing). */
    @Label("System")
    public String system;

    /** The job still running (worker and chunk range) or, outside jobs, the step the tick thread is in. */
    @Label("Job")
    public String job;

    /** Creates an event. */
    public TickOverrunEvent() {
    }

    /** Fills and commits the event, if a recording wants it. */
    public static void emit(long tick, long elapsedNanos, String system, String job) {
        TickOverrunEvent e = new TickOverrunEvent();
        if (e.shouldCommit()) {
            e.tick = tick;
            e.elapsed = elapsedNanos;
            e.system = system;
            e.job = job;
            e.commit();
        }
    }
}
