package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A field handed to an accessor of another type (the newcomer's {@code getInt} on a
 * {@code float} field) is refused with a message that names the accessor that fits, on the
 * world, a command buffer, a prepared shape's row and a chunk view; for a field type with no
 * by-id accessor it names the whole-record call.
 */
class FieldTypeMismatchTest {
    record Pos(float x, float y) {
    }

    record Flags(boolean alive, long since) {
    }

    private final World world = new World();
    private final Component<Pos> pos = world.component(Pos.class);
    private final Component<Flags> flags = world.component(Flags.class);
    private final Field x = pos.field("x");
    private final long e = world.spawn(new Pos(1, 2), new Flags(true, 3));

    private static String refusal(Executable call) {
        return assertThrows(IllegalArgumentException.class, call).getMessage();
    }

    @Test
    void shouldNameTheWorldsAccessorThatFits() {
        assertEquals("field Pos.x is FLOAT, not INT; use getFloat/setFloat", refusal(() -> world.getInt(e, x)));
        assertEquals("field Flags.since is LONG, not DOUBLE; use getLong/setLong",
                refusal(() -> world.setDouble(e, flags.field("since"), 1)));
        assertEquals("field Flags.alive is BOOLEAN, not INT; a BOOLEAN field has no by-id accessor: get or set the whole "
                + "Flags record with get(entity, Flags) or set(entity, Flags, value)",
                refusal(() -> world.getInt(e, flags.field("alive"))));
        assertEquals("field Pos.x is FLOAT, not INT; use getFloat/setFloat",
                refusal(() -> world.unvalidated().setInt(e, x, 1)));
        assertEquals("field Pos.x is FLOAT, not INT; use getFloat/setFloat",
                refusal(() -> world.shape(pos, flags).spawnRow().setInt(x, 1)));
    }

    @Test
    void shouldNameTheCommandBuffersSetterThatFits() {
        CommandBuffer commands = new CommandBuffer(0);
        assertEquals("field Pos.x is FLOAT, not INT; use setFloat", refusal(() -> commands.setInt(e, x, 1)));
        assertEquals("field Flags.alive is BOOLEAN, not INT; a BOOLEAN field has no by-id accessor: set the whole Flags "
                + "record with set(entity, Flags, value)", refusal(() -> commands.setInt(e, flags.field("alive"), 1)));
    }

    @Test
    void shouldNameTheChunkViewsArraysThatFit() {
        ChunkView view = new ChunkView(null).bind(world.archetypeOf(e).chunk(0));
        assertEquals("field Pos.x is FLOAT, not INT; use readFloats/writeFloats", refusal(() -> view.readInts(x)));
        assertEquals("field Flags.alive is BOOLEAN, not LONG; use readBooleans/writeBooleans",
                refusal(() -> view.writeLongs(flags.field("alive"))));
    }
}
