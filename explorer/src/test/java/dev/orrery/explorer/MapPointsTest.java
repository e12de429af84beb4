package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A map sample holds at most its capacity ({@code /api/map?max=N}), whatever its first size
 * and however many points the application offers.
 */
class MapPointsTest {
    @Test
    void shouldTakeNoMoreThanASmallCapacity() {
        for (int capacity : new int[] {1, 5, 15, 16, 17, 40}) {
            MapPoints points = new MapPoints(capacity, 0);
            int taken = 0;
            for (int i = 0; i < 100; i++) {
                taken += points.add(i, i, -i, 0) ? 1 : 0;
            }
            assertEquals(capacity, taken, "points taken at capacity " + capacity);
            assertEquals(capacity, points.size());
            assertFalse(points.add(100, 0, 0, 0), "a full sample refuses a point");
            Json json = new Json().beginObject();
            points.writeTo(json);
            String text = json.endObject().toString();
            assertTrue(text.contains("[" + (capacity - 1) + "," + (capacity - 1) + ".0,") && !text.contains(
                    "[" + capacity + "," + capacity + ".0,"), text);
        }
    }

    @Test
    void shouldTakeNoMoreThanItsCapacityWhenExpectingMore() {
        MapPoints points = new MapPoints(10, 1_000);
        int taken = 0;
        for (int i = 0; i < 50; i++) {
            taken += points.add(i, 0, 0, 0) ? 1 : 0;
        }
        assertEquals(10, taken);
    }
}
