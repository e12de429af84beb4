package dev.orrery.demo.arena;

import static dev.orrery.demo.arena.ArenaFixtures.clientInputs;
import static dev.orrery.demo.arena.ArenaFixtures.firstAgent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.net.ClientCommand;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.Simulation;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The arena's float conversion of a journaled {@code SET} and the sign of zero: a nonzero
 * payload that rounds to -0 is stored as 0 (as InputCodec writes a client's -0 as 0), while an
 * exact -0 payload, which only a recording made before InputCodec wrote -0 as 0 can hold, keeps
 * its sign, so that recording replays to the hash it was recorded with. Pins the difference
 * between the arena's rule and {@code NegativeZero.toZero}, so the two are not merged blindly.
 */
class SetSignedZeroTest {
    private static final long CLIENT = 7;

    @Test
    void shouldStoreARoundedNegativeAsZeroAndKeepAnExactNegativeZeroPayload() {
        RecordingReplies recording = new RecordingReplies(false);
        Arena arena = new Arena(new ArenaConfig(200, 2, 3));
        arena.populate();
        arena.replies(recording);
        long agent = firstAgent(arena);
        byte[] buf = new byte[InputCodec.MAX_PAYLOAD];
        try (Simulation sim = arena.build(1, 0); InputPipeline inputs = clientInputs()) {
            sim.inputs(inputs);
            int n = InputCodec.encode(new ClientCommand.SetProperty(CLIENT, 1, agent, "Secondary", "damage", "-1e-50"),
                    buf);
            assertTrue(inputs.tryPublish((int) CLIENT, InputCodec.SET, buf, 0, n));
            sim.tick();
            assertEquals(0, Float.floatToRawIntBits((Float) arena.world().getProperty(agent, "Secondary", "damage")),
                    "-1e-50 rounds to -0 as a float: stored as +0");

            n = InputCodec.encode(new ClientCommand.SetProperty(CLIENT, 2, agent, "Secondary", "damage", "0"), buf);
            buf[25] = (byte) 0x80; // the payload's double, big-endian, with its sign bit set: -0.0, as an older recording
            assertTrue(inputs.tryPublish((int) CLIENT, InputCodec.SET, buf, 0, n));
            sim.tick();
            assertEquals(Float.floatToRawIntBits(-0f),
                    Float.floatToRawIntBits((Float) arena.world().getProperty(agent, "Secondary", "damage")),
                    "an exact -0 payload replays as recorded");
        }
        assertEquals(Map.of(1L, "OK", 2L, "OK"), recording.byRequest);
    }
}
