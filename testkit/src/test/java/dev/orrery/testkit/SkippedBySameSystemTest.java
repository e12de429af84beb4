package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.scheduler.Resources;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A game under {@code FailurePolicy.SKIP_TICK} whose tick 3 is skipped in every run, but because
 * another system (or another exception) threw in some: the two throwing systems only read, so
 * every state hash agrees, and before, {@link DeterminismCheck}, {@link GoldenRecording} and
 * {@link CompareRecordings} all passed it. Each now names the tick and both failures.
 */
class SkippedBySameSystemTest {
    private static final long FAILS_AT = 3;

    record Pos(float x) {
    }

    /**
     * Systems "alpha" and "beta" read ten entities; at tick 3 the system {@code thrower} names
     * throws an IllegalStateException, or an IllegalArgumentException when {@code argument}.
     */
    static Simulation game(int workers, boolean populate, String thrower, boolean argument) {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        if (populate) {
            world.entity().with(pos, new Pos(1)).spawnMany(10);
        }
        SimulationBuilder b = Simulation.builder(world).seed(7).workers(workers).hashEvery(1)
                .onSystemFailure(FailurePolicy.SKIP_TICK);
        Resources res = b.resources();
        Simulation sim = b.systems(s -> s
                .system("alpha").query(world.query().with(pos).build()).reads(pos).readsResource(Simulation.CLOCK)
                .forEachChunk(job -> fail("alpha", thrower, argument, res.get(Simulation.CLOCK).tick()))
                .system("beta").query(world.query().with(pos).build()).reads(pos).readsResource(Simulation.CLOCK)
                .forEachChunk(job -> fail("beta", thrower, argument, res.get(Simulation.CLOCK).tick()))).build();
        sim.failureListener((tick, failure, first) -> { }); // expected failures: no log line
        return sim;
    }

    private static void fail(String system, String thrower, boolean argument, long tick) {
        if (system.equals(thrower) && tick == FAILS_AT) {
            throw argument ? new IllegalArgumentException(system + " refuses tick " + tick)
                    : new IllegalStateException(system + " fails at tick " + tick);
        }
    }

    /** The game whose thrower, for the factory's n-th call (from 0), {@code thrower} names. */
    private static SimulationFactory byCall(IntFunction<String> thrower) {
        AtomicInteger calls = new AtomicInteger();
        return (workers, populate) -> game(workers, populate, thrower.apply(calls.getAndIncrement()), false);
    }

