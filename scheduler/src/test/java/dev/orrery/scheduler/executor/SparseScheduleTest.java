package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.UndeclaredAccessException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Storage;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import org.junit.jupiter.api.Test;

/** The scheduler with sparse columns: no chunk system over a sparse filter; per-row and by-id reads in jobs. */
class SparseScheduleTest {
    record Pos(float x) {
    }

    record Slowed(float factor) {
    }

    final World w = new World(1024);
    final Component<Pos> pos = w.component(Pos.class);
    final Component<Slowed> slowed = w.component(Slowed.class, Storage.SPARSE);

    @Test
    void aChunkSystemOverASparseFilterIsRefusedAtBuild() {
        Schedule.Builder b = Schedule.builder(w);
        b.system("slow").query(w.query().with(pos, slowed).build()).writes(pos).forEachChunk(job -> { });
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertTrue(e.getMessage().contains("'slow'") && e.getMessage().contains("Slowed")
                && e.getMessage().contains("optional"), e.getMessage());
    }

    @Test
    void aChunkSystemsRefusalNamesItsQueryByItsTermsNotByColumnIds() {
        long parent = w.spawn(new Pos(0));
        dev.orrery.ecs.Relation childOf = w.relations().childOf();
        java.util.Map<String, dev.orrery.ecs.Query> queries = new java.util.LinkedHashMap<>();
        queries.put("query with [Pos, Slowed]", w.query().with(pos, slowed).build());
        queries.put("query with [Pos, (ChildOf, *)] pair (ChildOf, " + dev.orrery.ecs.component.Entity.toString(parent) + ")",
                w.query().with(pos).pair(childOf, parent).build());
        for (java.util.Map.Entry<String, dev.orrery.ecs.Query> q : queries.entrySet()) {
            Schedule.Builder b = Schedule.builder(w);
            b.system("slow").query(q.getValue()).writes(pos).forEachChunk(job -> { });
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
            // Query.toString prints column ids ("Query[all=[0], ...]"), which a reader cannot map to a component.
            assertTrue(e.getMessage().contains("iterates chunks of " + q.getKey() + ", which filters by"), e.getMessage());
        }
    }

    @Test
    void jobsReadSparseValuesPerRowAndByIdAsDeclared() {
        long[] ids = w.entity().with(pos, new Pos(10)).spawnMany(300);
        for (int i = 0; i < ids.length; i += 3) {
            w.add(ids[i], slowed, new Slowed(0.5f));
        }
        Schedule schedule = Schedule.builder(w).minBatchRows(16)
                .system("move").query(w.query().with(pos).optional(slowed).build()).writes(pos).reads(slowed)
                .forEachChunk(job -> {
                    float[] x = job.chunk().writeFloats(pos.field("x"));
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        if (job.chunk().has(slowed, i)) {
                            x[i] *= job.getFloat(job.chunk().entity(i), slowed.field("factor"))
                                    + job.chunk().get(slowed, i).factor();
                        } else {
                            x[i] += 1;
                        }
                    }
                })
                .build();
        try (ScheduleExecutor executor = schedule.executor(2)) {
            executor.run();
        }
        assertEquals(new Pos(10), w.get(ids[0], pos));
        assertEquals(new Pos(11), w.get(ids[1], pos));
        Schedule undeclared = Schedule.builder(w).minBatchRows(16)
                .system("sneak").query(w.query().with(pos).optional(slowed).build()).writes(pos)
                .forEachChunk(job -> {
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        if (job.chunk().has(slowed, i)) {
                            job.chunk().get(slowed, i);
                        }
                    }
                })
                .build();
        try (ScheduleExecutor executor = undeclared.executor(2)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertInstanceOf(UndeclaredAccessException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("Slowed"), e.getCause().getMessage());
        }
    }
}
