package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Pins what module {@code dev.orrery.ecs} exports: the facade to everyone, internals only to the
 * Orrery modules named. Exporting another package (or widening an internal one) must be a
 * deliberate change of this test and of the README's facade table.
 */
class ModuleFacadeTest {
    @Test
    void shouldExportOnlyTheFacadeToEveryone() throws IOException {
        ModuleDescriptor d = descriptor();
        assertEquals("dev.orrery.ecs", d.name());
        Set<String> open = new TreeSet<>();
        Map<String, Set<String>> qualified = new TreeMap<>();
        for (ModuleDescriptor.Exports e : d.exports()) {
            if (e.isQualified()) {
                qualified.put(e.source(), new TreeSet<>(e.targets()));
            } else {
                open.add(e.source());
            }
        }
        assertEquals(new TreeSet<>(Set.of("dev.orrery.ecs", "dev.orrery.ecs.component")), open, "packages exported to everyone");
        assertEquals(new TreeMap<String, Set<String>>(Map.of("dev.orrery.ecs.archetype", Set.of("dev.orrery.scheduler", "dev.orrery.engine"), "dev.orrery.ecs.hash", Set.of("dev.orrery.scheduler", "dev.orrery.engine"), "dev.orrery.ecs.ownership", Set.of("dev.orrery.scheduler", "dev.orrery.engine"), "dev.orrery.ecs.prototype", Set.of("dev.orrery.scheduler", "dev.orrery.engine"), "dev.orrery.ecs.storage", Set.of("dev.orrery.scheduler", "dev.orrery.engine"))), qualified,
                "internal packages and the modules they are exported to");
    }

    /** Reads module-info.class from the main classes' folder (tests run on the class path). */
    private static ModuleDescriptor descriptor() throws IOException {
        Path classes;
        try {
            classes = Path.of(dev.orrery.ecs.World.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
            assertNotNull(in, "module-info.class of dev.orrery.ecs is on the test class path");
            return ModuleDescriptor.read(in);
        }
    }
}
