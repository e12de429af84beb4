package dev.orrery.demo.arena;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The grid and the separation scan against brute force over a random world: every cell
 * holds exactly its agents in query order, slots map back to entities, the nearest-enemy
 * look-up and the separation push equal a plain loop over the same agents.
 */
class SpatialGridTest {
    record Pos(float x, float y) {
    }

    record Team(int team) {
    }

    static final float SIDE = 40f;
    static final float CELL = 4f;

    private final World world = new World(4096);
    private final Component<Pos> pos = world.component(Pos.class);
    private final Component<Team> team = world.component(Team.class);
    private final Field px = pos.field("x");
    private final Field py = pos.field("y");
    private final Field tm = team.field("team");
    private final Query agents = world.query().with(pos, team).build();

    /** One agent as the query lists it. */
    record Agent(long id, float x, float y, int team) {
    }

    private List<Agent> populate(long seed, int n) {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            // a few exactly on cell borders and at the far edge, the rest anywhere
            float x = i % 17 == 0 ? CELL * rnd.nextInt(10) : (float) rnd.nextDouble(SIDE);
            float y = i % 19 == 0 ? Math.nextDown(SIDE) : (float) rnd.nextDouble(SIDE);
            world.entity().with(pos, new Pos(x, y)).with(team, new Team(rnd.nextInt(3))).spawn();
        }
        // holes and recycled ids, so query order is not spawn order
        List<Long> ids = new ArrayList<>();
        agents.forEachChunk(c -> {
            for (int r = 0; r < c.size(); r++) {
                ids.add(c.entity(r));
            }
        });
        for (int i = 0; i < ids.size(); i += 7) {
            world.despawn(ids.get(i));
        }
        for (int i = 0; i < n / 10; i++) {
            world.entity().with(pos, new Pos((float) rnd.nextDouble(SIDE), (float) rnd.nextDouble(SIDE)))
                    .with(team, new Team(rnd.nextInt(3))).spawn();
        }
        List<Agent> listed = new ArrayList<>();
        agents.forEachChunk(c -> {
            float[] x = c.readFloats(px);
            float[] y = c.readFloats(py);
            int[] t = c.readInts(tm);
            for (int r = 0; r < c.size(); r++) {
                listed.add(new Agent(c.entity(r), x[r], y[r], t[r]));
            }
        });
        return listed;
    }

    private SpatialGrid built() {
        SpatialGrid g = new SpatialGrid(SIDE, CELL);
        g.rebuild(agents, px, py, tm);
        return g;
    }

    @Test
    void shouldHoldEveryAgentInItsCellInQueryOrder() {
        List<Agent> all = populate(1, 600);
        SpatialGrid g = built();
        assertEquals(all.size(), g.size());
        int cols = g.columns();
        for (int cy = 0; cy < cols; cy++) {
            for (int cx = 0; cx < cols; cx++) {
                List<Long> expected = new ArrayList<>();
                for (Agent a : all) {
                    if (g.cellCoordinate(a.x()) == cx && g.cellCoordinate(a.y()) == cy) {
                        expected.add(a.id());
                    }
                }
                List<Long> actual = new ArrayList<>();
                for (int s = g.start(cx, cy); s < g.end(cx, cy); s++) {
                    actual.add(g.entity(s));
                }
                assertEquals(expected, actual, "cell " + cx + "," + cy);
            }
        }
        for (Agent a : all) {
            int slot = g.slotOfIndex(Entity.index(a.id()));
            assertEquals(a.id(), g.entity(slot));
            assertEquals(a.x(), g.x(slot));
            assertEquals(a.y(), g.y(slot));
            assertEquals(a.team(), g.team(slot));
        }
        assertEquals(-1, g.slotOfIndex(1 << 20), "an index no agent has");
    }

    @Test
    void shouldFindTheNearestEnemyAsAPlainLoopDoes() {
        List<Agent> all = populate(2, 800);
        SpatialGrid g = built();
        SplittableRandom rnd = new SplittableRandom(3);
        int found = 0;
        for (int q = 0; q < 2000; q++) {
            float x = (float) rnd.nextDouble(SIDE);
            float y = (float) rnd.nextDouble(SIDE);
            int myTeam = rnd.nextInt(3);
            float radius = q % 2 == 0 ? CELL : 0.8f;
            long expected = 0L;
            float best = radius * radius;
            for (Agent a : all) { // ties keep the first in grid order, so compare distances only
                float dx = a.x() - x;
                float dy = a.y() - y;
                float d2 = dx * dx + dy * dy;
                if (a.team() != myTeam && d2 < best) {
                    best = d2;
                    expected = a.id();
                }
            }
            int slot = g.nearestEnemy(x, y, myTeam, radius);
            if (expected == 0L) {
                assertEquals(-1, slot, "query " + q);
            } else {
                found++;
                float dx = g.x(slot) - x;
                float dy = g.y(slot) - y;
                assertEquals(best, dx * dx + dy * dy, "query " + q);
                assertTrue(g.team(slot) != myTeam);
            }
        }
        assertTrue(found > 500, "the queries should mostly find someone: " + found);
    }

    @Test
    void shouldComputeTheSeparationPushOfTheScannedRowsOnly() {
        List<Agent> all = populate(4, 900);
        SpatialGrid g = built();
        float radius = 1.2f;
        Separation sep = new Separation(radius, 1_000); // no cap: every neighbour in range counts
        assertEquals(g.columns(), sep.prepare(g));
        sep.scan(g, 0, g.columns(), 2, 1);
        int checked = 0;
        for (Agent a : all) {
            int slot = g.slotOfIndex(Entity.index(a.id()));
            if (g.cellCoordinate(a.y()) % 2 != 1) {
                assertEquals(0f, sep.x(slot), "rows of the other slice are not written");
                assertEquals(0f, sep.y(slot));
                continue;
            }
            double sx = 0;
            double sy = 0;
            for (Agent b : all) {
                float dx = a.x() - b.x();
                float dy = a.y() - b.y();
                float d2 = dx * dx + dy * dy;
                if (d2 < radius * radius && d2 > 1e-6f) {
                    sx += dx / d2;
                    sy += dy / d2;
                }
            }
            assertEquals(sx, sep.x(slot), 1e-3 * (1 + Math.abs(sx)), "agent " + a);
            assertEquals(sy, sep.y(slot), 1e-3 * (1 + Math.abs(sy)), "agent " + a);
            checked++;
        }
        assertTrue(checked > 200, "too few agents in the scanned slice: " + checked);
    }

    @Test
    void shouldCountOnlyTheFirstNeighboursUpToTheCap() {
        List<Agent> all = populate(5, 900);
        SpatialGrid g = built();
        Separation capped = new Separation(CELL, 1); // the first agent scanned is the one that counts
        capped.prepare(g);
        capped.scan(g, 0, g.columns(), 1, 0);
        int pushed = 0;
        for (Agent a : all) {
            int slot = g.slotOfIndex(Entity.index(a.id()));
            int gx = g.cellCoordinate(a.x() - CELL);
            int gy = g.cellCoordinate(a.y() - CELL);
            // the one neighbour counted: the first slot of the lowest row with any agent in reach
            int only = -1;
            for (int row = gy; only < 0 && row <= g.cellCoordinate(a.y() + CELL); row++) {
                int s0 = g.start(gx, row);
                if (s0 < g.end(g.cellCoordinate(a.x() + CELL), row)) {
                    only = s0;
                }
            }
            float ex = 0;
            float ey = 0;
            if (only >= 0) {
                float dx = a.x() - g.x(only);
                float dy = a.y() - g.y(only);
                float d2 = dx * dx + dy * dy;
                if (d2 < CELL * CELL && d2 > 1e-6f) {
                    ex = dx * (1f / d2);
                    ey = dy * (1f / d2);
                }
            }
            assertEquals(ex, capped.x(slot), 1e-4f * (1 + Math.abs(ex)), "agent " + a);
            assertEquals(ey, capped.y(slot), 1e-4f * (1 + Math.abs(ey)), "agent " + a);
            pushed += ex != 0 || ey != 0 ? 1 : 0;
        }
        assertTrue(pushed > 50, "too few agents had their one neighbour in range: " + pushed);
    }
}
