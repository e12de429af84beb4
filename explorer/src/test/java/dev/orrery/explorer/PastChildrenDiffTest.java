package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timeline's entity diff x a parent's children: the diff compared an entity's own
 * components (a child's {@code ChildOf.target}, every target of a non-exclusive relation) but
 * not the holders of pairs that target it, which the entity view lists in order. A parent
 * whose children changed (one more, or the same ones in another order) showed no change
 * between two ticks though its view at each showed other children.
 */
class PastChildrenDiffTest {
    record Crate(int n) {
    }

    @TempDir
    Path dir;

    /** Ship ids[0] with crew ids[1], ids[2]; at tick 3 crew 1 leaves and comes back (now last); at tick 6 ids[3] joins. */
    static Simulation ship(World world, boolean populate, long[] ids) {
        world.component(Crate.class);
        Relation childOf = world.relations().childOf();
        if (populate) {
            for (int i = 0; i < 4; i++) {
                ids[i] = world.spawn(new Crate(i));
            }
            world.relations().add(ids[1], childOf, ids[0]);
            world.relations().add(ids[2], childOf, ids[0]);
        }
        return Simulation.builder(world).seed(1).workers(1)
                .systems(s -> s.system("crew").readsResource(Simulation.CLOCK).exclusive((w, job) -> {
                    long tick = job.resource(Simulation.CLOCK).tick();
                    if (tick == 3) {
                        w.relations().remove(ids[1], childOf, ids[0]);
                        w.relations().add(ids[1], childOf, ids[0]);
                    }
                    if (tick == 6) {
                        w.relations().add(ids[3], childOf, ids[0]);
                    }
                })).build();
    }

    @Test
    void aParentsDiffNamesItsChildrenWhenTheirOrderOrNumberChanged() throws Exception {
        long[] ids = new long[4];
        Simulation sim = ship(new World(), true, ids);
        try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            sim.run(10, 0, null);
        }
        Timeline timeline = Timeline.ofRecording(dir, () -> ship(new World(), false, ids));
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(timeline))) {
            Client c = new Client(explorer);
            String reordered = c.getOk("/api/past/diff?from=1&to=4&id=" + ids[0]);
            assertTrue(reordered.contains("{\"field\":\"ChildOf.holders\",\"from\":\"" + ids[1] + ", " + ids[2]
                    + "\",\"to\":\"" + ids[2] + ", " + ids[1] + "\"}"), reordered);
            String joined = c.getOk("/api/past/diff?from=4&to=8&id=" + ids[0]);
            assertTrue(joined.contains("{\"field\":\"ChildOf.holders\",\"from\":\"" + ids[2] + ", " + ids[1]
                    + "\",\"to\":\"" + ids[2] + ", " + ids[1] + ", " + ids[3] + "\"}"), joined);
            String same = c.getOk("/api/past/diff?from=4&to=5&id=" + ids[0]);
            assertTrue(same.contains("\"changes\":[]") && same.contains("\"changed\":0"), same);
        } finally {
            sim.close();
        }
    }
}
