package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import org.junit.jupiter.api.Test;

/**
 * A relation's name is its marker column's instance name, so a component column may not take
 * it, whichever is registered first: registering the relation after a component of its name
 * was refused, but a component registered after the relation under its name was accepted, and
 * then {@code findComponent(e, "Likes")} and {@code getProperty(e, "Likes", ...)} named two
 * columns of one name.
 */
class RelationNameTakenTest {
    record Pos(float x) {
    }

    @Test
    void aComponentIsRefusedTheNameOfARelationRegisteredBeforeIt() {
        World world = new World();
        world.component(Pos.class);
        Relation likes = world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> world.component(Pos.class, "Likes"));
        assertEquals("cannot register Pos 'Likes': the instance name is relation Likes's (its column (Likes, *)); "
                + "name the component otherwise", e.getMessage());
        // Nothing was registered: the relation keeps its name, and another name is free.
        assertSame(likes, world.relations().byName("Likes"));
        Component<Pos> liked = world.component(Pos.class, "Liked");
        assertEquals("Liked", liked.name());
        assertTrue(world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR) == likes);
    }

    @Test
    void aRelationIsStillRefusedTheNameOfAComponentRegisteredBeforeIt() {
        World world = new World();
        world.component(Pos.class, "Likes");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR));
        assertTrue(e.getMessage().contains("cannot register relation 'Likes'"), e.getMessage());
    }
}
