package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JfrEventsTest {
    @Test
    void shouldRecordTickJobAndSyncPointEvents(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("dev.orrery.Tick");
            recording.enable("dev.orrery.Job");
            recording.enable("dev.orrery.SyncPoint");
            recording.start();
            try (Simulation sim = ArenaWorkload.build(1, 2, true, 0)) {
                // damage every agent to death at tick 5, so the reap system records despawns
                sim.inputs(new InputSource() {
                    private final InputBatch batch = new InputBatch();

                    @Override
                    public InputBatch beginTick(long tick) {
                        batch.reset(tick);
                        if (tick == 5) {
                            byte[] p = ByteBuffer.allocate(4).putInt(500).array();
                            batch.add(0, ArenaWorkload.DAMAGE, p, 0, p.length);
                        }
                        return batch;
                    }

                    @Override
                    public void recordHash(long tick, long stateHash) {
                    }
                });
                for (int t = 0; t < 30; t++) {
                    sim.tick();
                }
            }
            recording.stop();
            recording.dump(file);
        }
        Map<String, Integer> counts = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            counts.merge(e.getEventType().getName(), 1, Integer::sum);
        }
        assertTrue(counts.getOrDefault("dev.orrery.Tick", 0) >= 30, counts.toString());
        assertTrue(counts.getOrDefault("dev.orrery.SyncPoint", 0) >= 1, counts.toString());
        assertTrue(counts.getOrDefault("dev.orrery.Job", 0) >= 30 * 4,
                "a recording was running when the simulation was built, so job events are on: " + counts);
    }

    @Test
    void shouldEmitJobEventsWhenAskedFor(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("jobs.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("dev.orrery.Job");
            recording.start();
            try (Simulation sim = ArenaWorkload.builder(1, 2).jfrJobEvents(true).build()) {
                for (int t = 0; t < 5; t++) {
                    sim.tick();
                }
            }
            recording.stop();
            recording.dump(file);
        }
        long jobs = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("dev.orrery.Job")).count();
        assertTrue(jobs >= 5 * 4, "four systems a tick, got " + jobs);
    }
}
