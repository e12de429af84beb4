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

    /**
     * 64 inputs of 16 KiB a tick: the kit sized the recording's ring to those 64 (4096 slots of
     * 16 KiB pass 32 MiB), and a tick's inputs are journaled on the journal thread while the next
     * tick's are published, so the next tick's tryPublish found the ring still full of the last
     * tick's and the kit failed with "the recording's input ring is full; send fewer than 4096
     * inputs a tick" (ticks 2 to 6 on a quiet machine), which the script did not do.
     */
    static final InputScript CARGO_HOLDS = (tick, send) -> {
        for (int k = 0; k < 64; k++) {
            byte[] hold = new byte[16 * 1024];
            hold[0] = (byte) (tick + k);
            hold[hold.length - 1] = (byte) k;
            send.input(k, 2, hold);
        }
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
    void shouldCheckAGameWhoseLargeInputsFillTheRingEveryTickWhileTheJournalWritesTheLastTicks() {
        List<String> runs = DeterminismCheck.of(LargeInputsTest::build).ticks(40).workers(1).inputs(CARGO_HOLDS).run();
        assertTrue(runs.stream().anyMatch(r -> r.contains("recorded")), runs.toString());
    }

    @Test
    void shouldRecordAGoldenRecordingWhoseLargeInputsFillTheRingEveryTick(@TempDir Path dir) {
        Path golden = dir.resolve("golden");
        GoldenRecording.record(LargeInputsTest::build, CARGO_HOLDS, 40, golden);
        GoldenRecording.assertReplays(golden, LargeInputsTest::build);   // throws on any difference
    }

    @Test
    void shouldRecordAndReplayAGoldenRecordingOfLargeInputs(@TempDir Path dir) {
        Path golden = dir.resolve("golden");
        GoldenRecording.record(LargeInputsTest::build, MANIFESTS, 8, golden);
        GoldenRecording.assertReplays(golden, LargeInputsTest::build);   // throws on any difference
    }
}
