package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.ArenaWorkload.Hp;
import dev.orrery.engine.internal.EngineInternals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What stopped a simulation ({@code stoppedBy}, which the explorer names when no safe point
 * comes) for each failure outside the tick's systems: it was set only for a system that failed
 * under {@code FailurePolicy.STOP}, so a hash listener, an end-of-tick hook or a run's
 * after-tick listener that threw, a replay's divergence, a recording's failed journal or an input
 * source whose {@code beginTick} threw left none, and the explorer said only "stopped". Each
 * now names the tick, what threw, whether the tick counts, what it threw and the fix, and never
 * blames a system or the failure policy; the next tick clears it.
 */
class StopCauseTest {
    @TempDir
    Path dir;

    private static Simulation build(World world, FailurePolicy policy) {
        Component<Hp> hp = world.component(Hp.class);
        world.entity().with(hp, new Hp(3)).spawnMany(4);
        return Simulation.builder(world).seed(1).workers(1).onSystemFailure(policy)
                .systems(s -> s.system("regen").query(world.query().with(hp).build()).reads(hp).forEachChunk(job -> {
                })).build();
    }

    /** The stop's cause, asserted to name no system nor the policy, and to carry {@code thrown}. */
    private static String cause(Simulation sim, String thrown) {
        String stopped = EngineInternals.stoppedBy(sim);
        assertNotNull(stopped, "the stop has a cause");
        assertFalse(stopped.contains("FailurePolicy"), "no system failed, so the policy had no say: " + stopped);
        assertFalse(stopped.contains("system '"), "no system failed: " + stopped);
        assertTrue(stopped.contains(thrown), "what it threw: " + stopped);
        return stopped;
    }

    @Test
    void aHashListenerThatThrowsIsNamedWithTheTickThatCountsAndTheFix() {
        for (FailurePolicy policy : FailurePolicy.values()) { // no system failed: the policy does not matter
            try (Simulation sim = build(new World(), policy)) {
                sim.tick();
                sim.hashListener((tick, hash, world) -> {
                    throw new IllegalStateException("the ledger is full");
                });
                IllegalStateException e = assertThrows(IllegalStateException.class, sim::tick);
                assertEquals("the ledger is full", e.getMessage(), "the listener's own exception leaves tick()");
                assertEquals(2, sim.currentTick(), "tick 1 ran its systems and counts");
                String stopped = cause(sim, "the ledger is full");
                assertTrue(stopped.startsWith("tick 1 ran its systems and counts (the next tick is 2), then the hash "
                        + "listener (Simulation.hashListener) threw"), stopped);
                assertTrue(stopped.contains("Simulation.hashListener(null)"), "the fix: " + stopped);

                sim.hashListener(null); // fixed: the next tick clears the cause
                assertEquals(2, sim.tick());
                assertNull(EngineInternals.stoppedBy(sim));
            }
        }
    }

    @Test
    void anEndOfTickHookThatThrowsIsNamed() {
        try (Simulation sim = build(new World(), FailurePolicy.STOP)) {
            sim.atEndOfTick((tick, nanos) -> {
                throw new IllegalArgumentException("no room on the chart");
            });
            assertThrows(IllegalArgumentException.class, sim::tick);
            String stopped = cause(sim, "no room on the chart");
            assertTrue(stopped.startsWith("tick 0 ran its systems and counts (the next tick is 1), then the "
                    + "end-of-tick hook (Simulation.atEndOfTick) threw"), stopped);
            assertTrue(stopped.contains("Simulation.atEndOfTick(null)"), "the fix: " + stopped);
        }
    }

    @Test
    void aRunsAfterTickListenerThatThrowsIsNamed() {
        try (Simulation sim = build(new World(), FailurePolicy.STOP)) {
            assertThrows(IllegalStateException.class, () -> sim.run(5, 0, (tick, nanos) -> {
                if (tick == 2) {
                    throw new IllegalStateException("the meter broke");
                }
            }));
            assertEquals(3, sim.currentTick());
            String stopped = cause(sim, "the meter broke");
            assertTrue(stopped.startsWith("tick 2 ran in full (the next tick is 3), then the after-tick listener "
                    + "given to Simulation.run threw"), stopped);
        }
    }

