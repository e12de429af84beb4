package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.StaleEntityException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

class RelationsTest {
    record Position(float x, float y) {
    }

    private final World world = new World();
    private final Component<Position> pos = world.component(Position.class);
    private final Relation childOf = world.relations().childOf();
    private final Relation likes = world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);

    private long spawn(float x) {
        return world.spawn(new Position(x, 0));
    }

    @Test
    void childrenKeepTheirOrderAndReparentingMovesAChildToTheEnd() {
        long a = spawn(1);
        long b = spawn(2);
        long c1 = spawn(3);
        long c2 = spawn(4);
        long c3 = spawn(5);
        world.relations().add(c1, childOf, a);
        world.relations().add(c2, childOf, a);
        world.relations().add(c3, childOf, a);
        assertArrayEquals(new long[] {c1, c2, c3}, world.relations().children(a));
        assertTrue(world.has(c1, childOf.column()));
        assertEquals(a, world.getLong(c2, childOf.target()));
        world.relations().add(c1, childOf, b);
        world.relations().add(c1, childOf, a);
        assertArrayEquals(new long[] {c2, c3, c1}, world.relations().children(a));
        assertArrayEquals(new long[0], world.relations().children(b));
        assertEquals(a, world.relations().parent(c1));
        assertFalse(world.relations().add(c1, childOf, a), "same parent again changes nothing");
        assertTrue(world.relations().remove(c2, childOf, a));
        assertFalse(world.has(c2, childOf.column()), "the marker goes with the last pair");
        assertEquals(Entity.NULL, world.relations().parent(c2));
        assertEquals(1f, world.get(a, pos).x(), "rows of holders keep their values");
    }

    @Test
    void despawningAParentDespawnsItsDescendantsBreadthFirst() {
        long root = spawn(0);
        long k1 = spawn(1);
        long k2 = spawn(2);
        long g1 = spawn(3);
        long other = spawn(4);
        world.relations().add(k1, childOf, root);
        world.relations().add(k2, childOf, root);
        world.relations().add(g1, childOf, k1);
        world.relations().add(other, likes, g1);
        world.despawn(root);
        assertFalse(world.isAlive(root));
        assertFalse(world.isAlive(k1));
        assertFalse(world.isAlive(k2));
        assertFalse(world.isAlive(g1));
        assertTrue(world.isAlive(other), "Likes removes the pair, not the holder");
        assertFalse(world.has(other, likes.column()));
        assertEquals(0, world.relations().pairCount(childOf));
        assertEquals(0, world.relations().pairCount(likes));
        assertEquals(1, world.entityCount());
    }

    @Test
    void aMultiTargetRelationKeepsItsFirstTargetInTheMarker() {
        long fan = spawn(0);
        long x = spawn(1);
        long y = spawn(2);
        world.relations().add(fan, likes, x);
        world.relations().add(fan, likes, y);
        assertArrayEquals(new long[] {x, y}, world.relations().targets(fan, likes));
        assertEquals(x, world.getLong(fan, likes.target()));
        world.relations().remove(fan, likes, x);
        assertEquals(y, world.getLong(fan, likes.target()));
        world.despawn(y);
        assertFalse(world.has(fan, likes.column()));
    }

    @Test
    void cyclesAndSelfPairsAreRefusedAndChangeNothing() {
        long a = spawn(0);
        long b = spawn(1);
        long c = spawn(2);
        world.relations().add(b, childOf, a);
        world.relations().add(c, childOf, b);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> world.relations().add(a, childOf, c));
        assertTrue(e.getMessage().contains("cycle"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> world.relations().add(a, childOf, a));
        assertEquals(Entity.NULL, world.relations().parent(a));
        assertEquals(2, world.relations().pairCount(childOf));
    }

    @Test
    void theMarkerColumnCannotBeChangedRoundTheStore() {
        long a = spawn(0);
        long b = spawn(1);
        world.relations().add(b, childOf, a);
        assertThrows(IllegalArgumentException.class, () -> world.remove(b, childOf.column()));
        assertThrows(IllegalArgumentException.class, () -> world.add(a, childOf.column()));
        assertThrows(IllegalArgumentException.class, () -> world.setLong(b, childOf.target(), a));
        assertThrows(IllegalArgumentException.class, () -> world.spawn(new Pair(a)));
        assertThrows(IllegalArgumentException.class,
                () -> world.query().with(childOf.column()).build().forEachChunk(v -> v.writeLongs(childOf.target())));
        assertEquals(a, world.relations().parent(b));
        CommandBuffer cmd = new CommandBuffer(0);
        assertThrows(IllegalArgumentException.class, () -> cmd.add(a, childOf.column()));
        assertThrows(StaleEntityException.class, () -> {
            world.despawn(a);
            world.relations().add(b, childOf, a);
        });
    }

    @Test
    void aTemplateRefusesTheMarkerColumnWhenBuiltNotHalfWayThroughAPlayback() {
        long ship = spawn(0);
        Template.Builder crew = Template.named("Crew").with(pos, new Position(1, 1));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> crew.with(childOf.column()));
        assertTrue(refused.getMessage().startsWith("template 'Crew' with ChildOf refused"), refused.getMessage());
        assertTrue(refused.getMessage().contains("commands.addPair"), refused.getMessage());
        // What the refusal leads to: the template, then the pair; every command of the buffer applies.
        Template ok = crew.build();
        CommandBuffer cmd = new CommandBuffer(0);
        long first = cmd.spawn();
        cmd.add(first, pos, new Position(5, 5));
        long member = cmd.spawn(ok);
        cmd.addPair(member, childOf, ship);
        world.apply(cmd);
        assertEquals(3, world.entityCount());
        assertEquals(1, world.relations().children(ship).length);
        assertEquals(new Position(1, 1), world.get(world.relations().children(ship)[0], pos));
    }

    @Test
    void commandBuffersMakePairsWithProvisionalParentsInPlaybackOrder() {
        CommandBuffer cmd = new CommandBuffer(0);
        long parent = cmd.spawn();
        cmd.add(parent, pos, new Position(7, 0));
        long child = cmd.spawn();
        cmd.add(child, pos, new Position(8, 0));
        cmd.addPair(child, childOf, parent);
        long stray = spawn(9);
        cmd.addPair(stray, childOf, parent);
        cmd.addPair(stray, childOf, stray);
        PlaybackReport report = new CommandPlayback().strict(false).apply(world, List.of(cmd));
        assertEquals(1, report.count(CommandKind.ADD, CommandOutcome.REFUSED));
        long p = world.relations().parent(stray);
        assertTrue(world.isAlive(p));
        assertEquals(7f, world.get(p, pos).x());
        long[] kids = world.relations().children(p);
        assertEquals(2, kids.length);
        assertEquals(8f, world.get(kids[0], pos).x());
        assertEquals(stray, kids[1]);

        CommandBuffer later = new CommandBuffer(0);
        later.despawn(p);
        later.addPair(stray, childOf, p); // the target died earlier in playback order: skipped
        report = new CommandPlayback().strict(false).apply(world, List.of(later));
        assertEquals(1, report.count(CommandKind.ADD, CommandOutcome.SKIPPED_DEAD));
        assertFalse(world.isAlive(stray));
        assertEquals(0, world.entityCount());
    }

    @Test
    void aPairSkippedForItsDeadTargetSaysTheTargetIsDeadNotTheHolder() {
        long holder = spawn(1);
        long target = spawn(2);
        CommandBuffer cmd = new CommandBuffer(0);
        cmd.despawn(target);
        cmd.addPair(holder, childOf, target);
        PlaybackReport report = new CommandPlayback().strict(false).apply(world, List.of(cmd));
        assertEquals(1, report.count(CommandKind.ADD, CommandOutcome.SKIPPED_DEAD));
        assertTrue(world.isAlive(holder));
        String m = report.messages().get(0);
        assertTrue(m.startsWith("add (ChildOf, *) on " + dev.orrery.ecs.component.Entity.toString(holder)
                + " skipped: its target " + dev.orrery.ecs.component.Entity.toString(target) + " is dead"), m);
    }

    @Test
    void theHierarchyIsBreadthFirstWithChildrenInOrder() {
        long r1 = spawn(0);
        long r2 = spawn(1);
        long a = spawn(2);
        long b = spawn(3);
        long c = spawn(4);
        long d = spawn(5);
        world.relations().add(b, childOf, r2);
        world.relations().add(a, childOf, r1);
        world.relations().add(d, childOf, a);
        world.relations().add(c, childOf, r1);
        Hierarchy h = world.relations().hierarchy(childOf);
        assertEquals(3, h.levels());
        long[] order = new long[h.size()];
        for (int i = 0; i < h.size(); i++) {
            order[i] = h.entity(i);
            if (h.parentSlot(i) >= 0) {
                assertEquals(world.relations().parent(h.entity(i)), h.entity(h.parentSlot(i)));
            }
        }
        assertArrayEquals(new long[] {r1, r2, a, c, b, d}, order);
        assertEquals(2, h.levelStart(1));
        assertEquals(5, h.levelEnd(1));
        assertThrows(IllegalArgumentException.class, () -> world.relations().hierarchy(likes));
    }

    @Test
    void slotOfFindsEverySlotInConstantTimeAndRefusesStrangersAndStaleIds() {
        long r1 = spawn(0);
        long a = spawn(1);
        long b = spawn(2);
        long d = spawn(3);
        long loner = spawn(4);
        world.relations().add(a, childOf, r1);
        world.relations().add(b, childOf, r1);
        world.relations().add(d, childOf, a);
        Hierarchy h = world.relations().hierarchy(childOf);
        for (int i = 0; i < h.size(); i++) {
            assertEquals(i, h.slotOf(h.entity(i)), "slot of " + Entity.toString(h.entity(i)));
        }
        assertEquals(3, h.slotOf(d));
        assertEquals(-1, h.slotOf(loner), "in no pair: not in the forest");
        assertEquals(-1, h.slotOf(Entity.NULL));
        assertEquals(-1, h.slotOf(Entity.of(1 << 20, 1)), "an index beyond any entity");
        assertEquals(-1, h.slotOf(Entity.of(-1, 1)), "a negative index");
        assertEquals(-1, h.slotOf(Entity.of(Entity.index(d), Entity.generation(d) + 1)), "a newer id of d's index");

        world.relations().add(d, childOf, b);   // reparent twice: the slots move
        world.relations().add(b, childOf, a);   // b a level deeper, d with it
        h = world.relations().hierarchy(childOf);
        assertArrayEquals(new long[] {r1, a, b, d}, new long[] {h.entity(0), h.entity(1), h.entity(2), h.entity(3)});
        assertEquals(2, h.slotOf(b));
        assertEquals(3, h.slotOf(d));

        world.despawn(d);
        long reuse = Entity.NULL;
        for (int k = 0; k < 10_000 && reuse == Entity.NULL; k++) {
            long e = spawn(9);
            if (Entity.index(e) == Entity.index(d)) {
                reuse = e;
            }
        }
        assertTrue(reuse != Entity.NULL, "the world reused d's index");
        world.relations().add(reuse, childOf, r1);
        h = world.relations().hierarchy(childOf);
        assertEquals(-1, h.slotOf(d), "d is stale: its index names a newer entity now");
        assertEquals(reuse, h.entity(h.slotOf(reuse)));
        assertEquals(1, h.levelEnd(0) - h.levelStart(0));
        assertEquals(2, h.slotOf(reuse), "r1's children: a, then the new one");
    }

    @Test
    void forEachLevelVisitsEverySlotOnceLevelAfterLevelAndSplitsOnlyLargeLevels() {
        long root = spawn(0);
        long[] kids = new long[40];
        for (int i = 0; i < kids.length; i++) {
            kids[i] = spawn(1);
            world.relations().add(kids[i], childOf, root);
            for (int g = 0; g < 3; g++) {
                world.relations().add(spawn(2), childOf, kids[i]);
            }
        }
        Hierarchy h = world.relations().hierarchy(childOf);
        assertEquals(161, h.size());
        int[] depth = new int[h.size()];
        int[] visits = new int[h.size()];
        List<Integer> levelCalls = new ArrayList<>();
        int[] tasksAsked = new int[1];
        // Runs the tasks backwards on this thread: a level's tasks in an order no loop has.
        ParallelFor backwards = new ParallelFor() {
            @Override
            public int threads() {
                return 2;
            }

            @Override
            public void forEach(int tasks, IntConsumer task) {
                tasksAsked[0] += tasks;
                for (int t = tasks - 1; t >= 0; t--) {
                    task.accept(t);
                }
            }
        };
        h.forEachLevel(backwards, 16, (level, from, to) -> {
            levelCalls.add(level);
            assertTrue(h.levelStart(level) <= from && to <= h.levelEnd(level), "a task stays in its level");
            for (int i = from; i < to; i++) {
                visits[i]++;
                int p = h.parentSlot(i);
                assertTrue(p < 0 || visits[p] == 1, "slot " + i + "'s parent " + p + " was done first");
                depth[i] = p < 0 ? 0 : depth[p] + 1;
            }
        });
        for (int i = 0; i < h.size(); i++) {
            assertEquals(1, visits[i], "slot " + i + " visited once");
        }
        assertEquals(0, depth[h.slotOf(root)]);
        assertEquals(1, depth[h.slotOf(kids[7])]);
        assertEquals(2, depth[h.slotOf(world.relations().children(kids[7])[2])]);
        // The root's level (1 slot) runs alone on the caller; the 40 kids split into
        // min(2 threads * 4, ceil(40 / 16)) = 3 tasks; the 120 grandchildren into min(8, 8) = 8.
        assertEquals(11, tasksAsked[0]);
        assertEquals(List.of(0, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2), levelCalls, "level after level, never back");
    }

    @Test
    void queriesMatchAPairOrAnyTargetAndReadTheTarget() {
        long a = spawn(0);
        long b = spawn(1);
        long[] kids = new long[6];
        for (int i = 0; i < kids.length; i++) {
            kids[i] = spawn(10 + i);
            world.relations().add(kids[i], childOf, i % 2 == 0 ? a : b);
        }
        dev.orrery.ecs.Query ofA = world.query().with(pos).pair(childOf, a).build();
        java.util.List<Long> seen = new java.util.ArrayList<>();
        ofA.forEach((view, row) -> seen.add(view.entity(row)));
        assertEquals(List.of(kids[0], kids[2], kids[4]), seen);
        assertEquals(3, ofA.count());
        assertThrows(IllegalStateException.class, () -> ofA.forEachChunk(view -> { }));
        dev.orrery.ecs.Query anyParent = world.query().with(childOf.column()).build();
        assertEquals(6, anyParent.count());
        long[] targets = new long[6];
        int[] n = {0};
        anyParent.forEachChunk(view -> {
            long[] t = view.readLongs(childOf.target());
            for (int r = 0; r < view.size(); r++) {
                targets[n[0]++] = t[r];
            }
        });
        assertArrayEquals(new long[] {a, b, a, b, a, b}, targets);
        world.relations().add(kids[1], childOf, a);
        assertEquals(4, ofA.count());
    }

    @Test
    void observersSeeEveryDespawnOfACascadeAndTheMarkerColumnsChanges() {
        long root = spawn(0);
        long k1 = spawn(1);
        long k2 = spawn(2);
        long fan = spawn(3);
        world.relations().add(k1, childOf, root);
        world.relations().add(k2, childOf, k1);
        world.relations().add(fan, likes, k2);
        List<Long> despawned = new java.util.ArrayList<>();
        List<Long> lostPair = new java.util.ArrayList<>();
        world.observe(pos).onDespawn((w, e, cmd) -> despawned.add(e));
        world.observe(likes.column()).onRemove((w, e, cmd) -> lostPair.add(e));
        world.despawn(root);
        assertEquals(List.of(root, k1, k2), despawned, "breadth first, each once");
        assertEquals(List.of(fan), lostPair);
    }

    @Test
    void pairsCannotChangeWhileAQueryIterates() {
        long a = spawn(0);
        long b = spawn(1);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> world.query().with(pos).build().forEachChunk(v -> world.relations().add(b, childOf, a)));
        assertEquals(Entity.NULL, world.relations().parent(b), e.getMessage());
    }

    @Test
    void anAcyclicRelationWithSeveralTargetsRefusesACycleThroughADiamond() {
        Relation dependsOn = world.relations().register("DependsOn", false, true, Cleanup.REMOVE_PAIR);
        long top = spawn(0);
        long left = spawn(1);
        long right = spawn(2);
        long bottom = spawn(3);
        world.relations().add(left, dependsOn, top);
        world.relations().add(right, dependsOn, top);
        world.relations().add(bottom, dependsOn, left);
        world.relations().add(bottom, dependsOn, right);
        assertThrows(IllegalArgumentException.class, () -> world.relations().add(top, dependsOn, bottom));
        assertTrue(world.relations().add(top, dependsOn, spawn(4)), "a pair closing no cycle is fine");
        assertEquals(5, world.relations().pairCount(dependsOn));
    }
}
