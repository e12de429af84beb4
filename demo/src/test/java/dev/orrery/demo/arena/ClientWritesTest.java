package dev.orrery.demo.arena;

import static dev.orrery.demo.arena.ArenaFixtures.clientInputs;
import static dev.orrery.demo.arena.ArenaFixtures.firstEntity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.net.ClientCommand;
import dev.orrery.demo.net.ErrorCode;
import dev.orrery.demo.net.Refusal;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.InvalidFieldValueException;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.Simulation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The attacks of issue 19 that used to crash the simulation, sent as journaled {@code SET}
 * inputs straight into a running arena: the path a replay of an old or hand-edited journal
 * takes, with no server in front to refuse them.
 */
class ClientWritesTest {
    private static final long CLIENT = 7;

    /** Replies by request number: "OK" or the error code. */
    private final RecordingReplies recording = new RecordingReplies(false);
    private final Map<Long, String> replies = recording.byRequest;

    @Test
    void shouldRefuseEveryWriteThatUsedToCrashASystemAndKeepTicking() {
        Arena arena = new Arena(new ArenaConfig(2_000, 2, 3));
        attack(arena, (agent, projectile) -> List.of(
                set(1, agent, "Agent", "squad", "1000"),
                set(2, agent, "Agent", "team", "99"),
                set(3, agent, "Health", "hp", "0"),
                set(4, projectile, "Projectile", "victim", "123456789"),
                set(5, projectile, "Projectile", "state", "1"),
                set(6, projectile, "Projectile", "state", "7"),
                set(7, agent, "Velocity", "x", "3e38"),
                set(8, agent, "Position", "x", "-5"),
                set(9, agent, "Position", "y", "1e9"),
                set(10, agent, "Primary", "reload", "0"),
                set(11, agent, "Secondary", "damage", "-1e6"),
                set(12, agent, "Health", "hp", "true")));
        assertEquals(Map.ofEntries(Map.entry(1L, "FORBIDDEN"), Map.entry(2L, "FORBIDDEN"), Map.entry(3L, "OK"),
                Map.entry(4L, "FORBIDDEN"), Map.entry(5L, "FORBIDDEN"), Map.entry(6L, "FORBIDDEN"),
                Map.entry(7L, "FORBIDDEN"), Map.entry(8L, "BAD_VALUE"), Map.entry(9L, "BAD_VALUE"),
                Map.entry(10L, "BAD_VALUE"), Map.entry(11L, "BAD_VALUE"), Map.entry(12L, "BAD_VALUE")), replies);
    }

    @Test
    void shouldCheckTheAllowListAtTheBoundaryAndTheValuesInTheWorld() {
        Arena arena = new Arena(new ArenaConfig(2_000, 2, 3));
        ClientWrites writes = arena.writes();
        Refusal squad = writes.check("Agent", "squad");
        assertNotNull(squad);
        assertEquals(ErrorCode.FORBIDDEN, squad.code());
        assertTrue(squad.message().startsWith("Agent.squad is server-owned") && squad.message().contains("Health.hp"),
                squad.message());
        assertEquals(ErrorCode.FORBIDDEN, writes.check("Projectile", "victim").code());
        assertEquals(ErrorCode.FORBIDDEN, writes.check("Bogus", "x").code());
        assertNull(writes.check("Health", "hp"));
        assertNull(writes.check("Secondary", "damage"));
        arena.populate();
        long agent = firstEntity(arena.agents);
        InvalidFieldValueException range = assertThrows(InvalidFieldValueException.class,
                () -> arena.world().setProperty(agent, "Health", "hp", -1f));
        assertTrue(range.getMessage().contains("Health.hp takes a number from 0 to 1000000"), range.getMessage());
        float edge = Math.nextDown(new ArenaConfig(2_000, 2, 3).side());
        arena.world().setProperty(agent, "Position", "x", edge);
        assertThrows(InvalidFieldValueException.class, () -> arena.world().setProperty(agent, "Position", "x",
                (float) (edge + 1e-3)), "a value that rounds to the arena's side lies outside the grid");
        arena.world().setProperty(agent, "Health", "hp", 100_000f);
        arena.world().setProperty(agent, "Secondary", "damage", 40f);
        assertEquals(40f, arena.world().getProperty(agent, "Secondary", "damage"));
    }

