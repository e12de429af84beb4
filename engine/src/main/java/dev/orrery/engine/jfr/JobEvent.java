package dev.orrery.engine.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A JFR event per job a system ran (one chunk batch on one worker), committed when the job
 * ends: the system, the worker and the job's duration. Emitted only while a flight
 * recording runs, and only when the simulation was built with job events on, see
 * {@link dev.orrery.engine.SimulationBuilder#jfrJobEvents(boolean)}.
 */
@Name("dev.orrery.Job")
@Label("Orrery Job")
@Category({"Orrery"})
@Description("One job of a system: a batch of chunks (or of a range system's indices) run on one worker")
@StackTrace(false)
public final class JobEvent extends Event {
    /** The system's name. */
    @Label("System")
    public String system;

    /** The worker that ran it (0 is the tick thread). */
    @Label("Worker")
    public int worker;

    /** The job's first chunk ordinal (-1 for an exclusive system; the first index for a range system). */
    @Label("First Chunk")
    public int firstChunk;

    /** How long the job ran. */
    @Label("Duration")
    @Timespan(Timespan.NANOSECONDS)
    public long nanos;

    /** Creates an event; {@link JfrObserver} fills and commits it. */
    public JobEvent() {
    }
}
