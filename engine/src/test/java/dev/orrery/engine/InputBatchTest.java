package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class InputBatchTest {
    @Test
    void shouldGrowPastItsInitialSizeAndKeepEveryPayload() {
        InputBatch b = new InputBatch();
        b.reset(9);
        for (int i = 0; i < 500; i++) {
            byte[] p = ByteBuffer.allocate(24).putInt(i).putLong(i * 1_000_000_007L).putFloat(i / 2f)
                    .putDouble(i / 3.0).array();
            assertEquals(i, b.add(i, i % 7, p, 0, p.length));
        }
        assertEquals(500, b.size());
        for (int i = 0; i < 500; i++) {
            assertEquals(i, b.client(i));
            assertEquals(i % 7, b.type(i));
            assertEquals(i, b.payloadInt(i, 0));
            assertEquals(i * 1_000_000_007L, b.payloadLong(i, 4));
            assertEquals(i / 2f, b.payloadFloat(i, 12));
            assertEquals(i / 3.0, b.payloadDouble(i, 16));
            assertEquals((byte) 0, b.payloadByte(i, 0));
        }
        b.reset(10);
        assertTrue(b.isEmpty());
        assertEquals(10, b.tick());
        assertThrows(IndexOutOfBoundsException.class, () -> b.type(0));
    }

    @Test
    void shouldCompareAndCopyByContent() {
        InputBatch a = new InputBatch();
        a.reset(1);
        a.add(1, 2, new byte[] {5, 6, 7}, 1, 2);
        InputBatch c = a.copy();
        assertTrue(a.sameContentAs(c));
        a.reset(1);
        a.add(1, 2, new byte[] {6, 8}, 0, 2);
        assertFalse(a.sameContentAs(c), "payload byte differs");
        assertEquals(1, c.tick());
        assertEquals(7, c.payloadByte(0, 1), "the copy does not change when the original is reused");
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> c.payloadInt(0, 0));
        assertTrue(e.getMessage().contains("payload is 2 bytes"), e.getMessage());
    }
}
