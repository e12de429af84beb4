package dev.orrery.scheduler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The schedule's checks on relations: a system may read a relation's marker column and
 * change pairs by command, but a declared write (or deferred set) of the marker is refused at
 * build, naming the system, the relation and the commands to use.
 */
class RelationScheduleTest {
    record Val(int v) {
    }

    private final World world = new World();
    private final Component<Val> val = world.component(Val.class);
    private final Relation childOf = world.relations().childOf();

    @Test
    void shouldRefuseADeclaredWriteOfAMarkerColumnAtBuild() {
        Schedule.Builder b = Schedule.builder(world)
                .system("adopt").query(world.query().with(val, childOf.column()).build()).reads(val)
                .writes(childOf.column()).forEachChunk(job -> { });
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertTrue(e.getMessage().contains("'adopt'") && e.getMessage().contains("relation ChildOf")
                && e.getMessage().contains("addPair") && e.getMessage().contains("removePair"), e.getMessage());

        Schedule.Builder later = Schedule.builder(world)
                .system("adoptLater").query(world.query().with(val).build()).reads(val)
                .setsLater(childOf.column()).forEachChunk(job -> { });
        e = assertThrows(IllegalArgumentException.class, later::build);
        assertTrue(e.getMessage().contains("'adoptLater'") && e.getMessage().contains(".setsLater(...)"),
                e.getMessage());
    }

    @Test
    void shouldLetASystemReadTargetsAndChangePairsByCommand() {
        long p = world.spawn(new Val(0));
        long q = world.spawn(new Val(1));
        long[] kids = new long[6];
        for (int i = 0; i < kids.length; i++) {
            kids[i] = world.spawn(new Val(10 + i));
            world.relations().add(kids[i], childOf, p);
        }
        AtomicLong parentsSeen = new AtomicLong();
        Schedule schedule = Schedule.builder(world).minBatchRows(1)
                .system("move").query(world.query().with(val, childOf.column()).build()).reads(val, childOf.column())
                .adds(childOf.column()).removes(childOf.column())
                .forEachChunk(job -> {
                    long[] parent = job.chunk().readLongs(childOf.target());
                    int[] v = job.chunk().readInts(val.field("v"));
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        parentsSeen.addAndGet(parent[i] == p ? 1 : 0);
                        if (v[i] % 2 == 1) {
                            job.commands().addPair(job.chunk().entity(i), childOf, q);
                        } else if (v[i] == 12) {
                            job.commands().removePair(job.chunk().entity(i), childOf, parent[i]);
                        }
                    }
                })
                .build();
        try (ScheduleExecutor ex = schedule.executor(2)) {
            ex.run();
        }
        assertEquals(6, parentsSeen.get(), "every child read its parent from the marker column");
        assertArrayEquals(new long[] {kids[0], kids[4]}, world.relations().children(p));
        assertArrayEquals(new long[] {kids[1], kids[3], kids[5]}, world.relations().children(q), "in playback order");
        assertEquals(0, world.relations().parent(kids[2]));
    }
}
