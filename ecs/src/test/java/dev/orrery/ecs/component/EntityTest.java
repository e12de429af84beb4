package dev.orrery.ecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class EntityTest {
    @Test
    void shouldPackIndexInLowBitsAndGenerationInHighBits() {
        long id = Entity.of(7, 3);
        assertEquals(3L << 32 | 7L, id);
        assertEquals(7, Entity.index(id));
        assertEquals(3, Entity.generation(id));
    }

    @Test
    void shouldRoundTripExtremeIndexAndGenerationWithoutSignBleed() {
        int[] values = {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x8000_0001};
        for (int index : values) {
            for (int gen : values) {
                long id = Entity.of(index, gen);
                assertEquals(index, Entity.index(id), "index of " + index + "/" + gen);
                assertEquals(gen, Entity.generation(id), "generation of " + index + "/" + gen);
            }
        }
    }

    @Test
    void shouldTellIdsWithSameIndexButOtherGenerationApart() {
        assertNotEquals(Entity.of(5, 1), Entity.of(5, 2));
        assertNotEquals(Entity.of(5, 1), Entity.of(6, 1));
    }

    @Test
    void shouldReserveZeroAsNull() {
        assertEquals(0L, Entity.NULL);
        assertEquals(0, Entity.generation(Entity.NULL));
    }

    @Test
    void shouldPrintIndexAndGeneration() {
        assertEquals("12v3", Entity.toString(Entity.of(12, 3)));
    }
}
