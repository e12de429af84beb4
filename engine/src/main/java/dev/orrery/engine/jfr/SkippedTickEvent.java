package dev.orrery.engine.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A tick skipped because a system threw, under the {@code SKIP_TICK} failure policy: which
 * tick, which system, which of its chunks, and what it threw.
 */
@Name("dev.orrery.SkippedTick")
@Label("Orrery Skipped Tick")
@Category({"Orrery"})
@Description("A system threw; the tick's pending structural changes were discarded and the simulation went on")
@StackTrace(false)
public final class SkippedTickEvent extends Event {
    /** The tick number. */
    @Label("Tick")
    public long tick;

    /** The system that threw. */
    @Label("System")
    public String system;

    /** The chunk ordinal (in the system's query order), or -1 when not known. */
    @Label("Chunk")
    public int chunk;

    /** What the system threw, one line. */
    @Label("Failure")
    public String failure;

    /** Creates an event. */
    public SkippedTickEvent() {
    }

    /** Fills and commits the event, if a recording wants it. */
    public static void emit(long tick, String system, int chunk, String failure) {
        SkippedTickEvent e = new SkippedTickEvent();
        if (e.shouldCommit()) {
            e.tick = tick;
            e.system = system;
            e.chunk = chunk;
            e.failure = failure;
            e.commit();
        }
    }
}
