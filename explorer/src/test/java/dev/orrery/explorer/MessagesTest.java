package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import org.junit.jupiter.api.Test;

/**
 * Error messages the explorer answers a user with: each names the thing refused and says what
 * to type instead (a confusing message is a defect).
 */
class MessagesTest {
    private static void assertContains(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "message should contain '" + part + "': " + message);
        }
    }

    @Test
    void shouldSayWhatToTypeWhenAQueryHoldsOnlyCommas() {
        QueryText.BadQuery e = assertThrows(QueryText.BadQuery.class,
                () -> QueryText.parse(new World(), ",,", new QueryText()));
        assertContains(e.getMessage(), "the query ',,' has no term", "component names separated by commas");
    }
}
