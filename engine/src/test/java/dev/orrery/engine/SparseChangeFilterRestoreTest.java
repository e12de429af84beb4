package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.scheduler.Resources;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sparse components x a change filter on a table component in the same query, across a
 * snapshot restore: an exclusive system iterating {@code with(pos, tagged).changed(pos)} row
 * by row, and a chunk system over {@code with(pos).optional(tagged).changed(pos)} asking
 * {@code has(tagged, row)}, see in the restored run's first ticks what the uninterrupted run
 * sees, as docs/reacting-to-change.md promises (systems' last runs travel in snapshots).
 */
class SparseChangeFilterRestoreTest {
    record Pos(float x) {
    }

    record Tagged(int v) {
    }

    private static final int TICKS = 12;
    private static final int SNAPSHOT_AT = 5;

    private static Simulation build(boolean populate, List<String> log) {
        World world = new World(1024); // small chunks: a write lands in one of several
        Component<Pos> pos = world.component(Pos.class);
        Component<Tagged> tagged = world.component(Tagged.class, Storage.SPARSE);
        Field x = pos.field("x");
        if (populate) {
            for (int i = 0; i < 600; i++) {
                long e = world.spawn(new Pos(i));
                if (i % 5 == 0) {
                    world.add(e, tagged, new Tagged(i));
                }
            }
        }
        Query rows = world.query().with(pos, tagged).changed(pos).build();
        Query chunks = world.query().with(pos).optional(tagged).changed(pos).build();
        SimulationBuilder b = Simulation.builder(world).seed(5);
        Resources res = b.resources();
        return b.systems(s -> s
                .system("mover").query(world.query().with(pos).build()).writes(pos)
                .readsResource(Simulation.CLOCK).forEachChunk(job -> {
                    long t = job.resource(Simulation.CLOCK).tick();
                    if (job.chunkOrdinal() == (int) (t % 3)) { // one chunk of the first three a tick
                        float[] a = job.chunk().writeFloats(x);
                        for (int i = 0; i < job.chunk().size(); i++) {
                            a[i] += 1;
                        }
                    }
                })
                .system("watch rows").after("mover").exclusive(w -> {
                    long t = res.get(Simulation.CLOCK).tick();
                    int[] n = {0};
                    rows.forEach((v, r) -> n[0]++);
                    log.add(t + " rows " + n[0]);
                })
                .system("watch chunks").after("watch rows").query(chunks).reads(pos, tagged)
                .readsResource(Simulation.CLOCK).forEachChunk(job -> {
                    ChunkView c = job.chunk();
                    int n = 0;
                    for (int i = 0; i < c.size(); i++) {
                        if (c.has(tagged, i)) {
                            n++;
                        }
                    }
                    synchronized (log) {
                        log.add(job.resource(Simulation.CLOCK).tick() + " chunk of " + c.entity(0) + " tagged " + n);
                    }
                }))
                .build();
    }

    @Test
    void shouldSeeInTheRestoredRunWhatTheUninterruptedRunSees() {
        List<String> straight = new ArrayList<>();
        byte[] snapshot;
        int atSnapshot = -1;
        try (Simulation sim = build(true, straight)) {
            for (int t = 0; t < TICKS; t++) {
                if (t == SNAPSHOT_AT) {
                    snapshot = sim.snapshot();
                    atSnapshot = straight.size();
                    List<String> restored = new ArrayList<>();
                    try (Simulation again = build(false, restored)) {
                        again.restore(snapshot);
                        for (int u = t; u < TICKS; u++) {
                            again.tick();
                        }
                    }
                    straight.add("restored:" + String.join(",", restored));
                }
                sim.tick();
            }
        }
        List<String> after = new ArrayList<>(straight.subList(atSnapshot + 1, straight.size()));
        String restored = straight.get(atSnapshot).substring("restored:".length());
        assertTrue(after.size() >= 2 * (TICKS - SNAPSHOT_AT), "the watchers saw something: " + after);
        assertEquals(String.join(",", after), restored, "the restored run's filtered iterations");
    }
}
