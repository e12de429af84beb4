package dev.orrery.cluster.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.ReplayDivergenceException;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.scheduler.Resources;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tick a world's journal notes skipped ({@code FailurePolicy.SKIP_TICK}) and the replay skips
 * too must be skipped because the same system failed, in a node's replay ({@link WorldRuntime#open})
 * and in a {@link WorldVerifier} alike: before, a replay where another system threw at that tick
 * passed (the two throwing systems only read, so every state hash agrees). A recorded system the
 * blueprint no longer has is said to be renamed.
 */
class SkippedBySameSystemReplayTest {
    private static final String WORLD = "skips-2";
    private static final int TICKS = 10;
    private static final long FAILS_AT = 5;

    record Pos(float x) {
    }

    @TempDir
    Path dir;

    /** "step" moves ten entities; systems {@code a} and {@code b} read them and {@code thrower} throws at tick 5. */
    private static WorldBlueprint game(String a, String b, String thrower) {
        return (worldId, populate) -> {
            World world = new World(1024);
            Component<Pos> pos = world.component(Pos.class);
            if (populate) {
                world.entity().with(pos, new Pos(0)).spawnMany(10);
            }
            Field px = pos.field("x");
            SimulationBuilder builder = Simulation.builder(world).seed(3).workers(1).hashEvery(1)
                    .onSystemFailure(FailurePolicy.SKIP_TICK);
            Resources res = builder.resources();
            Simulation sim = builder.systems(s -> s
                    .system("step").query(world.query().with(pos).build()).writes(pos).forEachChunk(job -> {
                        float[] x = job.chunk().writeFloats(px);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            x[i] += 1;
                        }
                    })
                    .system(a).query(world.query().with(pos).build()).reads(pos).readsResource(Simulation.CLOCK)
                    .forEachChunk(job -> fail(a, thrower, res.get(Simulation.CLOCK).tick()))
                    .system(b).query(world.query().with(pos).build()).reads(pos).readsResource(Simulation.CLOCK)
                    .forEachChunk(job -> fail(b, thrower, res.get(Simulation.CLOCK).tick()))).build();
            sim.failureListener((tick, failure, first) -> { }); // expected failures: no log line
            return sim;
        };
    }

    private static void fail(String system, String thrower, long tick) {
        if (system.equals(thrower) && tick == FAILS_AT) {
            throw new IllegalStateException(system + " fails at tick " + tick);
        }
    }

    /** Runs a world for {@code TICKS} ticks and crashes it: no snapshot, so a reopen replays from tick 0. */
    private WorldStore recordAndCrash(WorldBlueprint blueprint) throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime w = WorldRuntime.open(WORLD, store, blueprint, settings());
        for (int i = 0; i < TICKS; i++) {
            w.tick();
        }
        w.abandon();
        return store;
    }

    private static WorldSettings settings() {
        return WorldSettings.defaults().withSnapshotEvery(0).withKeepSnapshots(0);
    }

    @Test
    void aReplaySkippingTheTickBecauseAnotherSystemThrewDiverges() throws IOException {
        WorldStore store = recordAndCrash(game("fragile", "brittle", "fragile"));
        ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                () -> WorldRuntime.open(WORLD, store, game("fragile", "brittle", "brittle"), settings()));
        assertEquals(FAILS_AT, e.tick());
        String m = e.getMessage();
        assertTrue(m.startsWith("world 'skips-2': replay of tick 5 from "), m);
        assertTrue(m.contains("diverged: the recording skipped the tick because system 'fragile' threw (the journal "
                + "keeps the name of what failed, not what it threw) but the replay skipped it because system 'brittle' "
                + "threw (java.lang.IllegalStateException: brittle fails at tick 5): the game's systems throw "
                + "differently than when recorded"), m);
        assertTrue(m.contains("the blueprint differs from the one the world ran with"), m);

        WorldVerifier.Report r = WorldVerifier.verify(store, WORLD, game("fragile", "brittle", "brittle"));
        assertFalse(r.ok(), r.describe());
        assertEquals(1, r.skipMismatches(), r.describe());
        assertEquals(0, r.skipsMatched(), r.describe());
        assertEquals(0, r.hashMismatches(), "only which system threw differs: " + r.describe());
        assertTrue(r.describe().contains("first at tick 5: the recording skipped the tick because system 'fragile' "
                + "threw"), r.describe());

        WorldVerifier.Report same = WorldVerifier.verify(store, WORLD, game("fragile", "brittle", "fragile"));
        assertTrue(same.ok(), same.describe());
        assertEquals(1, same.skipsMatched(), same.describe());
    }

    @Test
    void aJournaledSystemTheBlueprintNoLongerHasIsSaidToBeRenamed() throws IOException {
        WorldStore store = recordAndCrash(game("fragile", "brittle", "fragile"));
        WorldBlueprint renamed = game("fragileRenamed", "brittle", "fragileRenamed");
        ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                () -> WorldRuntime.open(WORLD, store, renamed, settings()));
        assertEquals(FAILS_AT, e.tick());
        assertTrue(e.getMessage().contains("the replaying game has no system 'fragile' (its systems: [step, "
                + "fragileRenamed, brittle]), so it was renamed or removed since the recording, which names systems "
                + "as they were named then: give the system its journaled name again in the blueprint (on every "
                + "node)"), e.getMessage());

        WorldVerifier.Report r = WorldVerifier.verify(store, WORLD, renamed);
        assertEquals(1, r.skipMismatches(), r.describe());
        assertTrue(r.describe().contains("the replaying game has no system 'fragile'"), r.describe());
    }
}
