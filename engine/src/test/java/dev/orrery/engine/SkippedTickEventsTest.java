package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.ecs.World;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.Resources;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SKIP_TICK beside events, as the-simulation.md states it: events of the failing phase merged
 * before the failure (for a reader ordered after their writer) stay and are read as usual,
 * next tick too; events still in the workers' buffers at the failing phase's end are dropped
 * with its pending commands. The same on any worker count.
 */
class SkippedTickEventsTest {
    record Ping(long tick) {}

    static final EventKey<Ping> PINGS = EventKey.of("pings", Ping.class);

    static List<String> run(int workers, boolean readerInPhase) {
        List<String> got = new ArrayList<>();
        SimulationBuilder b = Simulation.builder(new World()).workers(workers).onSystemFailure(FailurePolicy.SKIP_TICK);
        Resources res = b.resources();
        try (Simulation sim = b.systems(s -> {
            s.system("early").inPhase(Phase.PRE_UPDATE).readsEvents(PINGS).readsResource(Simulation.CLOCK)
                    .exclusive((w, job) -> job.events(PINGS).forEach(p ->
                            got.add("early@" + res.get(Simulation.CLOCK).tick() + " read " + p.tick())));
            s.system("send").readsResource(Simulation.CLOCK).writesEvents(PINGS).forEachRange(() -> 1,
                    (job, from, to) -> job.send(PINGS, new Ping(res.get(Simulation.CLOCK).tick())));
            if (readerInPhase) {
                s.system("same").after("send").readsEvents(PINGS).readsResource(Simulation.CLOCK)
                        .exclusive((w, job) -> job.events(PINGS).forEach(p ->
                                got.add("same@" + res.get(Simulation.CLOCK).tick() + " read " + p.tick())));
            }
            s.system("fail").after(readerInPhase ? "same" : "send").readsResource(Simulation.CLOCK).exclusive(w -> {
                if (res.get(Simulation.CLOCK).tick() == 1) {
                    throw new IllegalStateException("tick 1 fails");
                }
            });
        }).build()) {
            sim.failureListener((t, e, first) -> { });
            sim.run(3, 0);
            assertEquals(1, sim.skippedTicks());
        }
        return got;
    }

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 2})
    void shouldKeepTheEventsMergedBeforeTheFailureAndDropTheRest(int workers) {
        assertEquals(List.of("same@0 read 0", "early@1 read 0", "same@1 read 1", "early@2 read 1", "same@2 read 2"),
                run(workers, true), "merged for 'same' before 'fail' threw: read next tick by 'early' too");
        assertEquals(List.of("early@1 read 0"), run(workers, false),
                "tick 1's ping waited for the phase's end, which failed: dropped, so 'early' reads nothing at tick 2");
    }
}
