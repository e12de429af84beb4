package dev.orrery.testkit;

import dev.orrery.engine.InputPipeline;

/**
 * The input pipeline a kit's recorded run publishes an {@link InputScript}'s inputs to. Its slots
 * take the largest payload the script sends (a pipeline's default is 64 bytes, and the game cannot
 * reach the kit's pipeline to raise it), up to the 64 KiB an input may carry; the ring holds 4096
 * inputs, or, where that many slots of such payloads would take more than 32 MiB, the most inputs
 * the script sends in one tick.
 *
 * <p><b>Threading:</b> stateless; called on the thread that runs the check.
 */
final class ScriptPipelines {
    /** The ring a recorded run has always had: the inputs one tick may send. */
    static final int RING = 4096;
    private static final int DEFAULT_PAYLOAD = 64;
    private static final int MAX_PAYLOAD = 65536;
    private static final long MAX_RING_BYTES = 32L << 20;

    private ScriptPipelines() {
    }

    /**
     * A pipeline builder for {@code script}'s first {@code ticks} ticks, which it runs once to
     * size the slots (a script depends on the tick alone, so running it again changes nothing).
     */
    static InputPipeline.Builder forScript(InputScript script, long ticks) {
        int[] largest = {0};
        int most = 0;
        for (long t = 0; t < ticks; t++) {
            int[] count = {0};
            script.inputs(t, (client, type, payload) -> {
                count[0]++;
                largest[0] = Math.max(largest[0], payload == null ? 0 : payload.length);
            });
            most = Math.max(most, count[0]);
        }
        int payload = Math.min(MAX_PAYLOAD, Math.max(DEFAULT_PAYLOAD, largest[0]));
        int ring = (long) payload * RING <= MAX_RING_BYTES ? RING : Math.max(RING / 64, nextPowerOfTwo(most));
        return InputPipeline.builder().ringSize(ring).maxPayloadBytes(payload);
    }

    private static int nextPowerOfTwo(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }
}