    @Test
    void aRunWhereAnotherSystemThrewAtTheSkippedTickFailsTheCheck() {
        // alpha throws on one worker, beta on more: a failure that depends on the worker count
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> DeterminismCheck
                .of((workers, populate) -> game(workers, populate, workers == 1 ? "alpha" : "beta", false))
                .ticks(6).workers(1, 2).run());
        assertEquals(FAILS_AT, f.tick(), f.getMessage());
        assertEquals("beta", f.system(), f.getMessage());
        assertTrue(f.getMessage().contains("differs from the reference (1 worker) at tick 3: the reference skipped the "
                + "tick because system 'alpha' threw (java.lang.IllegalStateException: alpha fails at tick 3) but this "
                + "run skipped it because system 'beta' threw (java.lang.IllegalStateException: beta fails at tick 3)"),
                f.getMessage());
        assertTrue(f.getMessage().contains("the game's systems throw differently from run to run"), f.getMessage());
    }

    @Test
    void aRunWhereTheSameSystemThrewAnotherExceptionFailsTheCheck() {
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> DeterminismCheck
                .of((workers, populate) -> game(workers, populate, "alpha", workers > 1))
                .ticks(6).workers(1, 2).run());
        assertEquals(FAILS_AT, f.tick(), f.getMessage());
        assertTrue(f.getMessage().contains("but this run skipped it because system 'alpha' threw "
                + "(java.lang.IllegalArgumentException: alpha refuses tick 3)"), f.getMessage());
    }

    @Test
    void theRecordedRunAndItsReplaysAreCheckedForTheSystemThatThrew() {
        // calls: 0 the reference, 1 the run with its settings, 2 the recording, 3 and on the replays
        DeterminismFailure recorded = assertThrows(DeterminismFailure.class, () -> DeterminismCheck
                .of(byCall(n -> n == 2 ? "beta" : "alpha")).ticks(6).workers(1).reverseJobOrder(false)
                .flipSystemOrder(false).snapshotAt(0).run());
        assertEquals(FAILS_AT, recorded.tick(), recorded.getMessage());
        assertTrue(recorded.getMessage().contains("recorded on 1 worker differs from the reference (1 worker) at tick "
                + "3: the reference skipped the tick because system 'alpha' threw (java.lang.IllegalStateException: "
                + "alpha fails at tick 3) but the recorded run skipped it because system 'beta' threw (its journal "
                + "keeps the name only)"), recorded.getMessage());

        DeterminismFailure replayed = assertThrows(DeterminismFailure.class, () -> DeterminismCheck
                .of(byCall(n -> n == 3 ? "beta" : "alpha")).ticks(6).workers(1).reverseJobOrder(false)
                .flipSystemOrder(false).snapshotAt(0).run());
        assertEquals(FAILS_AT, replayed.tick(), replayed.getMessage());
        assertTrue(replayed.getMessage().contains("the recording replayed on 1 worker differs from the recording at "
                + "tick 3: "), replayed.getMessage());
        assertTrue(replayed.getMessage().contains("the recording skipped the tick because system 'alpha' threw (the "
                + "journal keeps the name of what failed, not what it threw) but the replay skipped it because system "
                + "'beta' threw (java.lang.IllegalStateException: beta fails at tick 3)"), replayed.getMessage());
    }

    @Test
    void aGoldenRecordingReplayedWhereAnotherSystemThrowsFails(@TempDir Path dir) {
        GoldenRecording.record((w, p) -> game(w, p, "alpha", false), InputScript.NONE, 6, dir);
        GoldenRecording.assertReplays(dir, (w, p) -> game(w, p, "alpha", false));
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> GoldenRecording.assertReplays(dir, (w, p) -> game(w, p, "beta", false)));
        assertEquals(FAILS_AT, f.tick(), f.getMessage());
        assertTrue(f.getMessage().contains("replays differently from tick 3: "), f.getMessage());
        assertTrue(f.getMessage().contains("the recording skipped the tick because system 'alpha' threw (the journal "
                + "keeps the name of what failed, not what it threw) but the replay skipped it because system 'beta' "
                + "threw (java.lang.IllegalStateException: beta fails at tick 3): the game's systems throw differently "
                + "than when recorded"), f.getMessage());
    }

    @Test
    void twoRecordingsSkippingATickForDifferentSystemsDiffer(@TempDir Path dir) {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        Path c = dir.resolve("c");
        GoldenRecording.record((w, p) -> game(w, p, "alpha", false), InputScript.NONE, 6, a);
        GoldenRecording.record((w, p) -> game(w, p, "beta", false), InputScript.NONE, 6, b);
        GoldenRecording.record((w, p) -> game(w, p, "alpha", false), InputScript.NONE, 6, c);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int status = CompareRecordings.run(new String[] {a.toString(), b.toString()}, print, print);
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, text);
        assertTrue(text.contains("skips: first differ at tick 3 (a: skipped it, system 'alpha' threw; b: skipped it, "
                + "system 'beta' threw)"), text);
        assertTrue(text.contains("state: the same hash on every tick both hold (6 hashed ticks)"), text);
        assertTrue(text.contains("cause: the same inputs skipped ticks for different systems"), text);

        out.reset();
        assertEquals(0, CompareRecordings.run(new String[] {a.toString(), c.toString()}, print, print),
                out.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("skips: the same systems skipped the same ticks "
                + "(1 skipped)"), out.toString(StandardCharsets.UTF_8));
    }

    /**
     * One recording skipped a tick the other ran, the states agreeing (the thrower only reads):
     * the cause line said "skipped ticks for different systems", which names a case this is not.
     */
    @Test
    void aTickOneRecordingSkippedAndTheOtherRanIsNamedSo(@TempDir Path dir) {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        GoldenRecording.record((w, p) -> game(w, p, "alpha", false), InputScript.NONE, 6, a);
        GoldenRecording.record((w, p) -> game(w, p, "nobody", false), InputScript.NONE, 6, b);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int status = CompareRecordings.run(new String[] {a.toString(), b.toString()}, print, print);
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, text);
        assertTrue(text.contains("skips: first differ at tick 3 (a: skipped it, system 'alpha' threw; b: ran the "
                + "tick)"), text);
        assertTrue(text.contains("state: the same hash on every tick both hold (6 hashed ticks)"), text);
        assertTrue(text.contains("cause: with the same inputs, one recording skipped tick 3 and the other ran it"),
                text);
        assertTrue(!text.contains("for different systems"), text);
    }
}
