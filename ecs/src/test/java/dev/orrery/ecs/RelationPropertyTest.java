package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Relations seen through the prototype index and the property system: a holder's marker
 * column is its named instance "ChildOf" (found by name, listed in its chain, its
 * {@code target} property the parent), and every property write of it is refused, naming the
 * relation and the pair calls, without changing anything.
 */
class RelationPropertyTest {
    record Position(float x, float y) {
    }

    private final World world = new World();
    private final Component<Position> pos = world.component(Position.class);
    private final Relation childOf = world.relations().childOf();

    @Test
    void shouldServeTheParentAsTheChildOfTargetProperty() {
        long parent = world.spawn(new Position(0, 0));
        long other = world.spawn(new Position(1, 0));
        long child = world.spawn(new Position(2, 0));
        world.relations().add(child, childOf, parent);
        assertEquals(parent, world.getProperty(child, "ChildOf", "target"));
        PropertyHandle target = world.property("ChildOf", "target");
        assertEquals(parent, target.getLong(child));
        assertEquals(parent, target.get(child));
        world.relations().add(child, childOf, other);
        assertEquals(other, world.getProperty(child, "ChildOf", "target"), "reparenting rewrites the marker");
        assertEquals(other, target.getLong(child), "a resolved handle sees the new target");
        world.relations().remove(child, childOf, other);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> world.getProperty(child, "ChildOf", "target"));
        assertTrue(e.getMessage().contains("ChildOf"), e.getMessage());
    }

    @Test
    void shouldFindTheMarkerByItsInstanceNameInTheChain() {
        long parent = world.spawn(new Position(0, 0));
        long child = world.spawn(new Position(2, 0));
        assertNull(world.findComponent(child, "ChildOf"), "no pair, no marker");
        world.relations().add(child, childOf, parent);
        assertSame(childOf.column(), world.findComponent(child, "ChildOf"));
        assertNull(world.findComponent(parent, "ChildOf"), "the target carries no marker");
        assertEquals(List.of("Position", "ChildOf"), world.storage().namedInstances().namesOf(Entity.index(child)));
        world.relations().remove(child, childOf, parent);
        assertNull(world.findComponent(child, "ChildOf"));
        assertEquals(List.of("Position"), world.storage().namedInstances().namesOf(Entity.index(child)));
    }

    @Test
    void shouldRefuseEveryPropertyWriteOfTheMarkerAndChangeNothing() {
        long parent = world.spawn(new Position(0, 0));
        long other = world.spawn(new Position(1, 0));
        long child = world.spawn(new Position(2, 0));
        world.relations().add(child, childOf, parent);
        long before = world.stateHash();
        PropertyHandle target = world.property("ChildOf", "target");
        List<Executable> writes = List.of(
                () -> world.setProperty(child, "ChildOf", "target", other),
                () -> target.set(child, other),
                () -> target.setLong(child, other),
                () -> target.setBits(child, other),
                () -> world.unvalidated().setBits(child, childOf.target(), other));
        for (Executable write : writes) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, write);
            assertTrue(e.getMessage().contains("ChildOf") && e.getMessage().contains("addPair"), e.getMessage());
            assertEquals(parent, world.relations().parent(child));
            assertEquals(parent, world.getProperty(child, "ChildOf", "target"));
            assertEquals(before, world.stateHash(), "a refused write changes nothing");
        }
    }

    @Test
    void shouldRefuseATemplateHoldingTheMarker() {
        long parent = world.spawn(new Position(0, 0));
        Template.Builder t = Template.named("turret").with(pos, new Position(1, 1));
        long before = world.stateHash();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> t.with(childOf.marker(), new Pair(parent))); // as it is built, before any spawn
        assertTrue(e.getMessage().contains("template 'turret' with ChildOf refused"), e.getMessage());
        assertEquals(1, t.build().size(), "the refused instance is not in the template");
        assertEquals(before, world.stateHash());
        assertEquals(1, world.entityCount());
    }
}
