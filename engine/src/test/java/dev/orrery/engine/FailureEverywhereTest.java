package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.ArenaWorkload.Hp;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.States;
import dev.orrery.scheduler.SystemFailedException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A tick that fails wherever the failure happens (a chunk job, a range job, an exclusive
 * system, a system of a state's on-enter phase, a run condition, a command refused at
 * playback, an observer hook at an automatic sync point inside a phase, one at the sync
 * point ending a phase, a runaway observer cascade) is absorbed by
 * {@link FailurePolicy#SKIP_TICK}, and leaves the world consistent: unlocked, with the entity
 * count the documented rules give, the same state hash on one worker and on four, and later
 * ticks running as if the failure had been an ordinary one.
 */
class FailureEverywhereTest {
    static final int TICKS = 6;
    static final long FAILING_TICK = 3;
    static final int ENTITIES = 500;

    enum Mode {
        RED, GREEN
    }

    static final ResourceKey<States<Mode>> MODE = States.key("mode", Mode.class);

    /** Where the failure happens, what {@code failure.system()} then names, and the entities a skipped tick leaves. */
    enum Where {
        CHUNK_JOB("victim", 0),
        RANGE_JOB("victim", 0),
        EXCLUSIVE_SYSTEM("victim", 0),
        ON_ENTER_PHASE("victim", 0),
        RUN_CONDITION("victim", 0),
        COMMAND_PLAYBACK("sync point ending phase Update", 0), // a spawn through another world's shape
        HOOK_BEFORE_SYSTEM("sync point before system 'victim'", 4), // the spawns were applied, then the hook threw
        HOOK_ENDING_PHASE("sync point ending phase PostUpdate", 4),
        RUNAWAY_CASCADE("sync point ending phase PostUpdate", 4 + 1000); // the first round's spawns stay

        final String system;
        /** Spawns of the failing tick that stay (applied at a sync point before the failure). */
        final int kept;

        Where(String system, int kept) {
            this.system = system;
            this.kept = kept;
        }
    }

    /** A shape another world prepared: a spawn through it is refused at playback. */
    static final dev.orrery.ecs.Shape FOREIGN_SHAPE;

    static {
        World other = new World(256);
        FOREIGN_SHAPE = other.shape(other.component(Hp.class));
    }

    /** Every tick: "spawner" (PreUpdate) spawns 4 Hp entities, and the victim fails at {@link #FAILING_TICK}. */
    static Simulation build(Where where, int workers, List<SystemFailedException> failures) {
        World world = new World(256);
        Component<Hp> hp = world.component(Hp.class);
        Field hpField = hp.field("hp");
        world.entity().with(hp, new Hp(100)).spawnMany(ENTITIES);
        world.observerCascadeLimit(1500);
        SimulationBuilder b = Simulation.builder(world).seed(9).workers(workers).hashEvery(1)
                .onSystemFailure(FailurePolicy.SKIP_TICK);
        Resources res = b.resources();
        java.util.function.BooleanSupplier failing = () -> res.get(Simulation.CLOCK).tick() == FAILING_TICK;
        dev.orrery.ecs.Shape oneHp = world.shape(hp);
        world.observe(hp).onAdd((w, e, commands) -> {
            if (!failing.getAsBoolean()) {
                return;
            }
            if (where == Where.HOOK_BEFORE_SYSTEM || where == Where.HOOK_ENDING_PHASE) {
                throw new IllegalStateException("the hook fails on " + dev.orrery.ecs.component.Entity.toString(e));
            }
            if (where == Where.RUNAWAY_CASCADE) {
                for (int k = 0; k < 250; k++) {
                    commands.spawn(oneHp);
                }
            }
        });
        Simulation sim = b.systems(s -> {
            s.resource(MODE, new States<>(Mode.class, Mode.RED));
            s.system("spawner").inPhase(where == Where.HOOK_BEFORE_SYSTEM ? Phase.UPDATE : Phase.POST_UPDATE)
                    .spawns(hp).forEachRange(() -> 4, (job, from, to) -> {
                        for (int i = from; i < to; i++) {
                            job.commands().add(job.commands().spawn(), hp, new Hp(i));
                        }
                    });
            s.system("switch").inPhase(Phase.PRE_UPDATE).writesResource(MODE).readsResource(Simulation.CLOCK)
                    .forEachRange(() -> 1, (job, from, to) -> {
                        if (job.resource(Simulation.CLOCK).tick() == FAILING_TICK - 1) {
                            job.resourceForWrite(MODE).request(Mode.GREEN); // entered at the start of the failing tick
                        }
                    });
            var victim = s.system("victim");
            switch (where) {
                case CHUNK_JOB -> victim.query(world.query().with(hp).build()).writes(hp).readsResource(Simulation.CLOCK)
                        .forEachChunk(job -> {
                    int[] v = job.chunk().writeInts(hpField);
                    v[0]--;
                    if (failing.getAsBoolean() && job.chunkOrdinal() == 2) {
                        throw new IllegalStateException("a chunk job fails");
                    }
                });
                case RANGE_JOB -> victim.readsResource(Simulation.CLOCK).forEachRange(() -> 10, (job, from, to) -> {
                    if (failing.getAsBoolean() && from <= 7 && 7 < to) {
                        throw new IllegalStateException("a range job fails");
                    }
                });
                case EXCLUSIVE_SYSTEM -> victim.inPhase(Phase.UPDATE).exclusive(w -> {
                    if (failing.getAsBoolean()) {
                        throw new IllegalStateException("an exclusive system fails");
                    }
                });
                case ON_ENTER_PHASE -> victim.onEnter(MODE, Mode.GREEN).forEachRange(() -> 1, (job, from, to) -> {
                    throw new IllegalStateException("an on-enter system fails");
                });
                case RUN_CONDITION -> victim.runIf(RunCondition.resource(Simulation.CLOCK, clock -> {
                    if (clock.tick() == FAILING_TICK) {
                        throw new IllegalStateException("a run condition fails");
                    }
                    return true;
                })).forEachRange(() -> 1, (job, from, to) -> { });
                case COMMAND_PLAYBACK -> victim.spawns(hp).readsResource(Simulation.CLOCK)
                        .forEachRange(() -> 1, (job, from, to) -> {
                            if (failing.getAsBoolean()) {
                                job.commands().spawn(FOREIGN_SHAPE); // refused when the sync point reaches it
                            }
                        });
                case HOOK_BEFORE_SYSTEM -> victim.inPhase(Phase.UPDATE).afterStructuralChanges()
                        .after("spawner").forEachRange(() -> 1, (job, from, to) -> { });
                default -> victim.inPhase(Phase.PRE_UPDATE).forEachRange(() -> 1, (job, from, to) -> { });
            }
        }).build();
        sim.failureListener((tick, failure, first) -> failures.add(failure));
        return sim;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Where.class)
    void shouldSkipTheTickAndLeaveTheWorldConsistent(Where where) {
        long[] hashes = new long[2];
        int[] workerCounts = {1, 4};
        for (int k = 0; k < workerCounts.length; k++) {
            List<SystemFailedException> failures = new ArrayList<>();
            try (Simulation sim = build(where, workerCounts[k], failures)) {
                for (int t = 0; t < TICKS; t++) {
                    sim.tick();
                    assertFalse(sim.world().isStructureLocked(), where + ": locked after tick " + t);
                }
                assertEquals(1, sim.skippedTicks(), where + " on " + workerCounts[k] + " workers: " + failures);
                assertEquals(TICKS, sim.currentTick());
                SystemFailedException f = failures.get(0);
                assertEquals(where.system, f.system(), f.getMessage());
                assertTrue(f.getMessage().contains("a simulation under FailurePolicy.SKIP_TICK skips the tick"),
                        f.getMessage());
                int expected = ENTITIES + 4 * (TICKS - 1) + where.kept;
                assertEquals(expected, sim.world().entityCount(), where + " on " + workerCounts[k] + " workers: "
                        + f.getMessage());
                hashes[k] = sim.world().stateHash();
            }
        }
        assertEquals(hashes[0], hashes[1], where + ": one worker and four left different worlds");
    }
}
