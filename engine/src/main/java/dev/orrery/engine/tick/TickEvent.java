package dev.orrery.engine.tick;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JFR event per simulation tick, so JDK Mission Control shows tick times beside GC and
 * threads. Enable with {@code -XX:StartFlightRecording} (the event is on by default in
 * recordings that enable {@code dev.orrery.*}).
 */
@Name("dev.orrery.Tick")
@Label("Orrery Tick")
@Category({"Orrery"})
@Description("One fixed-step simulation tick: inputs drained, systems run, structural changes applied")
@StackTrace(false)
public final class TickEvent extends Event {
    /** The tick number. */
    @Label("Tick")
    public long tick;

    /** Inputs the tick consumed. */
    @Label("Inputs")
    public int inputs;

    /** Live entities after the tick. */
    @Label("Entities")
    public int entities;

    /** Creates an event; the simulation fills and commits it. */
    public TickEvent() {
    }
}
