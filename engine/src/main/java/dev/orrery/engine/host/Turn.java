package dev.orrery.engine.host;

import dev.orrery.engine.Simulation;
import dev.orrery.engine.internal.EngineInternals;
import java.util.ArrayDeque;

/**
 * A pool thread's turn with one world: its queued calls, then one tick, timed; the results
 * are read by {@link WorldHost} to put the world back. Reused, so a turn allocates nothing.
 *
 * <p><b>Threading:</b> each pool thread owns one.
 */
final class Turn {
    HostedWorld world;
    long start;
    long end;
    long tick;
    boolean skipped;
    Throwable failure;

    void run(HostedWorld w, Thread me, ArrayDeque<HostedWorld.Task<?>> tasks) {
        world = w;
        failure = null;
        start = System.nanoTime();
        Simulation sim = w.sim;
        EngineInternals.hostTurn(sim, me); // this thread may touch the simulation until the turn ends
        tick = sim.currentTick();
        long skippedBefore = sim.skippedTicks();
        try { // one world's failure must not take a pool thread down
            if (w.tickThread != me) {
                // the host lock, released by the last tick's thread and acquired by this one, orders them;
                // it calls the input source's bindTickThread, user code that may throw like its beginTick
                sim.bindTickThread();
                w.tickThread = me;
            }
            for (HostedWorld.Task<?> task = tasks.poll(); task != null; task = tasks.poll()) {
                task.run(sim);
            }
            sim.tick();
        } catch (Throwable t) {
            failure = t;
            for (HostedWorld.Task<?> task = tasks.poll(); task != null; task = tasks.poll()) {
                task.fail(w + " failed handing its simulation to pool thread '" + me.getName() + "' before this call "
                        + "ran (" + t + "); use the simulation its done() future hands back");
            }
        }
        skipped = sim.skippedTicks() != skippedBefore;
        EngineInternals.hostTurn(sim, null);
        end = System.nanoTime();
    }
}
