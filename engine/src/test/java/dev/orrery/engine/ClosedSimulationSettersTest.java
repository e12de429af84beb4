package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.scheduler.JobObserver;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every setter of a closed {@link Simulation}, against the rule the class Javadoc states: a
 * setter that would start what no tick will use or end (a watchdog, an end-of-tick hook) is
 * refused with the simulation's closed message, removing one is taken, and the other setters
 * are taken, because the project calls them after a close (a recorder closed after its
 * simulation, a hook or after-tick listener running after a close made during its tick).
 */
class ClosedSimulationSettersTest {
    private static final String CLOSED = "simulation is closed; build a new one with Simulation.builder(world)";

    private static void refused(Runnable call, String what) {
        IllegalStateException e = assertThrows(IllegalStateException.class, call::run, what);
        assertEquals(CLOSED, e.getMessage(), what);
    }

    @Test
    void shouldRefuseTheSettersThatStartSomethingAndTakeTheOthersAfterClose() {
        Simulation sim = ArenaWorkload.build(3, 2, false, 1);
        ChromeTrace trace = sim.newTrace(16);
        sim.close();

        refused(() -> sim.watchdog(5, (tick, nanos, system, job) -> { }), "watchdog(5)");
        refused(() -> sim.atEndOfTick((tick, nanos) -> { }), "atEndOfTick(hook)");
        sim.watchdog(0, null); // removing: taken
        sim.atEndOfTick(null);

        InputSource source = new SimulationTest.ScriptedInputs(4);
        sim.inputs(source);
        assertSame(source, sim.inputSource(), "inputs(source) taken");
        Simulation.HashListener listener = (tick, hash, world) -> { };
        sim.hashListener(listener);
        assertSame(listener, sim.hashListenerSet(), "hashListener(listener) taken");
        sim.hashListener(null);
        assertSame(null, sim.hashListenerSet(), "hashListener(null) taken");
        sim.onSystemFailure(FailurePolicy.SKIP_TICK);
        assertEquals(FailurePolicy.SKIP_TICK, sim.failurePolicy(), "onSystemFailure taken");
        sim.failureListener((tick, failure, first) -> { });
        sim.trace(trace);
        sim.trace(null);
        sim.observeJobs((worker, system, from, to, start, end) -> { });
        sim.observeJobs(null);
        sim.tickDeadline(2);
        sim.tickDeadline(0);

        // taken, but with the usual argument checks, and the simulation stays closed
        assertThrows(NullPointerException.class, () -> sim.inputs(null));
        assertThrows(NullPointerException.class, () -> sim.failureListener(null));
        assertThrows(IllegalArgumentException.class, () -> sim.tickDeadline(-1));
        assertThrows(IllegalArgumentException.class, () -> sim.watchdog(-1, null));
        refused(sim::tick, "tick after the setters");
        assertEquals(0, sim.currentTick());
        assertEquals(0, trace.jobCount(), "a trace set on a closed simulation records nothing");
    }

    @Test
    void shouldCloseARecorderCleanlyAfterItsSimulationClosedAndHandBackWhatItTook(@TempDir Path dir)
            throws Exception {
        Simulation sim = ArenaWorkload.build(3, 2, true, 1);
        InputSource before = new SimulationTest.ScriptedInputs(8);
        sim.inputs(before);
        AtomicInteger heard = new AtomicInteger();
        Simulation.HashListener listenerBefore = (tick, hash, world) -> heard.incrementAndGet();
        sim.hashListener(listenerBefore); // non-null: the recorder hands a listener back, not a removal
        RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder());
        for (int t = 0; t < 5; t++) {
            sim.tick();
        }
        long finalHash = sim.world().stateHash();
        assertEquals(5, heard.get(), "the recorder chains the listener set before it");
        sim.close();
        rec.close(); // after the simulation: must hand back and close its files without a refusal
        assertSame(before, sim.inputSource(), "the recorder handed back the earlier input source");
        assertSame(listenerBefore, sim.hashListenerSet(), "the recorder handed back the earlier hash listener");
        rec.close(); // idempotent

        try (Simulation fresh = ArenaWorkload.build(3, 1, false, 1)) { // empty: the replay restores the start
            RunReplayer.Result r = RunReplayer.replay(dir, fresh);
            assertEquals(5, r.ticks());
            assertTrue(r.closedCleanly(), "the journal ends with its end record");
            assertEquals(finalHash, r.finalHash());
        }
    }

    @Test
    void shouldLetAnEndOfTickHookAndAnAfterTickListenerSetObserversAfterACloseDuringTheirTick() {
        // what the explorer's hook (observeJobs) and the demo's after-tick tracing (trace) do:
        // a close made during the tick must not turn their calls into a failed tick or run
        Simulation sim = ArenaWorkload.build(3, 2, true, 0);
        ChromeTrace trace = sim.newTrace(16);
        AtomicInteger afterClose = new AtomicInteger();
        sim.atEndOfTick((tick, nanos) -> {
            if (tick == 2) {
                sim.close(); // inside the tick: marks closed, the tick goes on to its end
                sim.observeJobs((worker, system, from, to, start, end) -> { });
                afterClose.incrementAndGet();
            }
        });
        sim.run(0, 0, (tick, nanos) -> {
            if (tick == 2) {
                sim.trace(trace);
                afterClose.incrementAndGet();
            }
        });
        assertEquals(2, afterClose.get(), "both calls after the close were taken");
        assertEquals(3, sim.currentTick(), "the run ended normally after the tick that closed");
        refused(sim::tick, "tick after the close");
    }

    @Test
    void shouldLeaveTheWorldsOwnerAloneWhenAClosedSimulationIsBoundToAnotherThread() throws Exception {
        // once: bindTickThread on a closed simulation still moved its world's owner thread, so a
        // newer simulation driving that world on this thread had its world refuse it
        dev.orrery.ecs.World world = new dev.orrery.ecs.World();
        Simulation old = Simulation.builder(world).build();
        old.tick();
        old.close();
        try (Simulation now = Simulation.builder(world).build()) {
            now.tick();
            Thread other = new Thread(old::bindTickThread, "late-binder");
            other.start();
            other.join();
            world.spawn(); // this thread still owns the world that `now` drives
            now.tick();
            assertEquals(2, now.currentTick());
            assertEquals(1, world.entityCount());
        }
    }
}
