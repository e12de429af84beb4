package dev.orrery.engine.jfr;

import dev.orrery.ecs.World;
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

    /** Asks whether a recording wants the event; never begun or committed. */
    private static final TickEvent PROBE = new TickEvent();

    /** Creates an event; the tick loop begins it and {@link #finish}es it. */
    public TickEvent() {
    }

    /**
     * A begun event when a recording wants tick events, else {@code null}: the tick loop then
     * makes no event at all (an event made every tick was 48 bytes a tick on the tick thread,
     * which escape analysis did not remove, with no recording running).
     */
    public static TickEvent startIfEnabled() {
        if (!PROBE.isEnabled()) {
            return null;
        }
        TickEvent e = new TickEvent();
        e.begin();
        return e;
    }

    /** Fills and commits the event, if a recording wants it, once tick {@code tick} has run. */
    public void finish(long tick, int inputs, World world) {
        if (shouldCommit()) {
            this.tick = tick;
            this.inputs = inputs;
            this.entities = world.entityCount();
            commit();
        }
    }
}
