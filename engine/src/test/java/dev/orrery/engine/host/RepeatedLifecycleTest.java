package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Storage;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.ecs.prototype.PrototypeIndex;
import dev.orrery.ecs.storage.EntityTable;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.journal.JournalReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a long-running server repeats leaves nothing behind: simulations built, ticked and
 * closed (two workers, a watchdog, JFR job events, a recording each); recorders started and
 * closed on one simulation; recordings replayed and their journals and snapshots read; worlds
 * added to and taken off one host; and a world churned through millions of spawns with tags,
 * sparse columns, named instances, reference columns, templates and relation pairs. Each test
 * runs the cycle many times after a warm-up and checks the resource against the baseline the
 * warm-up left: no thread of the engine left over, open files back to the baseline (within a
 * small constant), internal tables bounded by the live population, not by the churn.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RepeatedLifecycleTest {
    /** Open files a cycle may leave above the baseline in all (the JVM opens a jar or a socket now and then). */
    private static final int FD_SLACK = 4;

    @TempDir
    Path dir;

    @Test
    void shouldLeaveNoThreadOrOpenFileAfterManySimulationsBuiltRecordedAndClosed() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "counts open files through /proc");
        recordedRun(dir.resolve("warm-up"));
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        int fds = openFiles();
        for (int i = 0; i < 60; i++) {
            recordedRun(dir.resolve("run-" + i));
        }
        assertNoEngineThreadLeft(before);
        assertTrue(openFiles() <= fds + FD_SLACK, "open files grew from " + fds + " to " + openFiles()
                + " over 60 recorded simulations");
    }

    @Test
    void shouldLeaveNoThreadOrOpenFileAfterManyRecordersOnOneSimulationAndTheirReplays() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "counts open files through /proc");
        try (Simulation sim = HostWorkload.builder(5, 200, 2, null).build()) {
            record(sim, dir.resolve("warm-up"));
            replayAndRead(dir.resolve("warm-up"));
            Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
            int fds = openFiles();
            for (int i = 0; i < 60; i++) {
                Path run = dir.resolve("run-" + i);
                record(sim, run);
                replayAndRead(run);
            }
            assertNoEngineThreadLeft(before);
            assertTrue(openFiles() <= fds + FD_SLACK, "open files grew from " + fds + " to " + openFiles()
                    + " over 60 recordings of one simulation, each replayed and read");
        }
    }

    @Test
    void shouldForgetEveryWorldThatLeftAHostAndStopItsThreadsOnClose() {
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        try (WorldHost host = WorldHost.builder().threads(2).threadName("orrery-leak-host").build()) {
            for (int wave = 0; wave < 30; wave++) {
                List<HostedWorld> worlds = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    // half finish after 2 ticks, half are taken off while they run flat out
                    worlds.add(i % 2 == 0 ? host.add("w" + wave + "-" + i, HostWorkload.build(wave, 30), 0, 2, Duration.ZERO)
                            : host.add("w" + wave + "-" + i, HostWorkload.build(wave, 30), 0));
                }
                for (int i = 0; i < worlds.size(); i++) {
                    HostedWorld w = worlds.get(i);
                    Simulation back = (i % 2 == 0 ? w.done() : w.remove()).join();
                    back.bindTickThread();
                    back.close();
                }
                assertEquals(List.of(), host.worlds(), "wave " + wave + ": the host still lists worlds that left");
            }
            assertEquals(Set.of("orrery-leak-host-0", "orrery-leak-host-1"), engineThreadsSince(before),
                    "300 worlds came and went: only the pool is left");
        }
        assertNoEngineThreadLeft(before);
    }

    record Pos(float x, float y) {
    }

    record Hp(int hp) {
    }

    record Stunned() {
    }

    record Burning(float dps) {
    }

    @Test
    void shouldKeepAChurnedWorldsTablesBoundedByItsLivePopulation() {
        int live = 1000;
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        Component<Pos> aim = world.component(Pos.class, "aim"); // a second, named instance of Pos
        Component<Hp> hp = world.component(Hp.class);
        Component<Stunned> stunned = world.component(Stunned.class);
        Component<Burning> burning = world.component(Burning.class, Storage.SPARSE);
        Component<String> label = world.referenceComponent(String.class, "Label");
        world.trackRemoved(hp);
        world.trackRowChanges(pos);
        long[] hooked = new long[1];
        world.observe(hp).onAdd((w, e, cmd) -> hooked[0]++).onRemove((w, e, cmd) -> hooked[0]++);
        Relation childOf = world.relations().childOf();
        Relation likes = world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        Template unit = Template.named("unit").with(pos, new Pos(1, 2)).with(hp, new Hp(3)).build();
        long[] ids = new long[live];
        long[] removalsSeen = new long[1];
        try (Simulation sim = Simulation.builder(world).workers(2).seed(9).systems(s -> s
                .system("spawn").exclusive(w -> {
                    for (int i = 0; i < live; i++) {
                        long e = w.spawn(unit);
                        ids[i] = e;
                        w.add(e, stunned);
                        if (i % 2 == 0) {
                            w.add(e, burning, new Burning(i));
                        }
                        if (i % 3 == 0) {
                            w.add(e, aim, new Pos(i, i));
                            w.remove(e, stunned);
                        }
                        if (i % 5 == 0) {
                            w.add(e, label, "unit " + i);
                        }
                        if (i > 0) {
                            w.relations().add(e, childOf, ids[i / 2]);
                        }
                        if (i > 1) {
                            w.relations().add(e, likes, ids[i - 1]);
                        }
                    }
                })
                .system("despawn").query(world.query().with(hp).build()).reads(hp).despawns().forEachChunk(job -> {
                    removalsSeen[0] += job.removed(hp).count();
                    for (int i = 0; i < job.chunk().size(); i++) {
                        job.commands().despawn(job.chunk().entity(i));
                    }
                })).build()) {
            for (int t = 0; t < 5; t++) {
                sim.tick();
            }
            EntityTable entities = EcsInternals.storage(world).entityTable();
            PrototypeIndex prototypes = EcsInternals.storage(world).namedInstances().index();
            int indices = entities.highWater();
            int archetypes = EcsInternals.storage(world).archetypes().count();
            for (int t = 0; t < 400; t++) { // 400 000 entities spawned, given pairs and columns, and despawned
                sim.tick();
            }
            assertEquals(0, world.entityCount());
            assertTrue(removalsSeen[0] > 0 && hooked[0] >= 2L * 405 * live, "the churn ran: " + removalsSeen[0]
                    + " removals read, " + hooked[0] + " hooks fired");
            assertEquals(indices, entities.highWater(), "entity indices are reused: the location table, and the "
                    + "sparse sets and prototype array indexed by it, stay at the live population's size");
            assertEquals(archetypes, EcsInternals.storage(world).archetypes().count(), "no archetype per entity or pair");
            assertEquals(0, world.relations().pairCount(childOf));
            assertEquals(0, world.relations().pairCount(likes));
            prototypes.reclaimUnused();
            assertEquals(1, prototypes.prototypeCount(), "only the empty prototype is left once every entity went");
            int logged = EcsInternals.removed(world, hp).since(0).count();
            // a run's removals stay for two more runs: a few ticks' worth, not the 400 000 of the churn
            assertTrue(logged <= 4 * live, "the removal log keeps the last runs' removals only, not the churn's: "
                    + logged + " entries");
        }
    }

    private static void recordedRun(Path run) throws IOException {
        try (Simulation sim = HostWorkload.builder(3, 200, 2, null).jfrJobEvents(true)
                .watchdog(1000, (tick, elapsed, system, job) -> { }).build()) {
            record(sim, run);
        }
    }

    private static void record(Simulation sim, Path run) throws IOException {
        try (RunRecorder recorder = RunRecorder.start(sim, run, InputPipeline.builder())) {
            for (int t = 0; t < 3; t++) {
                sim.tick();
            }
        }
    }

    private static void replayAndRead(Path run) throws IOException {
        try (Simulation fresh = HostWorkload.restoreTarget(5, 200)) {
            assertEquals(3, RunReplayer.replay(run, fresh).ticks());
        }
        try (JournalReader journal = JournalReader.open(run.resolve(RunRecorder.JOURNAL))) {
            int records = 0;
            while (journal.nextRecord()) {
                records++;
            }
            assertTrue(records > 0, "the journal holds the ticks");
        }
        assertTrue(RunReplayer.startSnapshot(run).length > 0);
    }

    /** Waits (up to 30 s: threads end a little after close returns on a loaded machine) for the engine's new threads to end. */
    private static void assertNoEngineThreadLeft(Set<Thread> before) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Set<String> left = engineThreadsSince(before);
        while (!left.isEmpty() && System.nanoTime() - until < 0) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            left = engineThreadsSince(before);
        }
        assertEquals(Set.of(), left, "threads of the engine still alive after every cycle closed");
    }

    private static Set<String> engineThreadsSince(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !before.contains(t) && t.getName().startsWith("orrery"))
                .map(Thread::getName).collect(Collectors.toSet());
    }

    private static int openFiles() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return (int) fds.count();
        }
    }
}
