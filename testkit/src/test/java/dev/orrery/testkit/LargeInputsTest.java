package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.Simulation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A game whose inputs are larger than an {@code InputPipeline}'s default 64 bytes (a harbour
 * master's manifest of 100 bytes): the kit fed them to its reference runs, then refused them in
 * its recorded run with "exceeds the pipeline's maximum of 64 bytes; raise
 * InputPipeline.Builder.maxPayloadBytes", a pipeline the kit builds and the game cannot reach, so
 * such a game could not be checked or recorded at all. The kit's recording pipelines now take the
 * largest payload the script sends.
 */
class LargeInputsTest {
    record Tally(long sum) {}

    static final InputScript MANIFESTS = (tick, send) -> {
        byte[] manifest = new byte[100];
        for (int i = 0; i < manifest.length; i++) manifest[i] = (byte) (tick + i);
        send.input(3, 1, manifest);
    };

    static Simulation build(int workers, boolean populate) {
        World world = new World();
        Component<Tally> tally = world.component(Tally.class);
        Field sum = tally.field("sum");
        if (populate) world.spawn(new Tally(0));
        return Simulation.builder(world).workers(workers).seed(3)
                .systems(s -> s.system("tally").query(world.query().with(tally).build()).writes(tally)
                        .readsResource(Simulation.INPUTS).forEachChunk(job -> {
                            InputBatch in = job.resource(Simulation.INPUTS);
                            long[] t = job.chunk().writeLongs(sum);
                            for (int k = 0; k < in.size(); k++) {
                                for (int b = 0; b < in.payloadLength(k); b++) t[0] += in.payloadByte(k, b);
                            }
                        }))
                .build();
    }

    @Test
    void shouldCheckAGameWhoseInputsAreLargerThanThePipelinesDefault() {
        List<String> runs = DeterminismCheck.of(LargeInputsTest::build).ticks(8).workers(1, 2).inputs(MANIFESTS).run();
        assertTrue(runs.stream().anyMatch(r -> r.contains("recorded")), runs.toString());
    }

    @Test
    void shouldRecordAndReplayAGoldenRecordingOfLargeInputs(@TempDir Path dir) {
        Path golden = dir.resolve("golden");
        GoldenRecording.record(LargeInputsTest::build, MANIFESTS, 8, golden);
        GoldenRecording.assertReplays(golden, LargeInputsTest::build);   // throws on any difference
    }
}
