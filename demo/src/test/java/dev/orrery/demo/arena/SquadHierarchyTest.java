package dev.orrery.demo.arena;

import static dev.orrery.demo.arena.ArenaFixtures.clientInputs;
import static dev.orrery.demo.arena.ArenaFixtures.firstEntity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.net.ClientCommand;
import dev.orrery.demo.net.ErrorCode;
import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.Relations;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.Simulation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The arena's squads as a {@code ChildOf} hierarchy: squad entities are the parents, agents
 * their children, made at spawn, client spawn and respawn; steering follows the parent.
 */
class SquadHierarchyTest {
    private static final long CLIENT = 5;
    private static final int SQUADS = SquadTargets.SQUADS;

    /** Replies by request number: "OK", "OK value" or the error code. */
    private final RecordingReplies recording = new RecordingReplies(true);
    private final Map<Long, String> replies = recording.byRequest;

    /**
     * After every one of 240 ticks (agents dying and coming back, a client's SPAWN on tick 100):
     * every live agent is a child of exactly the entity of its squad ({@code Agent.squad}), the
     * marker column says the same, each squad entity's children are exactly its agents, the
     * per-squad counts are those at the start (plus the client's spawns), and the hierarchy is
     * two levels: the squads, then every agent.
     */
    @Test
    void shouldKeepEveryAgentTheChildOfItsSquadEntityThroughRespawnsAndSpawns() {
        Arena arena = new Arena(new ArenaConfig(3_000, 2, 11));
        arena.populate();
        arena.replies(recording);
        World world = arena.world();
        long[] squadIds = new long[SQUADS];
        for (int s = 0; s < SQUADS; s++) {
            squadIds[s] = arena.squadEntity(s);
            assertTrue(world.isAlive(squadIds[s]), "squad " + s + " has no entity");
            assertEquals(s, world.get(squadIds[s], arena.squad).number());
        }
        int[] expected = check(arena, squadIds, null, "after populate");
        int spawnedBefore = 0;
        byte[] buf = new byte[InputCodec.MAX_PAYLOAD];
        try (Simulation sim = arena.build(2, 0); InputPipeline inputs = clientInputs()) {
            sim.inputs(inputs);
            for (int t = 0; t < 240; t++) {
                if (t == 100) {
                    int n = InputCodec.encode(new ClientCommand.SpawnWave(CLIENT, 1, 50), buf);
                    assertTrue(inputs.tryPublish((int) CLIENT, InputCodec.SPAWN, buf, 0, n));
                }
                sim.tick();
                if (arena.stats().spawnedByClients() != spawnedBefore) {
                    spawnedBefore = (int) arena.stats().spawnedByClients();
                    expected = null; // the spawned agents joined squads drawn from the seed
                }
                int[] counts = check(arena, squadIds, expected, "after tick " + t);
                if (expected == null) {
                    expected = counts;
                }
            }
        }
        assertEquals(50, spawnedBefore, "the client's SPAWN was not applied");
        assertEquals(3_050, arena.agentCount());
        assertTrue(arena.stats().deaths() > 20, "too few respawns to test: " + arena.stats().deaths());
    }

