package dev.orrery.scheduler.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.scheduler.EventKey;
import org.junit.jupiter.api.Test;

/**
 * {@link EventChannel#restore} given the same reader twice (a codec of one's own that writes a
 * reader once per read, say). Before, the reader kept the first position without a word, the
 * second went to a slot no reader owns (the next new reader's, which then overwrote it), and five
 * entries of one name threw an ArrayIndexOutOfBoundsException; now it is refused, naming the
 * channel, the reader and both positions.
 */
class EventChannelRestoreTest {
    static final EventKey<Integer> NUMBERS = EventKey.of("restoredNumbers", Integer.class);

    @Test
    void aReaderNamedTwiceIsRefusedNamingTheChannelTheReaderAndBothPositions() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EventChannel.restore(NUMBERS, 5,
                1, new Integer[] {5, 6}, new String[] {"ai", "physics", "ai"}, new long[] {5, 6, 7}));
        assertEquals("event channel 'restoredNumbers': reader 'ai' is given twice (entries 0 and 2, at sequence numbers "
                + "5 and 7), and a reader has one position; give each reader once, at the position it has read up to",
                e.getMessage());
    }

    @Test
    void fiveEntriesOfOneReaderAreRefusedNotAnIndexOutOfBounds() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EventChannel.restore(NUMBERS, 0,
                0, new Integer[0], new String[] {"ai", "ai", "ai", "ai", "ai"}, new long[] {0, 0, 0, 0, 0}));
        assertTrue(e.getMessage().contains("reader 'ai' is given twice (entries 0 and 1"), e.getMessage());
    }

    @Test
    void eachReaderKeepsItsOwnPosition() {
        String[] names = {"a", "b", "c", "d", "e", "f"};
        long[] positions = {0, 1, 2, 3, 4, 5};
        EventChannel<Integer> c = EventChannel.restore(NUMBERS, 0, 0, new Integer[] {0, 1, 2, 3, 4}, names, positions);
        assertEquals(6, c.readerCount());
        for (int i = 0; i < names.length; i++) {
            assertEquals(names[i], c.readerName(i));
            assertEquals(positions[i], c.readerPosition(i));
        }
    }
}
