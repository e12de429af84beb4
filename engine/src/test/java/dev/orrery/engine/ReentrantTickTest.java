package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.SystemFailedException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A {@code tick()} or {@code run()} from inside a tick, on the tick thread: from the
 * end-of-tick hook it ran a whole tick inside the outer one (a hook that ticks every time
 * recursed until {@link StackOverflowError}), from an exclusive system it surfaced as the
 * executor's "a run is in progress". Each is refused now naming the call, the tick and where
 * it was made, and the outer tick is left as it was.
 */
class ReentrantTickTest {
    record Pos(float x) {
    }

    /** A mover, then an exclusive system that calls {@code during} once, on tick 1. */
    private static Simulation build(AtomicReference<Consumer<Simulation>> during) {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        Field x = pos.field("x");
        Simulation[] self = new Simulation[1];
        self[0] = Simulation.builder(world).systems(s -> s
                .system("move").query(world.query().with(pos).build()).writes(pos)
                .forEachChunk(job -> job.chunk().writeFloats(x)[0]++)
                .system("ticker").inPhase(Phase.POST_UPDATE).readsResource(Simulation.CLOCK).exclusive((w, job) -> {
                    Consumer<Simulation> once = job.resource(Simulation.CLOCK).tick() == 1 ? during.getAndSet(null) : null;
                    if (once != null) {
                        once.accept(self[0]);
                    }
                })).build();
        self[0].world().spawn(new Pos(0));
        return self[0];
    }

    private static AtomicReference<Consumer<Simulation>> none() {
        return new AtomicReference<>();
    }

    @Test
    void shouldRefuseATickOrRunFromTheEndOfTickHook() {
        for (Consumer<Simulation> call : java.util.List.<Consumer<Simulation>>of(Simulation::tick,
                s -> s.run(3, 0))) {
            try (Simulation sim = build(none())) {
                boolean[] once = {true};
                sim.atEndOfTick((tick, nanos) -> {
                    if (once[0]) {
                        once[0] = false;
                        call.accept(sim);
                    }
                });
                IllegalStateException e = assertThrows(IllegalStateException.class, sim::tick);
                assertTrue(e.getMessage().contains("called from inside tick 0")
                        && e.getMessage().contains("end-of-tick hook (atEndOfTick)")
                        && e.getMessage().contains("after tick() returns"), e.getMessage());
                assertTrue(e.getMessage().startsWith("Simulation.tick()") || e.getMessage().startsWith("Simulation.run()"),
                        e.getMessage());
                assertEquals(1, sim.currentTick(), "only the outer tick ran");
                sim.tick();
                assertEquals(2, sim.currentTick(), "the next tick runs as usual");
            }
        }
    }

    @Test
    void shouldRefuseATickFromAnExclusiveSystemNamingTheSchedule() {
        AtomicReference<Consumer<Simulation>> during = none();
        try (Simulation sim = build(during)) {
            sim.tick();
            during.set(Simulation::tick);
            SystemFailedException e = assertThrows(SystemFailedException.class, sim::tick);
            IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(cause.getMessage().startsWith("Simulation.tick() called from inside tick 1")
                    && cause.getMessage().contains("a system, a run condition or an observer hook"),
                    cause.getMessage());
            sim.tick(); // the failed tick again (STOP): it runs, the hook having been used up
            assertEquals(2, sim.currentTick());
        }
    }

    @Test
    void shouldRefuseATickFromTheHashListener() {
        try (Simulation sim = build(none())) {
            boolean[] once = {true};
            sim.hashListener((tick, hash, world) -> {
                if (once[0]) {
                    once[0] = false;
                    sim.tick();
                }
            });
            IllegalStateException e = assertThrows(IllegalStateException.class, sim::tick);
            assertTrue(e.getMessage().startsWith("Simulation.tick() called from inside tick 0")
                    && e.getMessage().contains("the hash listener"), e.getMessage());
        }
    }
}
