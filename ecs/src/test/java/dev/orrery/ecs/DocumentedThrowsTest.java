package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.FieldType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pins the exception types the {@code @throws} tags added in the exception-type audit name:
 * each was thrown before, but the Javadoc did not list it (a caller catching by type could
 * not know). The behaviour is unchanged, so these pass on the old code too.
 */
class DocumentedThrowsTest {
    record Pos(float x, float y) {}

    @Test
    void aChunkViewsPerRowCallsRefuseARowOutsideTheChunkAsAnIndex() {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        long e = world.spawn(new Pos(1, 2));
        int[] views = {0};
        world.query().with(pos).build().forEachChunk(view -> {
            views[0]++;
            int past = view.size();
            assertThrows(IndexOutOfBoundsException.class, () -> view.get(pos, past));
            assertThrows(IndexOutOfBoundsException.class, () -> view.set(pos, -1, new Pos(0, 0)));
            assertThrows(IndexOutOfBoundsException.class, () -> view.has(pos, past));
            assertThrows(IndexOutOfBoundsException.class, () -> view.markChanged(pos, past));
        });
        assertEquals(1, views[0], "one chunk visited");
        assertEquals(new Pos(1, 2), world.get(e, pos), "nothing written");
    }

    @Test
    void aSnapshotRefusesAnExtraSectionUnderItsOwnNameAsABadArgument() {
        World world = new World();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new WorldSnapshot().write(world, Map.of(ChangeSection.NAME, new byte[0])));
        assertTrue(e.getMessage().contains(ChangeSection.NAME), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new WorldSnapshot().write(world, Map.of(RelationSection.NAME, new byte[0])));
    }

    @Test
    void anObjectFieldHasNoBitPattern() {
        assertThrows(IllegalStateException.class, () -> FieldType.OBJECT.bitsOf("x"));
    }
}