    /**
     * Checks the invariants and returns the agents per squad; with {@code expected}, the
     * counts must equal it (respawns keep each agent's squad).
     */
    private static int[] check(Arena arena, long[] squadIds, int[] expected, String when) {
        World world = arena.world();
        Relations rel = world.relations();
        Field squadNumber = arena.agent.field("squad");
        Field marker = arena.childOf.target();
        List<Set<Long>> bySquad = new ArrayList<>();
        for (int s = 0; s < SQUADS; s++) {
            bySquad.add(new HashSet<>());
        }
        arena.agents.forEachChunk(c -> {
            int[] number = c.readInts(squadNumber);
            long[] up = c.readLongs(marker);
            for (int r = 0; r < c.size(); r++) {
                long e = c.entity(r);
                assertEquals(squadIds[number[r]], rel.parent(e), when + ": agent " + e + " of squad " + number[r]);
                assertEquals(squadIds[number[r]], up[r], when + ": the marker column of agent " + e);
                assertEquals(1, rel.targetCount(e, arena.childOf), when + ": agent " + e + " has several parents");
                bySquad.get(number[r]).add(e);
            }
        });
        int[] counts = new int[SQUADS];
        int total = 0;
        for (int s = 0; s < SQUADS; s++) {
            long[] children = rel.children(squadIds[s]);
            assertEquals(bySquad.get(s), asSet(children), when + ": the children of squad " + s);
            assertEquals(children.length, asSet(children).size(), when + ": squad " + s + " lists a child twice");
            counts[s] = children.length;
            total += counts[s];
            if (expected != null) {
                assertEquals(expected[s], counts[s], when + ": agents in squad " + s);
            }
            assertTrue(world.isAlive(squadIds[s]), when + ": squad entity " + s + " died");
        }
        assertEquals(arena.agentCount(), total, when);
        assertEquals(arena.agentCount(), rel.pairCount(arena.childOf), when + ": pairs other than agent -> squad");
        Hierarchy h = rel.hierarchy(arena.childOf);
        assertEquals(2, h.levels(), when);
        assertEquals(arena.agentCount(), h.levelEnd(1) - h.levelStart(1), when + ": agents in level 1");
        for (int slot = h.levelStart(0); slot < h.levelEnd(0); slot++) {
            long root = h.entity(slot);
            assertEquals(numberOf(squadIds, root), world.get(root, arena.squad).number(), when + ": root " + root);
        }
        return counts;
    }

    private static int numberOf(long[] squadIds, long entity) {
        for (int s = 0; s < squadIds.length; s++) {
            if (squadIds[s] == entity) {
                return s;
            }
        }
        throw new AssertionError("entity " + entity + " is not a squad entity");
    }

    private static Set<Long> asSet(long[] ids) {
        Set<Long> set = new HashSet<>();
        for (long id : ids) {
            set.add(id);
        }
        return set;
    }

    /**
     * Steering reads the parent, not {@code Agent.squad}: reparent one agent from the middle of
     * the arena to a squad sent to one corner and it walks there, away from the opposite corner
     * its own number's squad is sent to.
     */
    @Test
    void shouldSteerEachAgentToItsParentSquadsPoint() {
        Arena arena = new Arena(new ArenaConfig(2_000, 2, 4));
        arena.populate();
        World world = arena.world();
        float side = arena.config().side();
        long agent = middleAgent(arena, side);
        int own = world.get(agent, arena.agent).squad();
        int other = (own + 1) % SQUADS;
        world.set(agent, arena.health, new Health(1e6f)); // it must live through the walk
        world.relations().add(agent, arena.childOf, arena.squadEntity(other));
        byte[] buf = new byte[InputCodec.MAX_PAYLOAD];
        try (Simulation sim = arena.build(1, 0); InputPipeline inputs = clientInputs()) {
            sim.inputs(inputs);
            int n = InputCodec.encode(new ClientCommand.MoveSquad(CLIENT, 1, other, 1f, 1f), buf);
            assertTrue(inputs.tryPublish((int) CLIENT, InputCodec.MOVE, buf, 0, n));
            n = InputCodec.encode(new ClientCommand.MoveSquad(CLIENT, 2, own, side - 1, side - 1), buf);
            assertTrue(inputs.tryPublish((int) CLIENT, InputCodec.MOVE, buf, 0, n));
            Position start = world.get(agent, arena.position);
            sim.tick();
            Squad moved = world.get(arena.squadEntity(other), arena.squad);
            assertEquals(1f, moved.x(), "MOVE sets the squad entity's point");
            assertEquals(1f, moved.y());
            for (int t = 0; t < 240; t++) {
                sim.tick();
            }
            Position end = world.get(agent, arena.position);
            // 4 s at up to 3 units/s: most of 12 units towards the parent's corner
            assertTrue(distance(end, 1f, 1f) < distance(start, 1f, 1f) - 6,
                    "the reparented agent did not walk to its parent's point: " + start + " -> " + end);
            assertTrue(distance(end, side - 1, side - 1) > distance(start, side - 1, side - 1) + 6,
                    "the agent walked to its number's squad: " + start + " -> " + end);
            assertEquals(arena.squadEntity(other), world.relations().parent(agent));
        }
    }