    /**
     * With the allow-list opened to every field, each write of issue 19 that crashed a system
     * is refused {@code BAD_VALUE} by the world's field rules, nothing is written, and the
     * arena keeps ticking: the ranges alone keep the systems safe.
     */
    @Test
    void shouldRefuseEachCrashingValueByTheFieldRulesEvenWithEveryFieldOpen() {
        Arena arena = new Arena(new ArenaConfig(2_000, 2, 3));
        List<Field> every = new ArrayList<>();
        for (Component<?> c : List.of(arena.position, arena.velocity, arena.agent, arena.health, arena.primary,
                arena.secondary, arena.target, arena.projectile)) {
            every.addAll(c.fields());
        }
        arena.allowWrites(new ClientWrites(every));
        attack(arena, (agent, projectile) -> List.of(
                set(1, agent, "Agent", "squad", "1000"),
                set(2, agent, "Agent", "team", "99"),
                set(3, agent, "Agent", "squad", "-1"),
                set(4, projectile, "Projectile", "victim", "123456789"),
                set(5, projectile, "Projectile", "victim", Long.toString(projectile)),
                set(6, projectile, "Projectile", "state", "7"),
                set(7, agent, "Velocity", "x", "3e38"),
                set(8, agent, "Target", "x", "-1"),
                set(9, agent, "Target", "entity", "123456789"),
                set(10, projectile, "Projectile", "team", "99"),
                set(11, agent, "Agent", "team", "1"),
                set(12, agent, "Health", "hp", "0")));
        Map<Long, String> expected = new java.util.HashMap<>();
        for (long r = 1; r <= 10; r++) {
            expected.put(r, "BAD_VALUE");
        }
        expected.put(11L, "OK"); // agent of team 1 now; at hp 0 it respawns from the team-1 template
        expected.put(12L, "OK");
        assertEquals(expected, replies);
    }

    /**
     * Populates {@code arena}, ticks until a projectile flies, sends the {@code SET}s
     * {@code attacks} makes for the first agent and that projectile as journaled inputs, and
     * runs 60 more ticks (which used to end in SystemFailedException: steer, reap or
     * damage). The agent count must hold: a refused write kills nobody.
     */
    private void attack(Arena arena,
            java.util.function.BiFunction<Long, Long, List<ClientCommand.SetProperty>> attacks) {
        arena.populate();
        arena.replies(recording);
        byte[] buf = new byte[InputCodec.MAX_PAYLOAD];
        try (Simulation sim = arena.build(2, 0); InputPipeline inputs = clientInputs()) {
            sim.inputs(inputs);
            long projectile = 0;
            for (int t = 0; t < 240 && projectile == 0; t++) {
                sim.tick();
                projectile = firstEntity(arena.projectiles);
            }
            assertTrue(projectile != 0, "no projectile in flight to attack");
            for (ClientCommand.SetProperty attack : attacks.apply(firstEntity(arena.agents), projectile)) {
                int n = InputCodec.encode(attack, buf);
                assertTrue(inputs.tryPublish((int) CLIENT, InputCodec.SET, buf, 0, n));
            }
            for (int t = 0; t < 60; t++) {
                sim.tick();
            }
            assertEquals(2_000, arena.agentCount(), "the agent set to hp 0 respawns one for one");
        }
    }

    private static ClientCommand.SetProperty set(long request, long entity, String component, String field,
            String value) {
        return new ClientCommand.SetProperty(CLIENT, request, entity, component, field, value);
    }
}
