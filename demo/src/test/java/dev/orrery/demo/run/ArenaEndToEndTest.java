package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.Main;
import dev.orrery.demo.net.ServerConfig;
import dev.orrery.ecs.component.Entity;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starts the arena with its server on an ephemeral loopback port and a recording, talks to
 * it as clients do, then replays the recording and expects the live run's hash.
 */
class ArenaEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void shouldAnswerClientsAndReplayTheRecordedRunToTheSameHash() throws Exception {
        Path recording = tmp.resolve("run");
        RunOptions options = new RunOptions(2_000, 2, 0, 2, 7, 60, 0, 0, ServerConfig.loopback(), recording, null, null,
                null, true);
        RunningDemo run = RunningDemo.start(options);
        try {
            assertTrue(run.port() > 0, "no server port; log: " + run.log());
            long agent;
            try (LineClient carol = new LineClient(run.port())) {
                agent = immortalTeamZeroAgent(carol);
            }
            try (LineClient alice = new LineClient(run.port()); LineClient bob = new LineClient(run.port())) {
                assertTrue(alice.ask("HELLO alice").startsWith("OK 1 "));
                assertEquals("OK 2", alice.ask("MOVE 3 10.5 20"));
                assertEquals("OK 3", alice.ask("SPAWN 5"));
                assertTrue(alice.ask("SPAWN 0").startsWith("ERR 4 MALFORMED"));
                assertEquals("OK 5 1.5", alice.ask("GET " + agent + " Primary reload"));
                assertEquals("OK 6", alice.ask("SET " + agent + " Health hp 100000"));
                String hp = alice.ask("GET " + agent + " Health hp");
                assertTrue(hp.startsWith("OK 7 "), hp);
                float value = Float.parseFloat(hp.substring(5));
                assertTrue(value > 99_000 && value <= 100_000, hp);
                assertEquals("OK 8", alice.ask("SET " + agent + " Secondary damage 40"));
                assertEquals("OK 9 40.0", alice.ask("GET " + agent + " Secondary damage"));
                assertTrue(alice.ask("SET " + agent + " Health hp true").startsWith("ERR 10 BAD_VALUE"));
                assertTrue(alice.ask("GET 999999999999 Health hp").startsWith("ERR 11 NOT_FOUND"));
                assertTrue(alice.ask("GET " + agent + " Bogus x").startsWith("ERR 12 NOT_FOUND"));
                String noField = alice.ask("GET " + agent + " Health armour");
                assertTrue(noField.startsWith("ERR 13 NOT_FOUND") && noField.contains("hp"), noField);
                assertTrue(alice.ask("SET 999999999999 Health hp 1").startsWith("ERR 14 NOT_FOUND"));
                assertTrue(alice.ask("FLY away").startsWith("ERR 15 UNKNOWN"));

                assertTrue(bob.ask("MOVE 1 5 5").startsWith("ERR 1 PROTOCOL"));
                assertTrue(bob.ask("HELLO bob").startsWith("OK 2 "));
                assertEquals("OK 3", bob.ask("SPAWN 10"));
                String state = bob.awaitState();
                assertNotNull(state);
                assertTrue(state.matches("STATE \\d+ \\d+ teams=2 agents=\\d+ projectiles=\\d+ hits=\\d+ kills=\\d+"),
                        state);
                bob.awaitInputsApplied(4); // SPAWN 10 sat in the input ring until a tick took it
                assertEquals("OK 5 BYE", bob.ask("QUIT"));
            }
        } finally {
            run.stop();
        }
        RunResult live = run.finish();
        assertTrue(live.entities() >= 2_015, "the 15 agents spawned by clients are missing: " + live);
        assertTrue(Files.exists(recording.resolve(DemoRun.PARAMETERS)));

        String replayed = MainSummary.run("--replay", recording.toString(), "--threads", "1", "--quiet");
        assertEquals(live.summaryLine().replaceAll(".* hash=", ""), replayed.replaceAll(".* hash=", ""),
                "replay ended with another hash");
        assertEquals("ticks=" + live.ticks(), replayed.substring(0, replayed.indexOf(' ')));
    }

    /**
     * An agent of team 0 (the first 1 000 spawned) made unkillable before the test reads it:
     * the first one still alive, found by raising its health, since any of them may have died
     * in the ticks already run.
     */
    private static long immortalTeamZeroAgent(LineClient client) throws Exception {
        assertTrue(client.ask("HELLO carol").startsWith("OK 1 "));
        for (int index = 0, request = 2; index < 1_000; index++, request++) {
            long candidate = Entity.of(index, 1);
            String reply = client.ask("SET " + candidate + " Health hp 100000");
            if (reply.equals("OK " + request)) {
                return candidate;
            }
            assertTrue(reply.startsWith("ERR " + request + " NOT_FOUND"), reply);
        }
        throw new AssertionError("all 1 000 agents of team 0 died before the test could reach one");
    }

    /** Runs {@link Main} in this JVM and returns its summary line. */
    static final class MainSummary {
        static String run(String... args) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = Main.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), false);
            String text = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, status, "exit status; out: " + text + " err: " + err.toString(StandardCharsets.UTF_8));
            String[] lines = text.trim().split("\n");
            String last = lines[lines.length - 1];
            assertTrue(last.matches("ticks=\\d+ entities=\\d+ p50_ms=\\d+\\.\\d{3} p99_ms=\\d+\\.\\d{3} "
                    + "max_ms=\\d+\\.\\d{3} hash=0x[0-9a-f]{16}"), "summary line: " + last);
            return last;
        }
    }
}
