package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.ecs.component.Entity;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A {@code removePair} that finds no pair to remove is described by the pair it names. The
 * report said "remove (Likes, *) from 2v1: the entity does not hold it" of a holder that did
 * hold (Likes, *), only not towards that target; and a pair whose target an earlier despawn of
 * the same playback took was counted as missing, where docs/relations-and-hierarchy.md says a
 * pair command on a dead target is skipped, as an {@code addPair} on one is.
 */
class RemovePairNotesTest {
    record Pos(float x) {
    }

    @Test
    void aPairTheHolderDoesNotHoldIsNamedWithItsTarget() {
        World world = new World();
        world.component(Pos.class);
        Relation likes = world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        long alice = world.spawn(new Pos(0)), bob = world.spawn(new Pos(1)), carol = world.spawn(new Pos(2));
        world.relations().add(alice, likes, bob);
        CommandBuffer commands = new CommandBuffer(0);
        commands.removePair(alice, likes, carol);
        PlaybackReport report = world.apply(commands);
        assertEquals(1, report.removedMissing());
        assertEquals(List.of("remove pair (Likes, " + Entity.toString(carol) + ") from " + Entity.toString(alice)
                + ": the entity holds no such pair (it holds 1 other Likes pair) "
                + "(recorded by code outside a schedule, applied with world.apply)"), report.messages());
        assertArrayEquals(new long[] {bob}, world.relations().targets(alice, likes));
    }

    @Test
    void aPairWhoseTargetDiedEarlierInThePlaybackIsSkippedAsDead() {
        World world = new World();
        world.component(Pos.class);
        Relation likes = world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        long alice = world.spawn(new Pos(0)), bob = world.spawn(new Pos(1));
        world.relations().add(alice, likes, bob);
        CommandBuffer commands = new CommandBuffer(0);
        commands.despawn(bob);
        commands.removePair(alice, likes, bob);
        PlaybackReport report = world.apply(commands);
        assertEquals(1, report.skippedDead());
        assertEquals(0, report.removedMissing());
        assertEquals(List.of("remove (Likes, *) on " + Entity.toString(alice) + " skipped: its target "
                + Entity.toString(bob) + " is dead (recorded by code outside a schedule, applied with "
                + "world.apply)"), report.messages());
        assertEquals(0, world.relations().targetCount(alice, likes), "the despawn took the pair (REMOVE_PAIR)");
    }
}
