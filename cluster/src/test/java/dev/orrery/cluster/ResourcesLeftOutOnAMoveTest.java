package dev.orrery.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.cluster.world.WorldBlueprint;
import dev.orrery.ecs.World;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.ResourceKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a node says about a world's resources without a codec when the world moves to it: it
 * names those systems write or reduce into (state kept in one across ticks is lost; one rebuilt
 * every tick needs no codec), as the test kit's {@code DeterminismCheck} does, and not
 * read-only configuration, which the blueprint puts the same on every node. A real move: the
 * world's node leaves (a hand-off snapshot), and a node started on the same store reopens it.
 */
class ResourcesLeftOutOnAMoveTest {
    /** Configuration: read, never written. */
    record Settings(float drag) {
    }

    /** Rebuilt every tick. */
    static final class Grid {
        int cells;
    }

    /** Kept across ticks: lost on a move. */
    static final class Counter {
        long ticks;
    }

    static final ResourceKey<Settings> SETTINGS = ResourceKey.of("Settings", Settings.class);
    static final ResourceKey<Grid> GRID = ResourceKey.of("Grid", Grid.class);
    static final ResourceKey<Counter> COUNTER = ResourceKey.of("Counter", Counter.class);

    private static final WorldBlueprint BLUEPRINT = (worldId, populate) -> Simulation.builder(new World(1024))
            .seed(worldId.hashCode())
            .resource(SETTINGS, new Settings(0.5f)).resource(GRID, new Grid()).resource(COUNTER, new Counter())
            .systems(s -> s
                    .system("index").readsResource(SETTINGS).writesResource(GRID)
                    .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(GRID).cells = 1)
                    .system("count").after("index").writesResource(COUNTER)
                    .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(COUNTER).ticks++))
            .build();

    @Test
    void aMovedWorldsLineNamesTheResourcesSystemsWriteWithoutACodecNotItsConfiguration(@TempDir Path dir)
            throws Exception {
        WorldStore store = new DirectoryWorldStore(dir);
        NodeSettings settings = NodeSettings.local(0, List.of()).withTicks(40, 40);
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        ClusterNode first = ClusterNode.start(settings, store, BLUEPRINT, log::add);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (first.status("w-1", Duration.ofSeconds(10)).toCompletableFuture().get(30, TimeUnit.SECONDS)
                    .tick() <= 5) {
                assertTrue(System.nanoTime() < deadline, () -> "world w-1 does not tick: " + log);
                TimeUnit.MILLISECONDS.sleep(50);
            }
        } finally {
            first.close(); // leaves: the world is handed off with a snapshot
        }
        ClusterNode second = ClusterNode.start(settings, store, BLUEPRINT, log::add);
        try {
            second.status("w-1", Duration.ofSeconds(10)).toCompletableFuture().get(30, TimeUnit.SECONDS);
            String restored = log.stream().filter(l -> l.contains("world w-1 restored here")).findFirst()
                    .orElseThrow(() -> new AssertionError("no restore line: " + log));
            assertTrue(restored.contains("snapshot of tick"), restored);
            assertTrue(restored.contains("not the snapshot: Grid (written by 'index'), Counter (written by 'count') ("),
                    restored);
            assertFalse(restored.contains("Settings"), "configuration no system writes is the blueprint's on every "
                    + "node, and needs no codec: " + restored);
            assertTrue(restored.contains("one rebuilt every tick needs none"), restored);
        } finally {
            second.crash().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
