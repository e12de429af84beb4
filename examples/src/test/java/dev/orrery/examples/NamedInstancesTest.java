package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Named instances read and written by name: two instances of one type stay apart, a handle
 * writes the lamps it is given and no other, a value out of range is refused, and the world
 * ends in the same state every run.
 */
class NamedInstancesTest {
    @Test
    void shouldReadAndWriteInstancesByName() throws Exception {
        List<String> lines = Programs.run(NamedInstances::main);
        assertEquals(4, lines.size(), String.join("\n", lines));
        assertEquals("camera: Fog.density=0.2 Vignette.density=0.9, holds RenderData:Vignette", lines.get(0));
        assertEquals("lamps: street Fog.density=0.5, porch Fog.density=0.1", lines.get(1));
        assertTrue(lines.get(2).startsWith("refused: ") && lines.get(2).contains("RenderData:Fog.density = 2.0"),
                lines.get(2));
        assertTrue(lines.get(3).startsWith("102 entities: hash="), lines.get(3));
        assertEquals(lines, Programs.run(NamedInstances::main), "the same output every run");
    }
}
