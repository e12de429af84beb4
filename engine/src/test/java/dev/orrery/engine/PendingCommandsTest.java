package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.internal.EngineInternals;
import dev.orrery.engine.internal.PendingCommands;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.RangeSystem;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.executor.SystemHook;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Whose commands the sync points of a schedule may apply, followed system by system as the test
 * kit follows a run: at the end of a phase, between two steps of a fixed-step phase, past a
 * phase that ran no step, before a system declared afterStructuralChanges() and before an
 * exclusive system, and at the end of the tick.
 */
class PendingCommandsTest {
    record Seed(int n) {
    }

    static final Phase FIXED = Phase.named("Physics");
    static final ResourceKey<FixedTimestep> STEP = ResourceKey.of("physics step", FixedTimestep.class);

    private static Simulation build() {
        World world = new World(1024);
        Component<Seed> seed = world.component(Seed.class);
        RangeSystem spawn = (job, f, t) -> job.commands().add(job.commands().spawn(), seed, new Seed(1));
        RangeSystem nothing = (job, f, t) -> { };
        return Simulation.builder(world).seed(3).resource(STEP, new FixedTimestep(1, 2, 4))
                .systems(s -> {
                    s.phases(Phase.PRE_UPDATE, FIXED, Phase.UPDATE).fixedTimestep(FIXED, STEP);
                    s.system("plant").inPhase(Phase.PRE_UPDATE).spawns(seed).forEachRange(() -> 1, spawn);
                    s.system("move").inPhase(FIXED).forEachRange(() -> 1, nothing);
                    s.system("sprout").inPhase(FIXED).spawns(seed).forEachRange(() -> 1, spawn);
                    s.system("look").forEachRange(() -> 1, nothing);
                    s.system("weed").after("look").spawns(seed).forEachRange(() -> 1, spawn);
                    s.system("count").after("weed").afterStructuralChanges().forEachRange(() -> 1, nothing);
                    s.system("sow").after("count").spawns(seed).forEachRange(() -> 1, spawn);
                    s.system("census").after("sow").exclusive(w -> { });
                    s.system("reap").after("census").spawns(seed).forEachRange(() -> 1, spawn);
                })
                .build();
    }

    @Test
    void shouldNameTheCommandsEachSyncPointOfATickMayApply() {
        try (Simulation sim = build()) {
            List<String> names = sim.schedule().systemNames();
            PendingCommands pending = EngineInternals.pendingCommands(sim);
            String[] ran = {"plant", "move", "sprout", "move", "sprout", "look", "weed", "count", "sow", "census", "reap"};
            List<List<String>> want = List.of(List.of(), List.of("plant"), List.of(), List.of("sprout"), List.of(),
                    List.of("sprout"), List.of(), List.of("weed"), List.of(), List.of("sow"), List.of());
            for (int i = 0; i < ran.length; i++) {
                assertEquals(want.get(i), pending.before(names.indexOf(ran[i])), "before " + ran[i] + " (#" + i + ")");
            }
            assertEquals(List.of("reap"), pending.atEnd(), "at the end of the tick");
            // the next tick: its first system comes after the end of the tick's sync point; the fixed phase runs no step
            assertEquals(List.of("reap"), pending.before(names.indexOf("plant")));
            assertEquals(List.of("plant"), pending.before(names.indexOf("look")), "past the phase that ran no step");
        }
    }

    /** Every system that may record commands records some: each sync point the run passes applies them. */
    @Test
    void shouldAgreeWithTheSyncPointsARunPassesThrough() {
        try (Simulation sim = build()) {
            List<String> names = sim.schedule().systemNames();
            PendingCommands pending = EngineInternals.pendingCommands(sim);
            List<String> actual = new ArrayList<>(); // each system's point, and the end: the sync points just before it
            List<String> model = new ArrayList<>();
            List<String> applied = new ArrayList<>();
            EngineInternals.afterEachSystem(sim, new SystemHook() {
                @Override
                public void after(int position, String name, boolean ran, World world) {
                    actual.add(name + " " + applied);
                    model.add(name + " " + pending.before(position));
                    applied.clear();
                }

                @Override
                public void afterSyncPoint(int[] recordedBy, int count, World world) {
                    for (int i = 0; i < count; i++) {
                        applied.add(names.get(recordedBy[i]));
                    }
                }
            });
            for (int t = 0; t < 2; t++) {
                sim.tick();
                actual.add("end " + applied);
                model.add("end " + pending.atEnd()); // and, as the model says, before the next tick's first system
            }
            assertEquals(actual, model);
            assertEquals(2 * (9 + 2) + 2, actual.size(), "both ticks ran both steps: " + actual);
        }
    }
}
