package dev.orrery.examples.newcomer.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.HostedWorld;
import dev.orrery.engine.host.WorldHost;
import dev.orrery.examples.newcomer.forge.ForgeAccess;
import dev.orrery.testkit.DeterminismCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Many forges (the change chapter's game: observers, change filters, removal logs, command
 * buffers) hosted as docs/many-worlds-and-the-cluster.md says: each world ends in the state
 * and with the hook calls it has alone, whatever its neighbours; a world saved through
 * {@code call(Simulation::snapshot)} and moved to another host (restored into a new
 * simulation, added there under its name) ends as it would have, its hooks firing from the
 * restore on as before; and a hosted simulation touched from another thread is refused with
 * words naming the world and the fix. No assertion depends on timing.
 */
class HostedForgesTest {
    /** A forge run alone for {@code ticks}: its hash and hook counts. */
    static String alone(long ticks) {
        ForgeAccess game = new ForgeAccess();
        try (Simulation sim = game.create(1, true)) {
            while (sim.currentTick() < ticks) sim.tick();
            return sim.world().stateHash() + " " + game.hooks();
        }
    }

    @Test
    void sixForgesOnTwoThreadsEndAsEachEndsAlone() throws Exception {
        List<HostedWorld> worlds = new ArrayList<>();
        List<ForgeAccess> games = new ArrayList<>();
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            for (int m = 0; m < 6; m++) {
                ForgeAccess game = new ForgeAccess();
                games.add(game);
                worlds.add(host.add("forge-" + m, game.create(1, true), 0, 20 + 10L * m, Duration.ofMillis(m)));
            }
            for (int m = 0; m < 6; m++) {
                Simulation done = worlds.get(m).done().get(2, TimeUnit.MINUTES);
                done.bindTickThread();
                assertEquals(HostedWorld.State.FINISHED, worlds.get(m).state());
                assertEquals(20 + 10L * m, done.currentTick());
                assertEquals(alone(20 + 10L * m), done.world().stateHash() + " " + games.get(m).hooks(),
                        "forge-" + m + " hosted beside five others");
                assertEquals(done.world().stateHash(), worlds.get(m).simulation().progress().hash());
                done.close();
            }
        }
    }

    @Test
    void aForgeSavedOnOneHostAndAddedToAnotherEndsAsItWouldHaveWithItsHooks() throws Exception {
        ForgeAccess first = new ForgeAccess();
        Object[] saved;
        try (WorldHost a = WorldHost.builder().threads(1).threadName("host-a-").build()) {
            HostedWorld w = a.add("forge", first.create(1, true), 0, 0, Duration.ZERO);
            do {
                saved = w.call(sim -> new Object[] {sim.currentTick(), sim.snapshot(), first.hooks()})
                        .get(2, TimeUnit.MINUTES);
            } while ((long) saved[0] < 25);
            Simulation back = w.remove().get(2, TimeUnit.MINUTES);
            back.bindTickThread();
            back.close();
        }
        long at = (long) saved[0];
        assertTrue(at < 80, "saved at tick " + at);
        ForgeAccess moved = new ForgeAccess();
        Simulation restored = moved.create(1, false);
        restored.restore((byte[]) saved[1]);
        assertEquals("lit=0 putOut=0 cracked=0 slagHeat=0", moved.hooks(), "the restore fired no hook");
        try (WorldHost b = WorldHost.builder().threads(2).threadName("host-b-").build()) {
            HostedWorld w = b.add("forge", restored, 0, 80 - at, Duration.ZERO);
            Simulation done = w.done().get(2, TimeUnit.MINUTES);
            done.bindTickThread();
            assertEquals(80, done.currentTick(), "80 - " + at + " ticks more");
            ForgeAccess straight = new ForgeAccess();
            try (Simulation s = straight.create(1, true)) {
                while (s.currentTick() < 80) s.tick();
                assertEquals(s.world().stateHash(), done.world().stateHash());
                assertEquals(ForgeAccess.minus(straight.hooks(), (String) saved[2]), moved.hooks(),
                        "hook calls from tick " + at + " on");
            }
            done.close();
        }
    }

    /** The blueprint of a world in a cluster, {@code (worldId, populate) -> Simulation}, builds one worker. */
    static Simulation blueprint(String worldId, boolean populate) {
        return new ForgeAccess().create(1, populate);
    }

    @Test
    void aOneWorkerBlueprintIsCheckedAsTheChapterSaysAndTheKitRefusesToCallItFourWorkers() {
        String worldId = "forge-1";
        List<String> runs = DeterminismCheck.of((workers, populate) -> blueprint(worldId, populate)).ticks(60)
                .workers(1).run();
        assertTrue(runs.size() >= 2, runs.toString());   // a straight run and a restored one at least
        Throwable e = assertThrows(Throwable.class, () -> DeterminismCheck.of(
                (workers, populate) -> blueprint(worldId, populate)).ticks(20).workers(1, 4).run());
        assertTrue(e.getMessage().contains("the run on 4 could not be checked") && e.getMessage().contains("with workers(1)"), e.getMessage());
    }

    @Test
    void aHostedForgeTouchedFromAnotherThreadIsRefusedNamingTheWorldAndTheFix() throws Exception {
        ForgeAccess game = new ForgeAccess();
        try (WorldHost host = WorldHost.builder().threads(1).build()) {
            Simulation sim = game.create(1, true);
            HostedWorld w = host.add("forge-9", sim, 0);
            for (String what : List.of("tick", "snapshot", "stop")) {
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
                    switch (what) {
                        case "tick" -> sim.tick();
                        case "snapshot" -> sim.snapshot();
                        default -> sim.stop();
                    }
                }, what);
                assertTrue(e.getMessage().contains("forge-9"), what + ": " + e.getMessage());
                assertTrue(e.getMessage().contains(what.equals("stop") ? "remove()" : "call("), what + ": " + e.getMessage());
            }
            IllegalStateException twice = assertThrows(IllegalStateException.class, () -> host.add("forge-10", sim, 0));
            assertTrue(twice.getMessage().contains("forge-9"), twice.getMessage());
            Simulation back = w.remove().get(2, TimeUnit.MINUTES);
            back.bindTickThread();
            back.close();
        }
    }
}
