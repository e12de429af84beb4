package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The input pipeline x a snapshot restored mid-run: a snapshot holds no inputs, so a run
 * restored from a snapshot of tick 3 that goes on with the live pipeline the first run used
 * would have to take tick 3 again, which that pipeline already handed out (with its inputs).
 * The pipeline refused with "beginTick(3) after tick 3: ticks must increase; a replay must start
 * from a fresh pipeline", which spoke of a replay, not of a restore, and said nothing of the
 * inputs already handed out or still queued. It now says that it handed those ticks out, that their
 * inputs are not handed again, how many inputs it still holds, and the fix; and the restored run
 * given a fresh pipeline takes each input published to it once.
 */
class RestoredInputsTest {
    record Got(int value) {
    }

    /** Spawns one entity per input, holding its payload's int. */
    static Simulation game() {
        World world = new World();
        Component<Got> got = world.component(Got.class);
        return Simulation.builder(world).seed(1).workers(1)
                .systems(s -> s.system("take").readsResource(Simulation.INPUTS).exclusive((w, job) -> {
                    InputBatch in = job.resource(Simulation.INPUTS);
                    for (int i = 0; i < in.size(); i++) {
                        w.spawn(new Got(in.payloadInt(i, 0)));
                    }
                })).build();
    }

    private static boolean publish(InputPipeline p, int value) {
        return p.tryPublish(1, 1, new byte[] {0, 0, 0, (byte) value}, 0, 4);
    }

    private static List<Integer> got(Simulation sim) {
        List<Integer> out = new ArrayList<>();
        Component<?> c = sim.world().columns().get(0);
        sim.world().query().with(c).build().forEachReadOnly((v, row) -> out.add(((Got) v.get(c, row)).value()));
        out.sort(null);
        return out;
    }

    @Test
    void aRestoredRunOnTheFirstRunsPipelineIsRefusedNamingWhatItHandedOutAndTheFix() {
        InputPipeline live = InputPipeline.builder().build();
        try (Simulation first = game(); Simulation restored = game()) {
            first.inputs(live);
            for (int t = 0; t < 3; t++) {
                first.tick();
            }
            byte[] snapshot = first.snapshot();                          // next tick 3
            assertTrue(publish(live, 5));
            first.tick();                                                // tick 3 takes 5
            assertTrue(publish(live, 7));                                // queued, no tick took it
            restored.restore(snapshot);
            restored.inputs(live);
            IllegalStateException e = assertThrows(IllegalStateException.class, restored::tick);
            String m = e.getMessage();
            assertTrue(m.contains("beginTick(3) after tick 3: ticks must increase"), m);
            assertTrue(m.contains("A simulation restored from an earlier snapshot, or a replay, cannot reuse the "
                    + "pipeline of the run it goes back over"), m);
            assertTrue(m.contains("tick 3 already took its inputs (a snapshot holds none)"), m);
            assertTrue(m.contains("1 published input is still queued here"), m);
            assertTrue(m.contains("Give it a new pipeline, sim.inputs(InputPipeline.builder().build())"), m);
            assertTrue(m.contains("or replay the recording with RunReplayer"), m);
            assertTrue(m.length() < 420, "says it in few words: " + m.length() + " chars: " + m);
            assertEquals(1, live.pendingCount(), "the refusal took nothing from the ring");

            InputPipeline fresh = InputPipeline.builder().build();
            restored.inputs(fresh);                                      // the fix: tick 3 again, 5 republished
            assertTrue(publish(fresh, 5));
            restored.tick();
            restored.tick();
            assertEquals(List.of(5), got(restored), "the republished input applied once, in tick 3");
            assertEquals(5, restored.currentTick());
            live.close();
            fresh.close();
        }
    }

    @Test
    void aRefusalAfterSeveralTicksNamesTheirRangeAndEveryQueuedInput() {
        try (InputPipeline p = InputPipeline.builder().build()) {
            for (long t = 0; t <= 4; t++) {
                p.beginTick(t);
            }
            assertTrue(publish(p, 1));
            assertTrue(publish(p, 2));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.beginTick(2));
            String m = e.getMessage();
            assertTrue(m.contains("beginTick(2) after tick 4: ticks must increase"), m);
            assertTrue(m.contains("ticks 2 to 4 already took their inputs"), m);
            assertTrue(m.contains("2 published inputs are still queued here"), m);
            assertEquals(2, p.pendingCount(), "the refusal took nothing from the ring");
        }
    }
}
