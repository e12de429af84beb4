package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import org.junit.jupiter.api.Test;

/**
 * Error messages of the ECS entry points: each names the thing refused and says what to do
 * instead (a confusing message is a defect).
 */
class MessagesTest {
    record Position(float x, float y) {
    }

    private static void assertContains(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "message should contain '" + part + "': " + message);
        }
    }

    @Test
    void shouldSayToListEachColumnOnceWhenAShapeListsOneTwice() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> world.shape(pos, pos));
        assertContains(e.getMessage(), "component " + pos + " is listed twice", "list each column once");
    }
}
