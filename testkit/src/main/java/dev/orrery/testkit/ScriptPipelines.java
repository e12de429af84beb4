package dev.orrery.testkit;

import dev.orrery.engine.InputPipeline;
import java.util.concurrent.TimeUnit;

/**
 * The input pipeline a kit's recorded run publishes an {@link InputScript}'s inputs to, and
 * that publish. Its slots take the largest payload the script sends (a pipeline's default is 64
 * bytes, and the game cannot reach the kit's pipeline to raise it), up to the 64 KiB an input may
 * carry; the ring holds 4096 inputs, or as many as 32 MiB of such slots hold (512 at 64 KiB), and
 * never fewer than the most inputs the script sends in one tick.
 *
 * <p>A tick's inputs are journaled on the journal thread while the next tick's are published,
 * and a slot is free again only once journaled: a ring that one tick's inputs nearly fill may
 * still hold the last tick's when the next tick publishes. {@link #publish} then waits for the
 * journal, as a slow journal slows the tick thread; only inputs of one tick that do not fit the
 * ring are refused.
 *
 * <p><b>Threading:</b> stateless; called on the thread that runs the check.
 */
final class ScriptPipelines {
    /** The ring a recorded run has always had: the inputs one tick may send. */
    static final int RING = 4096;
    private static final int DEFAULT_PAYLOAD = 64;
    private static final int MAX_PAYLOAD = 65536;
    private static final long MAX_RING_BYTES = 32L << 20;
    /** How long a publish waits for the journal to free a slot before the kit gives up on it. */
    private static final long JOURNAL_WAIT_SECONDS = 60;

    private ScriptPipelines() {
    }

    /**
     * A pipeline builder for {@code script}'s first {@code ticks} ticks, which it runs once to
     * size the slots and the ring (a script depends on the tick alone, so running it again
     * changes nothing).
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
        int ring = RING;
        while ((long) ring * payload > MAX_RING_BYTES) {
            ring >>= 1;
        }
        ring = Math.max(ring, nextPowerOfTwo(most)); // one tick's inputs always fit
        return InputPipeline.builder().ringSize(ring).maxPayloadBytes(payload);
    }

    /**
     * Publishes one of the script's inputs for {@code tick} to the recording's pipeline, built by
     * {@link #forScript}: when the ring is full of earlier ticks' inputs the journal thread has
     * not written yet, waits for it to free a slot.
     *
     * @throws IllegalStateException when this tick's own inputs fill the ring (the script sent
     *     more than when the kit sized it: it does not depend on the tick alone), or the journal
     *     freed no slot in a minute, or the thread was interrupted while waiting
     */
    static void publish(InputPipeline inputs, long tick, int client, int type, byte[] payload) {
        int length = payload == null ? 0 : payload.length;
        if (inputs.tryPublish(client, type, payload, 0, length)) {
            return;
        }
        if (inputs.pendingCount() >= inputs.ringSize()) {
            throw new IllegalStateException("tick " + tick + ": the script sends more inputs than the recording's ring "
                    + "holds (" + inputs.ringSize() + "), the most it sent in one tick when the kit ran it to size the "
                    + "ring; an input script must depend on the tick alone");
        }
        try {
            if (inputs.publish(client, type, payload, 0, length, JOURNAL_WAIT_SECONDS, TimeUnit.SECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("tick " + tick + ": interrupted while waiting for the recording's journal "
                    + "to free a slot of its input ring", e);
        }
        throw new IllegalStateException("tick " + tick + ": the recording's input ring (" + inputs.ringSize() + " inputs) "
                + "stayed full of earlier ticks' inputs for " + JOURNAL_WAIT_SECONDS + " s: the journal thread wrote "
                + "none of them (the disk stalls, or the journal failed; the recording's close says why)");
    }

    private static int nextPowerOfTwo(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }
}
