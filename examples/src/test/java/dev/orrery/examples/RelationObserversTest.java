package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.Pair;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Observer hooks on a relation's marker column, from user code (another module): the value an
 * {@code onRemove} hook gets is a public {@link Pair} whose target it can read, and
 * {@code onSet} fires when the marker's (first) target changes, reading the new one.
 */
class RelationObserversTest {
    record Position(float x, float y) {}

    @Test
    void onRemoveOfAMarkerHandsThePairWhoseTargetTheHookCanRead() {
        World world = new World();
        world.component(Position.class);
        Relation childOf = world.relations().childOf();
        Component<Pair> marker = childOf.column();
        List<String> seen = new ArrayList<>();
        world.observe(marker).onRemove((w, e, last, commands) -> seen.add("orphaned from " + last.target()));
        long parent = world.spawn(new Position(0, 0));
        long child = world.spawn(new Position(1, 0));
        world.relations().add(child, childOf, parent);
        world.relations().remove(child, childOf, parent);
        assertEquals(List.of("orphaned from " + parent), seen);
    }

    @Test
    void onSetOfAnExclusiveMarkerFiresOnReparentingAndReadsTheNewTarget() {
        World world = new World();
        world.component(Position.class);
        Relation childOf = world.relations().childOf();
        List<String> seen = new ArrayList<>();
        world.observe(childOf.column())
                .onAdd((w, e, commands) -> seen.add("add " + w.get(e, childOf.column()).target()))
                .onSet((w, e, commands) -> seen.add("set " + w.get(e, childOf.column()).target()))
                .onRemove((w, e, last, commands) -> seen.add("remove " + last.target()));
        long a = world.spawn(new Position(0, 0));
        long b = world.spawn(new Position(1, 0));
        long child = world.spawn(new Position(2, 0));
        world.relations().add(child, childOf, a);
        world.relations().add(child, childOf, b);                 // reparent: onSet, no onRemove/onAdd
        world.relations().add(child, childOf, b);                 // the same parent: no change, no hook
        assertEquals(List.of("add " + a, "set " + b), seen);
    }

    @Test
    void onSetOfAMarkerWithSeveralTargetsFiresOnlyWhenTheFirstTargetChanges() {
        World world = new World();
        world.component(Position.class);
        Relation likes = world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        List<String> seen = new ArrayList<>();
        world.observe(likes.column())
                .onAdd((w, e, commands) -> seen.add("add " + w.get(e, likes.column()).target()))
                .onSet((w, e, commands) -> seen.add("set " + w.get(e, likes.column()).target()))
                .onRemove((w, e, last, commands) -> seen.add("remove " + last.target()));
        long fan = world.spawn(new Position(0, 0));
        long bob = world.spawn(new Position(1, 0));
        long carol = world.spawn(new Position(2, 0));
        world.relations().add(fan, likes, bob);                   // the marker arrives: onAdd
        world.relations().add(fan, likes, carol);                 // a second pair: the marker keeps bob
        world.relations().remove(fan, likes, bob);                // the first goes: carol is first now
        world.despawn(carol);                                     // REMOVE_PAIR: the last pair goes
        assertEquals(List.of("add " + bob, "set " + carol, "remove " + carol), seen);
    }

    @Test
    void thePublicPairTypeStillWritesNoMarkerRoundTheRelationStore() {
        World world = new World();
        world.component(Position.class);
        Relation childOf = world.relations().childOf();
        long parent = world.spawn(new Position(0, 0));
        long child = world.spawn(new Position(1, 0));
        long stranger = world.spawn(new Position(2, 0));
        world.relations().add(child, childOf, parent);
        long hash = world.stateHash();
        String asComponent = assertThrows(IllegalArgumentException.class, () -> world.component(Pair.class)).getMessage();
        assertTrue(asComponent.contains("world.relations().register"), asComponent);
        String set = assertThrows(IllegalArgumentException.class,
                () -> world.set(child, childOf.column(), new Pair(stranger))).getMessage();
        assertTrue(set.contains("world.relations().add(holder, ChildOf, target)"), set);
        String add = assertThrows(IllegalArgumentException.class,
                () -> world.add(stranger, childOf.column(), new Pair(parent))).getMessage();
        assertTrue(add.contains("world.relations().add(holder, ChildOf, target)"), add);
        assertEquals(hash, world.stateHash(), "nothing changed");
        assertEquals(parent, world.relations().parent(child));
    }
}