    @Test
    void aFailureListenerThatThrowsIsNamedAfterTheSkipItWasToldOf() {
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        world.entity().with(hp, new Hp(3)).spawnMany(2);
        try (Simulation sim = Simulation.builder(world).seed(1).onSystemFailure(FailurePolicy.SKIP_TICK)
                .systems(s -> s.system("sting").query(world.query().with(hp).build()).reads(hp).forEachChunk(job -> {
                    throw new IllegalStateException("stung");
                })).build()) {
            sim.failureListener((tick, failure, first) -> {
                throw new IllegalStateException("the pager is down");
            });
            assertThrows(IllegalStateException.class, sim::tick);
            String stopped = EngineInternals.stoppedBy(sim);
            assertNotNull(stopped);
            assertTrue(stopped.startsWith("tick 0 was skipped (system 'sting' threw; the tick counts, the next is 1), "
                    + "then the failure listener (Simulation.failureListener) threw"), stopped);
            assertTrue(stopped.contains("the pager is down"), stopped);
        }
    }

    @Test
    void anInputSourceWhoseBeginTickThrowsIsNamedAsATickThatDidNotRun() {
        try (Simulation sim = build(new World(), FailurePolicy.STOP)) {
            sim.tick();
            InputPipeline closed = InputPipeline.builder().build();
            sim.inputs(closed);
            closed.close();
            IllegalStateException e = assertThrows(IllegalStateException.class, sim::tick);
            assertEquals(1, sim.currentTick(), "tick 1 did not run");
            String stopped = cause(sim, e.getMessage());
            assertTrue(stopped.startsWith("tick 1 did not run: the input source's beginTick, taking the tick's inputs "
                    + "(InputPipeline) threw before any system ran"), stopped);
        }
    }

    @Test
    void aReplaysDivergenceIsNamedAsSuch() throws Exception {
        Path recording = dir.resolve("run");
        RecordedReplays.record(RecordedReplays.growing(1, true), recording, 3);
        try (Simulation changed = RecordedReplays.growing(2, false)) {
            ReplayDivergenceException e = RecordedReplays.replayDiverges(recording, changed);
            String stopped = cause(changed, "diverged at tick 0");
            assertTrue(stopped.startsWith("tick 0 ran its systems and counts (the next tick is 1), then the input "
                    + "source's recordHash, handed the state hash (JournalInputSource) threw"), stopped);
            assertTrue(stopped.contains("the replay diverged from its recording"), stopped);
            assertTrue(stopped.contains(e.getMessage()), "what it threw, in full: " + stopped);
        }
    }

    @Test
    void aRecordingWhoseJournalFailedIsNamed() {
        AtomicBoolean failing = new AtomicBoolean(true);
        InputRecorder broken = new InputRecorder() {
            @Override
            public void recordInput(long tick, int sequence, int client, int type, byte[] payload, int offset,
                    int length) {
            }

            @Override
            public void recordTickEnd(long tick, int inputCount) {
            }

            @Override
            public void recordTickHash(long tick, long stateHash) throws IOException {
                if (failing.get()) {
                    throw new IOException("the disk is full");
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        InputPipeline pipeline = InputPipeline.builder().recorder(broken).build();
        try (Simulation sim = build(new World(), FailurePolicy.STOP)) {
            sim.inputs(pipeline);
            // The journal thread fails on tick 0's hash; a later tick's beginTick or recordHash reports it.
            assertThrows(UncheckedIOException.class, () -> sim.run(0, 0));
            String stopped = cause(sim, "the disk is full");
            assertTrue(stopped.contains("the input source's"), stopped);
            assertTrue(stopped.contains("the input journal"), stopped);
        } finally {
            try {
                pipeline.close();
            } catch (UncheckedIOException expected) {
                // the journal's failure again
            }
        }
    }
}
