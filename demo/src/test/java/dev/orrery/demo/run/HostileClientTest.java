package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.net.ServerConfig;
import dev.orrery.ecs.component.Entity;
import org.junit.jupiter.api.Test;

/**
 * The attacks of issue 19 against the real arena behind its server: writes that used to
 * crash a system are refused at the boundary, and a spawn flood stops at the world's cap
 * with every refused wave answered {@code QUOTA}, never {@code OK}. The run goes on.
 */
class HostileClientTest {
    private static final int AGENTS = 1_000;
    private static final long CAP = 30_000;

    @Test
    void shouldRefuseCrashingWritesAndSpawnsPastTheCapAndKeepRunning() throws Exception {
        RunOptions options = new RunOptions(AGENTS, 2, 0, 2, 11, 60, 0, 0, ServerConfig.loopback(), null, null, null,
                null, true, ServerConfig.defaults(), CAP);
        RunningDemo run = RunningDemo.start(options);
        try {
            try (LineClient mallory = new LineClient(run.port())) {
                assertTrue(mallory.ask("HELLO mallory").startsWith("OK 1 "));
                long agent = Entity.of(0, 1);
                long other = 4_294_967_297L;
                String squad = mallory.ask("SET " + agent + " Agent squad 1000");
                assertTrue(squad.startsWith("ERR 2 FORBIDDEN Agent.squad is server-owned"), squad);
                assertTrue(mallory.ask("SET " + agent + " Agent team 99").startsWith("ERR 3 FORBIDDEN"));
                String hp = mallory.ask("SET " + agent + " Health hp 0");
                assertTrue(hp.equals("OK 4") || hp.startsWith("ERR 4 NOT_FOUND"), hp);
                assertTrue(mallory.ask("SET " + other + " Projectile victim 12345").startsWith("ERR 5 FORBIDDEN"));
                assertTrue(mallory.ask("SET " + other + " Projectile state 1").startsWith("ERR 6 FORBIDDEN"));
                assertTrue(mallory.ask("SET " + agent + " Health hp -1").startsWith("ERR 7 BAD_VALUE"));

                // 2 000 x SPAWN 10000, pipelined: two waves fit under the cap, the rest are refused.
                mallory.sendRaw("SPAWN 10000\n".repeat(2_000));
                int ok = 0;
                for (int i = 0; i < 2_000; i++) {
                    String reply = mallory.nextReply();
                    assertNotNull(reply, "the server closed the connection");
                    if (reply.equals("OK " + (i + 8))) {
                        ok++;
                    } else {
                        assertTrue(reply.startsWith("ERR " + (i + 8) + " QUOTA the world holds about"), reply);
                    }
                }
                assertEquals(2, ok, "1 000 agents, their shots and 2 waves of 10 000 fit under a cap of 30 000; a third does not");
                try (LineClient other2 = new LineClient(run.port())) {
                    assertTrue(other2.ask("HELLO trent").startsWith("OK 1 "));
                    assertTrue(other2.ask("SPAWN 10000").startsWith("ERR 2 QUOTA"), "the cap is the world's");
                    assertTrue(other2.awaitState().startsWith("STATE "), "the run stopped pushing state");
                    assertEquals("OK 3", other2.ask("MOVE 1 5 5"));
                    other2.awaitInputsApplied(4); // the two waves answered OK have been spawned
                }
            }
        } finally {
            run.stop();
        }
        RunResult live = run.finish();
        assertTrue(live.entities() >= AGENTS + 20_000, "the two waves answered OK were not all spawned: " + live);
    }
}
