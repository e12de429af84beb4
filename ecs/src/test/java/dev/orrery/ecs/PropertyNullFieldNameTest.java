package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * A null field name given to {@code getProperty} or {@code setProperty} is refused as a null,
 * as a null instance name is: it was looked up as the text "null" and refused with "has no
 * field 'null'", as if a field of that name had been asked for.
 */
class PropertyNullFieldNameTest {
    record Pos(float x, float y) {
    }

    @Test
    void aNullFieldNameIsRefusedAsANull() {
        World world = new World();
        world.component(Pos.class);
        long e = world.spawn(new Pos(1, 2));
        String expected = "the field name is null; give the name of one of Pos's fields: [x, y]";
        assertEquals(expected, assertThrows(NullPointerException.class, () -> world.getProperty(e, "Pos", null)).getMessage());
        assertEquals(expected, assertThrows(NullPointerException.class, () -> world.setProperty(e, "Pos", null, 3f)).getMessage());
        assertEquals(new Pos(1, 2), world.get(e, world.component(Pos.class)), "nothing written");
    }
}
