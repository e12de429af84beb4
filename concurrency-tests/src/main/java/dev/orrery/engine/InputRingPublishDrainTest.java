package dev.orrery.engine;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The input ring's publish and drain, through the real {@link InputPipeline} (an LMAX
 * Disruptor multi-producer ring): a producer thread publishes one input while the tick
 * thread publishes another (any thread may publish, so the two claims race in the
 * multi-producer sequencer) and then drains a tick; the arbiter then drains one more tick.
 * Two actors, so that it runs on a two-core machine. Each input must be seen exactly once,
 * in one of the two ticks, with every field whole: client, type, length and every payload
 * byte. The drain takes the ring in order and stops at the first slot claimed but not yet
 * published, so client 2's input, although published before the drain on the tick thread,
 * may wait for the next tick behind client 1's; it may not be left over when client 1's was
 * drained. The ring has already carried three inputs of another client, so one of the two
 * inputs lands in a reused slot, where a torn read would show stale fields.
 *
 * <p>Result: (client 1's input, client 2's input, bad inputs). For each client: 1 if drained
 * whole by the racing tick, 2 if by the arbiter's tick; a sum above 2 means it was seen
 * twice, 0 that it was lost, -1 that its producer's publish was refused. Bad inputs counts
 * drained inputs with a torn field or from no publisher of this round.
 */
@JCStressTest
@Outcome(id = "1, 1, 0", expect = Expect.ACCEPTABLE, desc = "both drained whole by the racing tick")
@Outcome(id = "2, 1, 0", expect = Expect.ACCEPTABLE,
        desc = "client 2's drained; client 1's, after it in the ring, not yet published")
@Outcome(id = "2, 2, 0", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "client 1 claimed the slot before client 2's but had not published it: the drain stops there")
@Outcome(expect = Expect.FORBIDDEN, desc = "an input lost, duplicated or torn")
@State
public class InputRingPublishDrainTest {
    private static final byte[] P1 = {11, 12, 13, 14, 15};
    private static final byte[] P2 = {21, 22, 23, 24, 25, 26, 27};
    private static final byte[] STALE = {99, 99, 99, 99, 99, 99, 99, 99};

    private final InputPipeline pipeline = InputPipeline.builder().ringSize(4).maxPayloadBytes(8).build();
    private boolean refused1;
    private boolean refused2;

    /** Fills and drains three slots, so the round's second input reuses the first slot. */
    public InputRingPublishDrainTest() {
        for (int i = 0; i < 3; i++) {
            pipeline.tryPublish(9, 99, STALE, 0, STALE.length);
        }
        pipeline.beginTick(0);
    }

    /** A producer. */
    @Actor
    public void producer1() {
        refused1 = !pipeline.tryPublish(1, 101, P1, 0, P1.length);
    }

    /**
     * The tick thread, taken over from the constructing thread (jcstress orders the two):
     * publishes as a second producer, then drains.
     */
    @Actor
    public void tick(III_Result r) {
        refused2 = !pipeline.tryPublish(2, 202, P2, 0, P2.length);
        pipeline.bindTickThread();
        tally(pipeline.beginTick(1), 1, r);
    }

    /** After every actor: drains what the racing tick left. */
    @Arbiter
    public void drainRest(III_Result r) {
        pipeline.bindTickThread();
        tally(pipeline.beginTick(2), 2, r);
        if (refused1) {
            r.r1 = -1;
        }
        if (refused2) {
            r.r2 = -1;
        }
    }

    private static void tally(InputBatch batch, int code, III_Result r) {
        for (int i = 0; i < batch.size(); i++) {
            if (whole(batch, i, 1, 101, P1)) {
                r.r1 += code;
            } else if (whole(batch, i, 2, 202, P2)) {
                r.r2 += code;
            } else {
                r.r3++;
            }
        }
    }

    private static boolean whole(InputBatch batch, int i, int client, int type, byte[] payload) {
        if (batch.client(i) != client || batch.type(i) != type || batch.payloadLength(i) != payload.length) {
            return false;
        }
        for (int b = 0; b < payload.length; b++) {
            if (batch.payloadByte(i, b) != payload[b]) {
                return false;
            }
        }
        return true;
    }
}
