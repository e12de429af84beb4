package dev.orrery.demo.arena;

import static dev.orrery.demo.arena.ArenaFixtures.clientInputs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.net.ClientCommand;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.Simulation;
import dev.orrery.testkit.DeterminismCheck;
import dev.orrery.testkit.InputScript;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The arena, with squads moved and waves spawned by clients, is deterministic through every run
 * the test kit makes: 1, 2 and 4 workers with its own batching and with every system forced
 * into 1- and 64-row jobs, a snapshot restored mid-run, and a recording replayed; the state hash
 * agrees on every tick. The running totals ({@link Arena#STATS}) are carried by snapshots: a
 * run restored mid-way into a new arena (as a cluster moves a world) ends with the totals and
 * the state of a run that never stopped.
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
        // reference, 7 worker/batch runs, jobs in reverse order, unordered systems in reverse order, 2 restores,
        // 1 recording, 2 replays
        assertEquals(15, runs.size(), "every configuration ran: " + runs);
        assertTrue(runs.contains("1 worker, unordered systems in reverse order"), runs.toString());
    }

    /** The snapshot is taken after tick SNAP - 1 of TICKS. */
    private static final int SNAP = 180;
    private static final int TICKS = 300;

    /** Hits, misses, kills, deaths and client spawns, then the world's state hash. */
    private static long[] totals(Arena arena, Simulation sim) {
        ArenaStats s = arena.stats();
        assertTrue(s == sim.resources().get(Arena.STATS), "the arena reads the simulation's totals");
        return new long[] {s.hits(), s.misses(), s.kills(), s.deaths(), s.spawnedByClients(), sim.world().stateHash()};
    }

    /** Runs ticks {@code from} to TICKS - 1 on {@code sim}, feeding the clients' inputs. */
    private static void run(Simulation sim, long from, byte[][] snap) {
        try (InputPipeline inputs = clientInputs()) {
            sim.inputs(inputs);
            for (long t = from; t < TICKS; t++) {
                CLIENTS.inputs(t, (client, type, payload) -> assertTrue(inputs.tryPublish(client, type, payload, 0,
                        payload.length)));
                assertEquals(t, sim.tick());
                if (t == SNAP - 1 && snap != null) {
                    snap[0] = sim.snapshot();
                }
            }
        }
    }

    @Test
    void shouldCarryTheRunningTotalsThroughASnapshotIntoANewArena() {
        byte[][] snap = new byte[1][];
        long[] atSnap;
        long[] uninterrupted;
        Arena first = new Arena(new ArenaConfig(2_000, 2, 8));
        first.populate();
        try (Simulation sim = first.build(2, 0)) {
            run(sim, 0, snap);
            uninterrupted = totals(first, sim);
        }
        Arena probe = new Arena(new ArenaConfig(2_000, 2, 8));
        try (Simulation sim = probe.build(1, 0)) {
            sim.restore(snap[0]);
            atSnap = totals(probe, sim);
        }
        assertTrue(atSnap[0] > 0 && atSnap[1] > 0 && atSnap[2] > 0 && atSnap[3] > 0 && atSnap[4] > 0,
                "every total moved before the snapshot: " + Arrays.toString(atSnap));
        assertNotEquals(atSnap[0], uninterrupted[0], "hits go on after the snapshot");
        for (int workers : new int[] {1, 2}) {
            Arena moved = new Arena(new ArenaConfig(2_000, 2, 8));
            try (Simulation sim = moved.build(workers, 0)) {
                sim.restore(snap[0]);
                run(sim, SNAP, null);
                assertArrayEquals(uninterrupted, totals(moved, sim), "restored on " + workers + " workers");
            }
        }
    }
}
