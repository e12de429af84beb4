package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Storage;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Change filters x bulk moves ({@code World.addToAll}, {@code removeFromAll}), on the block
 * path and the entity-by-entity path (a query with a sparse term): a system filtering on
 * {@code added(Extra)} sees, on its next run, every chunk that gained rows, once; and, as
 * docs/reacting-to-change.md says that every row arrival stamps its chunk as added and
 * changed, a {@code changed(Position)} filter sees those chunks too, though no one wrote
 * Position. The run after sees nothing.
 */
class BulkMoveChangeFilterTest {
    record Position(float x, float y) {}

    record Extra(int v) {}

    record Marked(int v) {}

    private static final int N = 3000; // several chunks per archetype

    @Test
    void shouldShowEveryChunkThatGainedRowsOnceAfterABulkMove() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Extra> extra = world.component(Extra.class);
        Component<Marked> marked = world.component(Marked.class, Storage.SPARSE);
        Set<Long> plain = new TreeSet<>();
        for (int i = 0; i < N; i++) {
            plain.add(world.spawn(new Position(i, i)));
        }
        Query addedExtra = world.query().added(extra).build();
        Query changedPos = world.query().changed(pos).build();
        List<List<Long>> seenAdded = new ArrayList<>();
        List<List<Long>> seenChanged = new ArrayList<>();
        Schedule schedule = Schedule.builder(world)
                .system("added extra").query(addedExtra).reads(extra)
                .forEachChunk(job -> add(seenAdded, job.chunk().entities(), job.chunk().size()))
                .system("changed pos").query(changedPos).reads(pos)
                .forEachChunk(job -> add(seenChanged, job.chunk().entities(), job.chunk().size()))
                .build();
        try (ScheduleExecutor ex = schedule.executor(1)) {
            Runnable run = () -> {
                seenAdded.add(new ArrayList<>());
                seenChanged.add(new ArrayList<>());
                ex.run();
            };
            run.run();
            run.run();
            assertSeen(Set.of(), plain, seenAdded, seenChanged, "first runs");

            assertEquals(N, world.addToAll(world.query().with(pos).build(), extra)); // block path
            run.run();
            run.run();
            assertSeen(plain, plain, seenAdded, seenChanged, "addToAll, block path");

            assertEquals(N, world.removeFromAll(world.query().with(extra).build(), extra));
            run.run();
            run.run();
            assertSeen(Set.of(), plain, seenAdded, seenChanged, "removeFromAll, block path");

            Set<Long> tagged = new TreeSet<>();
            for (int i = 0; i < N / 2; i++) {
                long e = world.spawn(new Position(i, -i));
                world.add(e, marked, new Marked(i));
                tagged.add(e);
            }
            run.run();
            run.run();
            assertSeen(Set.of(), tagged, seenAdded, seenChanged, "spawns");

            // a sparse term in the query: entity by entity
            assertEquals(N / 2, world.addToAll(world.query().with(pos, marked).build(), extra));
            run.run();
            run.run();
            assertSeen(tagged, tagged, seenAdded, seenChanged, "addToAll, entity by entity");

            assertEquals(N / 2, world.removeFromAll(world.query().with(extra, marked).build(), extra));
            run.run();
            run.run();
            assertSeen(Set.of(), tagged, seenAdded, seenChanged, "removeFromAll, entity by entity");
        }
    }

    private static void add(List<List<Long>> runs, long[] ids, int n) {
        List<Long> run = runs.get(runs.size() - 1);
        for (int i = 0; i < n; i++) {
            run.add(ids[i]);
        }
    }

    /**
     * The last two runs: the first saw every moved row once in the added(Extra) system and
     * every moved row (perhaps with others of their chunks) once in the changed(Position)
     * one; the second saw nothing.
     */
    private static void assertSeen(Set<Long> added, Set<Long> changed, List<List<Long>> seenAdded,
            List<List<Long>> seenChanged, String step) {
        List<Long> a = seenAdded.get(seenAdded.size() - 2);
        List<Long> c = seenChanged.get(seenChanged.size() - 2);
        assertEquals(added.size(), a.size(), step + ": rows added(Extra) sees (short: the list is long)");
        assertTrue(added.equals(new TreeSet<>(a)), step + ": added(Extra) sees the rows that gained Extra");
        assertEquals(a.size(), new TreeSet<>(a).size(), step + ": added(Extra) sees each row once");
        assertTrue(new TreeSet<>(c).containsAll(changed), step + ": changed(Position) sees every row that arrived ("
                + c.size() + " rows seen, " + changed.size() + " arrived)");
        assertEquals(c.size(), new TreeSet<>(c).size(), step + ": changed(Position) sees each row once");
        assertEquals(0, seenAdded.get(seenAdded.size() - 1).size(), step + ": rows the run after sees, added(Extra)");
        assertEquals(0, seenChanged.get(seenChanged.size() - 1).size(),
                step + ": rows the run after sees, changed(Position)");
    }
}
