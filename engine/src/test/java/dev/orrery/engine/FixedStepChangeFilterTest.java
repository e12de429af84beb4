package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.RemovedEntities;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.States;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Change filters next to a fixed-timestep phase and next to a run condition that skips a
 * system for several ticks: each sub-step is a run of the phase's systems, so a
 * {@code changed} reader in the phase sees what was written since its previous sub-step
 * (earlier in the tick, or the previous tick's last), a write made once a tick before the
 * phase is seen in the tick's first sub-step only, and a reader skipped for ticks (by a run
 * condition, or an {@code onEnter} system between transitions) sees every write since its
 * last run (as Bevy's change detection does); a removal log, by contrast, keeps two schedule
 * runs, so a reader in a phase that runs every tenth tick misses older removals; and a run
 * condition on the fixed-step phase pauses its clock (no catching up). Guards of what
 * the book's "Fixed steps" and "Run conditions" sections say; they passed when written.
 */
class FixedStepChangeFilterTest {
    record Once(int v) {
    }

    record Step(int v) {
    }

    static final Phase FIXED = Phase.named("Physics");
    static final ResourceKey<FixedTimestep> STEP = ResourceKey.of("physics step", FixedTimestep.class);
    /** Sub-steps per tick, from the per-tick rate below (step of 10 units). */
    static final long[] UNITS = {10, 30, 0, 0, 10, 20};

    @Test
    void shouldSeeWritesSinceThePreviousSubStepAndOnceATickWritesInTheFirstSubStepOnly() {
        World world = new World(1024);
        Component<Once> once = world.component(Once.class);
        Component<Step> step = world.component(Step.class);
        world.spawn(new Once(0), new Step(0));
        Field ov = once.field("v");
        Field sv = step.field("v");
        List<String> log = new ArrayList<>();
        Simulation sim = Simulation.builder(world).seed(1).workers(1)
                .resource(STEP, new FixedTimestep(10, 0, 4))
                .systems(s -> s.phases(Phase.PRE_UPDATE, FIXED, Phase.UPDATE).fixedTimestep(FIXED, STEP)
                        .system("rate").inPhase(Phase.PRE_UPDATE).readsResource(Simulation.CLOCK)
                        .writesResource(STEP).forEachRange(() -> 1, (job, from, to) -> {
                            int t = (int) job.resource(Simulation.CLOCK).tick();
                            job.resourceForWrite(STEP).unitsPerRun(t < UNITS.length ? UNITS[t] : 0);
                        })
                        .system("once").inPhase(Phase.PRE_UPDATE).query(world.query().with(once).build())
                        .writes(once).forEachChunk(job -> job.chunk().writeInts(ov)[0]++)
                        .system("seeStep").inPhase(FIXED).query(world.query().changed(step).build())
                        .reads(step).readsResource(Simulation.CLOCK, STEP).forEachChunk(job -> log.add(
                                job.resource(Simulation.CLOCK).tick() + "." + job.resource(STEP).stepInRun()
                                        + " step"))
                        .system("seeOnce").inPhase(FIXED).after("seeStep").query(world.query().changed(once).build())
                        .reads(once).readsResource(Simulation.CLOCK, STEP).forEachChunk(job -> log.add(
                                job.resource(Simulation.CLOCK).tick() + "." + job.resource(STEP).stepInRun()
                                        + " once"))
                        .system("write").inPhase(FIXED).after("seeOnce").query(world.query().with(step).build())
                        .writes(step).forEachChunk(job -> job.chunk().writeInts(sv)[0]++)
                        .system("after").inPhase(Phase.UPDATE).query(world.query().changed(step).build())
                        .reads(step).readsResource(Simulation.CLOCK).forEachChunk(job -> log.add(
                                job.resource(Simulation.CLOCK).tick() + " after")))
                .build();
        for (int i = 0; i < UNITS.length; i++) {
            sim.tick();
        }
        sim.close();
        assertEquals(List.of(
                // tick 0: one sub-step; everything is new to a first run
                "0.0 step", "0.0 once", "0 after",
                // tick 1: three sub-steps; 'once' was written once, before the first
                "1.0 step", "1.0 once", "1.1 step", "1.2 step", "1 after",
                // ticks 2, 3: no sub-step; tick 4: one, which sees both of 'once's writes as one change
                "4.0 step", "4.0 once", "4 after",
                "5.0 step", "5.0 once", "5.1 step", "5 after"), log);
    }

    enum Mode { REST, FIGHT }

    static final ResourceKey<States<Mode>> MODE = States.key("changeMode", Mode.class);

    /**
     * Systems that do not run every tick keep their last run: one gated by a run condition
     * (every sixth tick) and an {@code onEnter} system (FIGHT entered at ticks 0, 5 and 10)
     * each see, when they next run, the writes made since their previous run, also those of
     * ticks they skipped, and nothing older.
     */
    @Test
    void shouldSeeEveryWriteSinceItsLastRunAfterTicksItDidNotRun() {
        World world = new World(1024);
        Component<Once> once = world.component(Once.class);
        Component<Step> step = world.component(Step.class);
        world.spawn(new Once(0));
        world.spawn(new Step(0));
        Field ov = once.field("v");
        Field sv = step.field("v");
        List<String> log = new ArrayList<>();
        RunCondition every6 = RunCondition.resource(Simulation.CLOCK, c -> c.tick() % 6 == 0).describedAs("every 6th");
        Simulation sim = Simulation.builder(world).seed(1).workers(1)
                .resource(MODE, new States<>(Mode.class, Mode.FIGHT))
                .systems(s -> s
                        // 'once' writes Once at ticks 2 and 8; 'step' writes Step at tick 6
                        .system("once").readsResource(Simulation.CLOCK).query(world.query().with(once).build())
                        .writes(once).forEachChunk(job -> {
                            long t = job.resource(Simulation.CLOCK).tick();
                            if (t == 2 || t == 8) {
                                job.chunk().writeInts(ov)[0]++;
                            }
                        })
                        .system("step").readsResource(Simulation.CLOCK).query(world.query().with(step).build())
                        .writes(step).forEachChunk(job -> {
                            if (job.resource(Simulation.CLOCK).tick() == 6) {
                                job.chunk().writeInts(sv)[0]++;
                            }
                        })
                        // FIGHT from tick 0, REST from 3, FIGHT from 5, REST from 7, FIGHT from 10
                        .system("switch").after("once", "step").readsResource(Simulation.CLOCK).writesResource(MODE)
                        .forEachRange(() -> 1, (job, from, to) -> {
                            long t = job.resource(Simulation.CLOCK).tick();
                            if (t == 2 || t == 6) {
                                job.resourceForWrite(MODE).request(Mode.REST);
                            } else if (t == 4 || t == 9) {
                                job.resourceForWrite(MODE).request(Mode.FIGHT);
                            }
                        })
                        .system("late").after("once", "step").runIf(every6)
                        .query(world.query().changed(once).build()).reads(once).readsResource(Simulation.CLOCK)
                        .forEachChunk(job -> log.add(job.resource(Simulation.CLOCK).tick() + " once"))
                        .system("late2").after("late").runIf(every6)
                        .query(world.query().changed(step).build()).reads(step).readsResource(Simulation.CLOCK)
                        .forEachChunk(job -> log.add(job.resource(Simulation.CLOCK).tick() + " step"))
                        .system("enter").onEnter(MODE, Mode.FIGHT)
                        .query(world.query().changed(once).build()).reads(once).readsResource(Simulation.CLOCK)
                        .forEachChunk(job -> log.add(job.resource(Simulation.CLOCK).tick() + " enter")))
                .build();
        for (int i = 0; i < 13; i++) {
            sim.tick();
        }
        sim.close();
        // 'late' at 6 sees tick 2's write, at 12 tick 8's; 'enter' at 5 sees tick 2's (after its
        // run at tick 0), at 10 tick 8's; 'late2' at 6 sees tick 6's ('step' ran before it), at 12 nothing
        assertEquals(List.of("0 enter", "0 once", "0 step", "5 enter", "6 once", "6 step", "10 enter", "12 once"), log);
    }

    /**
     * Removal logs, unlike change filters, keep two schedule runs: a fixed-step reader whose
     * phase runs every third tick sees every removal, one whose phase runs every tenth tick
     * misses the older ones, as the book's "Removal logs" and "Fixed steps" sections say.
     */
    @Test
    void shouldKeepRemovalsForAFixedStepReaderOnlyWithinTheLogsWindow() {
        assertEquals(List.of("2: 0 1 2", "5: 3 4 5", "8: 6 7 8", "11: 9 10 11"), removalsSeen(30, 12));
        List<String> rare = removalsSeen(100, 20);
        assertEquals(2, rare.size(), rare.toString());
        assertTrue(rare.get(1).startsWith("19:") && rare.get(1).endsWith(" 18 19")
                && rare.get(1).split(" ").length - 1 < 10, "of the ten removals since its run at tick 9 the reader at "
                + "tick 19 sees the last few only: " + rare);
    }

    /** What a fixed-step reader of Hp's removal log sees, ticking a step of {@code stepUnits} (10 a tick) {@code ticks} times. */
    private static List<String> removalsSeen(long stepUnits, int ticks) {
        World world = new World(1024);
        Component<Step> hp = world.component(Step.class);
        world.trackRemoved(hp);
        long[] ids = new long[ticks];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = world.spawn(new Step(i));
        }
        List<String> log = new ArrayList<>();
        try (Simulation sim = Simulation.builder(world).seed(1).workers(1)
                .resource(STEP, new FixedTimestep(stepUnits, 10, 4))
                .systems(s -> s.phases(Phase.PRE_UPDATE, FIXED, Phase.UPDATE).fixedTimestep(FIXED, STEP)
                        .system("remove").inPhase(Phase.PRE_UPDATE).readsResource(Simulation.CLOCK).removes(hp)
                        .forEachRange(() -> 1, (job, from, to) ->
                                job.commands().remove(ids[(int) job.resource(Simulation.CLOCK).tick()], hp))
                        .system("read").inPhase(FIXED).reads(hp).readsResource(Simulation.CLOCK)
                        .exclusive((w, job) -> {
                            RemovedEntities gone = job.removed(hp);
                            StringBuilder b = new StringBuilder(job.resource(Simulation.CLOCK).tick() + ":");
                            for (int i = 0; i < gone.count(); i++) {
                                b.append(' ').append(Entity.index(gone.entity(i)));
                            }
                            log.add(b.toString());
                        }))
                .build()) {
            for (int i = 0; i < ticks; i++) {
                sim.tick();
            }
        }
        return log;
    }

    /**
     * A run condition on the fixed-step phase itself pauses its clock: no time accumulates in a
     * tick the condition skips, so the phase does not catch up (nor drop steps) when it holds
     * again; a run condition on a system in the phase skips that system while the clock and the
     * other systems go on.
     */
    @Test
    void shouldPauseTheFixedStepClockWhileThePhasesConditionSkipsIt() {
        List<String> phaseGated = new ArrayList<>();
        assertEquals(2, fixedStepsWithACondition(true, phaseGated), "no step while the phase was skipped");
        assertEquals(List.of("5.0", "6.0"), phaseGated, "one step a tick from tick 5, no catching up");
        List<String> systemGated = new ArrayList<>();
        assertEquals(7, fixedStepsWithACondition(false, systemGated), "the clock went on while the system was skipped");
        assertEquals(List.of("5.0", "6.0"), systemGated);
    }

    /**
     * Seven ticks of a one-step-a-tick phase whose system logs its runs, with a condition "from
     * tick 5" on the phase ({@code onPhase}) or on the system; gives the clock's steps, after
     * checking that it dropped none.
     */
    private static long fixedStepsWithACondition(boolean onPhase, List<String> log) {
        RunCondition fromTick5 = RunCondition.resource(Simulation.CLOCK, c -> c.tick() >= 5).describedAs("from tick 5");
        try (Simulation sim = Simulation.builder(new World(1024)).seed(1).workers(1)
                .resource(STEP, new FixedTimestep(10, 10, 4))
                .systems(s -> {
                    s.phases(Phase.PRE_UPDATE, FIXED, Phase.UPDATE).fixedTimestep(FIXED, STEP);
                    var step = s.system("step").inPhase(FIXED).readsResource(Simulation.CLOCK, STEP);
                    if (onPhase) {
                        s.runIf(FIXED, fromTick5);
                    } else {
                        step.runIf(fromTick5);
                    }
                    step.forEachRange(() -> 1, (job, from, to) -> log.add(job.resource(Simulation.CLOCK).tick() + "."
                            + job.resource(STEP).stepInRun()));
                })
                .build()) {
            for (int i = 0; i < 7; i++) {
                sim.tick();
            }
            FixedTimestep clock = sim.resources().get(STEP);
            assertEquals(0, clock.droppedSteps(), "no time was dropped");
            return clock.steps();
        }
    }
}
