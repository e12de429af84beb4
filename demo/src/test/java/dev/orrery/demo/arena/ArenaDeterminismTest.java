package dev.orrery.demo.arena;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.demo.net.ClientCommand;
import dev.orrery.testkit.DeterminismCheck;
import dev.orrery.testkit.InputScript;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The arena, with squads moved and waves spawned by clients, is deterministic through every run
 * the test kit makes: 1, 2 and 4 workers with its own batching and with every system forced
 * into 1- and 64-row jobs, a snapshot restored mid-run, and a recording replayed; the state hash
 * agrees on every tick.
 */
class ArenaDeterminismTest {
    /** Client 1 moves a squad every 5 ticks; client 2 spawns a wave every 40. */
    private static final InputScript CLIENTS = (tick, send) -> {
        byte[] buf = new byte[InputCodec.MAX_PAYLOAD];
        if (tick % 5 == 0) {
            send(send, new ClientCommand.MoveSquad(1, tick, (int) (tick / 5 % 8), tick % 30, -(tick % 17)), buf);
        }
        if (tick % 40 == 7) {
            send(send, new ClientCommand.SpawnWave(2, tick, 50), buf);
        }
    };

    private static void send(InputScript.Sender send, ClientCommand c, byte[] buf) {
        int n = InputCodec.encode(c, buf);
        send.input((int) c.clientId(), InputCodec.typeOf(c), Arrays.copyOf(buf, n));
    }

    @Test
    void shouldGiveTheSameHashOnEveryTickOfEveryRun() {
        List<String> runs = DeterminismCheck.of((workers, populate) -> {
            Arena arena = new Arena(new ArenaConfig(2_000, 2, 8));
            if (populate) {
                arena.populate();
            }
            return arena.build(workers, 0);
        }).ticks(120).workers(1, 2, 4).inputs(CLIENTS).run();
        // reference, 7 worker/batch runs, jobs in reverse order, 2 restores, 1 recording, 2 replays
        assertEquals(14, runs.size(), "every configuration ran: " + runs);
    }
}
