package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.UndeclaredCommandException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.graph.SystemGraph;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Declared structural effects place sync points automatically: a system that could see an
 * earlier system's declared spawns, adds, removes, deferred sets or despawns in the same phase
 * runs after them, as the one-by-one run would; a system that could not keeps running beside
 * it; an undeclared command is refused naming system and component.
 */
class AutoSyncPointTest {
    record Pos(float x) {
    }

    record Vel(float v) {
    }

    record Hp(int hp) {
    }

    record Other(int n) {
    }

    private static final int ENTITIES = 3000;
    private static final int TICKS = 12;

    /** The particle loop: damage, reap the dead, count the living, respawn, an unrelated system, move. */
    static final class Loop {
        final World world = new World(256);
        final Component<Pos> pos = world.component(Pos.class);
        final Component<Vel> vel = world.component(Vel.class);
        final Component<Hp> hp = world.component(Hp.class);
        final Component<Other> other = world.component(Other.class);
        final AtomicLong counted = new AtomicLong();
        final Schedule schedule;

        /** {@code alone}: every system in its own phase, so each runs alone and its commands are applied after it. */
        Loop(boolean alone) {
            for (int i = 0; i < ENTITIES; i++) {
                world.spawn(new Pos(0), new Vel(1 + i % 3), new Hp(i % 50 + 1));
            }
            for (int i = 0; i < 500; i++) {
                world.spawn(new Other(i));
            }
            Field hpv = hp.field("hp");
            Field px = pos.field("x");
            Field vv = vel.field("v");
            Field on = other.field("n");
            String[] names = {"damage", "reaper", "counter", "spawner", "unrelated", "mover"};
            Phase[] phases = new Phase[names.length];
            for (int i = 0; i < names.length; i++) {
                phases[i] = alone ? Phase.named("P" + i) : Phase.UPDATE;
            }
            Schedule.Builder b = Schedule.builder(world).minBatchRows(64);
            if (alone) {
                b.phases(phases);
            }
            schedule = b
                    .system("damage").inPhase(phases[0]).query(world.query().with(hp).build()).writes(hp)
                    .forEachChunk(job -> {
                        int[] h = job.chunk().writeInts(hpv);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            h[i] -= 10;
                        }
                    })
                    .system("reaper").inPhase(phases[1]).query(world.query().with(hp).build()).reads(hp).despawns()
                    .forEachChunk(job -> {
                        int[] h = job.chunk().readInts(hpv);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            if (h[i] <= 0) {
                                job.commands().despawn(job.chunk().entity(i));
                            }
                        }
                    })
                    .system("counter").inPhase(phases[2]).query(world.query().with(hp).build()).reads(hp)
                    .forEachChunk(job -> counted.addAndGet(job.chunk().size()))
                    .system("spawner").inPhase(phases[3]).query(world.query().with(hp).build()).reads(hp)
                    .spawns(pos, vel, hp)
                    .forEachChunk(job -> {
                        for (int k = 0; k < 3; k++) {
                            long e = job.commands().spawn();
                            job.commands().add(e, pos, new Pos(0));
                            job.commands().add(e, vel, new Vel(1));
                            job.commands().add(e, hp, new Hp(15 + job.chunkOrdinal() + k));
                        }
                    })
                    .system("unrelated").inPhase(phases[4]).query(world.query().with(other).build()).writes(other)
                    .forEachChunk(job -> {
                        int[] o = job.chunk().writeInts(on);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            o[i]++;
                        }
                    })
                    .system("mover").inPhase(phases[5]).query(world.query().with(pos, vel).build()).reads(vel)
                    .writes(pos)
                    .forEachChunk(job -> {
                        float[] x = job.chunk().writeFloats(px);
                        float[] v = job.chunk().readFloats(vv);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            x[i] += v[i];
                        }
                    })
                    .build();
        }

        /** Runs {@link #TICKS} ticks; returns per tick the counter's count and then the state hash. */
        long[][] run(int workers) {
            long[][] out = new long[2][TICKS];
            try (ScheduleExecutor ex = schedule.executor(workers)) {
                for (int t = 0; t < TICKS; t++) {
                    counted.set(0);
                    ex.run();
                    out[0][t] = counted.get();
                    out[1][t] = world.stateHash();
                }
            }
            return out;
        }

        long livingWithHp() {
            return world.query().with(hp).build().count();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldMatchTheRunWhereEverySystemRunsAloneFollowedByItsCommands(int workers) {
        long[][] reference = new Loop(true).run(1);
        long[][] run = new Loop(false).run(workers);
        assertArrayEquals(reference[0], run[0], "counter's counts per tick");
        assertArrayEquals(reference[1], run[1], "state hash per tick");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldLetACounterAfterAReaperCountTheWorldAfterItsDespawns(int workers) {
        Loop loop = new Loop(false);
        long[][] run = loop.run(workers);
        // tick 0: hp i % 50 + 1 minus 10 leaves 40 of every 50 alive; the reaper's despawns are
        // applied before 'counter' runs, so it counts exactly those (without the sync point: all 3000)
        assertEquals(ENTITIES * 40 / 50, run[0][0], "counter must see the world after the reaper's despawns");
        assertTrue(SchedulerInternals.graph(loop.schedule).autoSyncBefore(SchedulerInternals.graph(loop.schedule).positionOf("counter")));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldLetAMoverAfterASpawnerMoveTheSpawnedEntities(int workers) {
        Loop loop = new Loop(false);
        try (ScheduleExecutor ex = loop.schedule.executor(workers)) {
            ex.run();
        }
        Field px = loop.pos.field("x");
        AtomicLong unmoved = new AtomicLong();
        loop.world.query().with(loop.pos).build().forEachChunk(c -> {
            float[] x = c.readFloats(px);
            for (int i = 0; i < c.size(); i++) {
                if (x[i] == 0f) {
                    unmoved.incrementAndGet();
                }
            }
        });
        assertTrue(loop.livingWithHp() > ENTITIES * 40 / 50, "the spawner spawned");
        assertEquals(0, unmoved.get(), "every entity, the ones spawned this tick included, was moved once");
    }

    @Test
    void shouldKeepASystemOverUnrelatedComponentsBesideTheSpawner() {
        SystemGraph g = SchedulerInternals.graph(new Loop(false).schedule);
        int spawner = g.positionOf("spawner");
        int unrelated = g.positionOf("unrelated");
        assertFalse(g.syncBefore(unrelated), g.toText());
        assertFalse(g.syncBefore(spawner), "the counter's sync point applied the reaper's despawns; nothing is "
                + "pending before the spawner\n" + g.toText());
        for (SystemGraph.Edge e : g.edges()) {
            assertFalse(e.from() == spawner && e.to() == unrelated, "no edge: they may run at once\n" + g.toText());
        }
    }

    @Test
    void shouldShowTheAutoSyncPointAndItsReasonInTextAndDot() {
        Schedule s = new Loop(false).schedule;
        String text = s.toString();
        assertTrue(text.contains("-- auto sync point: command buffers applied ('reaper' despawns entities that "
                + "'counter' could visit) --\n  2. counter"), text);
        assertTrue(text.contains("-- auto sync point: command buffers applied ('spawner' spawns with Pos, which "
                + "'mover' queries or accesses) --"), text);
        assertTrue(text.contains("after spawner (auto sync)"), text);
        String dot = s.toDot();
        assertTrue(dot.contains("\"mover\" [xlabel=\"auto sync before: 'spawner' spawns with Pos, which 'mover' "
                + "queries or accesses\", peripheries=2, style=dashed]"), dot);
        assertFalse(dot.contains("sync before\", peripheries=2]"), "no explicit sync point declared\n" + dot);
        assertEquals("'spawner' spawns with Pos, which 'mover' queries or accesses",
                SchedulerInternals.graph(s).syncReason(SchedulerInternals.graph(s).positionOf("mover")));
    }

    @Test
    void shouldPlaceNoAutoSyncPointBeforeASystemDeclaredBeforeStructuralChanges() {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        Component<Hp> hp = world.component(Hp.class);
        world.spawn(new Hp(1));
        AtomicLong seen = new AtomicLong();
        Schedule s = Schedule.builder(world)
                .system("spawner").query(world.query().with(hp).build()).reads(hp).spawns(pos)
                .forEachChunk(job -> job.commands().add(job.commands().spawn(), pos, new Pos(1)))
                .system("late").query(world.query().with(pos).build()).reads(pos).beforeStructuralChanges()
                .forEachChunk(job -> seen.addAndGet(job.chunk().size()))
                .system("sees").query(world.query().with(pos).build()).reads(pos)
                .forEachChunk(job -> seen.addAndGet(100 * job.chunk().size()))
                .build();
        try (ScheduleExecutor ex = s.executor(2)) {
            ex.run();
        }
        assertEquals(100, seen.get(), "'late' saw nothing yet, 'sees' (still pending for it) saw the spawn");
        assertFalse(SchedulerInternals.graph(s).syncBefore(SchedulerInternals.graph(s).positionOf("late")));
        assertTrue(SchedulerInternals.graph(s).autoSyncBefore(SchedulerInternals.graph(s).positionOf("sees")));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shouldRefuseAnUndeclaredAddNamingSystemAndComponent(int workers) {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        Component<Hp> hp = world.component(Hp.class);
        long e = world.spawn(new Hp(1));
        Schedule s = Schedule.builder(world)
                .system("healer").query(world.query().with(hp).build()).reads(hp).adds(hp)
                .forEachChunk(job -> job.commands().add(job.chunk().entity(0), pos, new Pos(1)))
                .build();
        try (ScheduleExecutor ex = s.executor(workers)) {
            SystemFailedException f = assertThrows(SystemFailedException.class, ex::run);
            UndeclaredCommandException u = assertInstanceOf(UndeclaredCommandException.class, f.getCause());
            assertTrue(u.getMessage().contains("'healer'") && u.getMessage().contains("Pos")
                    && u.getMessage().contains(".adds(Pos)"), u.getMessage());
        }
        assertFalse(world.has(e, pos), "the refused add was never recorded");
    }

    @Test
    void shouldRefuseAnyCommandFromASystemThatDeclaredNone() {
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        world.spawn(new Hp(1));
        Schedule s = Schedule.builder(world)
                .system("silent").query(world.query().with(hp).build()).reads(hp)
                .forEachChunk(job -> job.commands().despawn(job.chunk().entity(0)))
                .build();
        try (ScheduleExecutor ex = s.executor(1)) {
            SystemFailedException f = assertThrows(SystemFailedException.class, ex::run);
            assertTrue(f.getCause().getMessage().contains("system 'silent' recorded a despawn")
                    && f.getCause().getMessage().contains(".despawns()"), f.getCause().getMessage());
        }
        assertEquals(1, world.query().with(hp).build().count(), "nothing was despawned");
    }

    @Test
    void shouldRefuseAnUndeclaredSpawnFromARangeSystemNamingIt() {
        World world = new World();
        Schedule s = Schedule.builder(world)
                .system("respawn").minBatchRows(1).forEachRange(() -> 4, (job, from, to) -> job.commands().spawn())
                .build();
        try (ScheduleExecutor ex = s.executor(2)) {
            SystemFailedException f = assertThrows(SystemFailedException.class, ex::run);
            assertTrue(f.getCause().getMessage().contains("system 'respawn' recorded a spawn")
                    && f.getCause().getMessage().contains(".spawns(components...)"), f.getCause().getMessage());
        }
    }

    @Test
    void shouldNotLetOneSystemsDeclarationCarryOverToTheNext() {
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        world.spawn(new Hp(1));
        // 'first' may spawn; 'second' runs on the same worker right after and may not
        Schedule s = Schedule.builder(world)
                .system("first").query(world.query().with(hp).build()).reads(hp).spawns()
                .forEachChunk(job -> job.commands().spawn())
                .system("second").query(world.query().with(hp).build()).reads(hp)
                .forEachChunk(job -> job.commands().spawn())
                .build();
        try (ScheduleExecutor ex = s.executor(1)) {
            SystemFailedException f = assertThrows(SystemFailedException.class, ex::run);
            assertEquals("second", f.system());
        }
    }

    @Test
    void shouldRefuseEffectsOnAnExclusiveSystemAndContradictorySyncDeclarations() {
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        Schedule.Builder b = Schedule.builder(world);
        IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> b.system("boss").spawns(hp).exclusive(w -> { }));
        assertTrue(ex.getMessage().contains("'boss'") && ex.getMessage().contains("drop those declarations"),
                ex.getMessage());
        Schedule.Builder b2 = Schedule.builder(world);
        b2.system("both").query(world.query().with(hp).build()).reads(hp).afterStructuralChanges()
                .beforeStructuralChanges().forEachChunk(job -> { });
        IllegalStateException both = assertThrows(IllegalStateException.class, b2::build);
        assertTrue(both.getMessage().contains("'both'") && both.getMessage().contains("beforeStructuralChanges()"),
                both.getMessage());
    }
}