    /** The agent nearest the middle of the arena, far from both corners. */
    private static long middleAgent(Arena arena, float side) {
        long[] best = {0};
        float[] bestD = {Float.MAX_VALUE};
        Field x = arena.position.field("x");
        Field y = arena.position.field("y");
        arena.agents.forEachChunk(c -> {
            for (int r = 0; r < c.size(); r++) {
                float d = Math.abs(c.readFloats(x)[r] - side / 2) + Math.abs(c.readFloats(y)[r] - side / 2);
                if (d < bestD[0]) {
                    bestD[0] = d;
                    best[0] = c.entity(r);
                }
            }
        });
        return best[0];
    }

    private static float distance(Position p, float x, float y) {
        return (float) Math.hypot(p.x() - x, p.y() - y);
    }

    /**
     * {@code ChildOf.target} is an agent's parent: a client can {@code GET} it, a {@code SET} of
     * it is refused {@code FORBIDDEN} with nothing changed, and the arena ticks on; no
     * allow-list can hold it.
     */
    @Test
    void shouldAnswerTheParentToGetAndRefuseAClientSetOfIt() {
        Arena arena = new Arena(new ArenaConfig(2_000, 2, 3));
        arena.populate();
        arena.replies(recording);
        World world = arena.world();
        long agent = firstEntity(arena.agents);
        world.set(agent, arena.health, new Health(1e6f)); // alive through the test
        long parent = world.relations().parent(agent);
        long elsewhere = arena.squadEntity((world.get(agent, arena.agent).squad() + 1) % SQUADS);
        arena.answer(new ClientCommand.GetProperty(CLIENT, 1, agent, "ChildOf", "target"), recording);
        assertEquals("OK " + parent, replies.get(1L));
        byte[] buf = new byte[InputCodec.MAX_PAYLOAD];
        try (Simulation sim = arena.build(2, 0); InputPipeline inputs = clientInputs()) {
            sim.inputs(inputs);
            int n = InputCodec.encode(new ClientCommand.SetProperty(CLIENT, 2, agent, "ChildOf", "target",
                    Long.toString(elsewhere)), buf);
            assertTrue(inputs.tryPublish((int) CLIENT, InputCodec.SET, buf, 0, n));
            n = InputCodec.encode(new ClientCommand.SetProperty(CLIENT, 3, arena.squadEntity(0), "Squad", "x", "1"),
                    buf);
            assertTrue(inputs.tryPublish((int) CLIENT, InputCodec.SET, buf, 0, n));
            sim.tick();
            assertEquals("FORBIDDEN", replies.get(2L));
            assertEquals("FORBIDDEN", replies.get(3L), "a squad's point moves by MOVE only");
            if (world.isAlive(agent)) {
                assertEquals(parent, world.relations().parent(agent));
                assertNotEquals(elsewhere, world.getLong(agent, arena.childOf.target()));
            }
            for (int t = 0; t < 60; t++) {
                sim.tick();
            }
            assertEquals(2_000, arena.agentCount(), "the arena went on");
        }
        assertEquals(ErrorCode.FORBIDDEN, arena.writes().check("ChildOf", "target").code());
        IllegalArgumentException marker = assertThrows(IllegalArgumentException.class,
                () -> new ClientWrites(List.of(arena.health.field("hp"), arena.childOf.target())));
        assertTrue(marker.getMessage().contains("ChildOf.target") && marker.getMessage().contains("relation"),
                marker.getMessage());
    }

    /** The same seed gives the same pairs in the same order on 1 and 2 workers: the hierarchy is in the hash. */
    @Test
    void shouldBuildTheSameHierarchyOnOneAndTwoWorkers() {
        Map<Integer, long[]> pairs = new HashMap<>();
        Map<Integer, Long> hashes = new HashMap<>();
        for (int workers = 1; workers <= 2; workers++) {
            Arena arena = new Arena(new ArenaConfig(3_000, 2, 8));
            arena.populate();
            try (Simulation sim = arena.build(workers, 0)) {
                for (int t = 0; t < 150; t++) {
                    sim.tick();
                }
            }
            assertTrue(arena.stats().deaths() > 0, "no respawn, nothing to compare");
            pairs.put(workers, arena.world().relations().pairs(arena.childOf));
            hashes.put(workers, arena.world().stateHash());
        }
        assertTrue(java.util.Arrays.equals(pairs.get(1), pairs.get(2)), "the pairs or their order differ");
        assertEquals(hashes.get(1), hashes.get(2));
    }
}
