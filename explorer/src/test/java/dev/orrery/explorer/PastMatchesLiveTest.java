package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.ecs.World;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Explorer timeline x relations and sparse components: every entity's page at every past tick
 * of a recording whose game adds and moves ChildOf and Likes pairs and adds and removes a
 * sparse component is the page a live run of the same game shows after that tick. (The
 * recordings test checks chosen fields and diffs; this compares whole pages at every tick.)
 */
class PastMatchesLiveTest {
    @TempDir
    Path dir;

    @Test
    void everyPastEntityPageIsTheLivePageAtThatTick() throws Exception {
        World world = new World();
        long[] ids = new long[4];
        Simulation sim = TimelineRecordingsTest.features(world, true, ids);
        try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            sim.run(14, 0, null);
        }
        Timeline timeline = Timeline.ofRecording(dir, () -> TimelineRecordingsTest.features(new World(), false, ids));
        World liveWorld = new World();
        long[] liveIds = new long[4];
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(timeline));
                Simulation live = TimelineRecordingsTest.features(liveWorld, true, liveIds)) {
            Client c = new Client(explorer);
            for (long tick = 0; tick < 14; tick++) {
                live.tick(); // the live world after tick `tick`
                for (long id : ids) {
                    String expected = "{\"tick\":" + tick + ",\"entity\":" + Views.entity(liveWorld, id,
                            EditRules.frozen("this is tick " + tick + ", the past: edit the live entity")) + "}";
                    assertEquals(expected, c.getOk("/api/past/entity?tick=" + tick + "&id=" + id),
                            "entity " + id + " at tick " + tick);
                }
            }
        } finally {
            sim.close();
        }
    }
}
