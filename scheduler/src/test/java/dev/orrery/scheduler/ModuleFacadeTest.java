package dev.orrery.scheduler;

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
 * Pins what module {@code dev.orrery.scheduler} exports: the facade to everyone, internals only to the
 * Orrery modules named. Exporting another package (or widening an internal one) must be a
 * deliberate change of this test and of the README's facade table.
 */
class ModuleFacadeTest {
    @Test
    void shouldExportOnlyTheFacadeToEveryone() throws IOException {
        ModuleDescriptor d = descriptor();
        assertEquals("dev.orrery.scheduler", d.name());
        Set<String> open = new TreeSet<>();
        Map<String, Set<String>> qualified = new TreeMap<>();
        for (ModuleDescriptor.Exports e : d.exports()) {
            if (e.isQualified()) {
                qualified.put(e.source(), new TreeSet<>(e.targets()));
            } else {
                open.add(e.source());
            }
        }
        assertEquals(new TreeSet<>(Set.of("dev.orrery.scheduler")), open, "packages exported to everyone");
        assertEquals(new TreeMap<String, Set<String>>(Map.of("dev.orrery.scheduler.access", Set.of("dev.orrery.engine", "dev.orrery.explorer"), "dev.orrery.scheduler.check", Set.of("dev.orrery.engine"), "dev.orrery.scheduler.event", Set.of("dev.orrery.engine", "dev.orrery.explorer"), "dev.orrery.scheduler.executor", Set.of("dev.orrery.engine", "dev.orrery.explorer"), "dev.orrery.scheduler.flow", Set.of("dev.orrery.engine", "dev.orrery.explorer"), "dev.orrery.scheduler.graph", Set.of("dev.orrery.engine", "dev.orrery.explorer"))), qualified,
                "internal packages and the modules they are exported to");
    }

    /** Reads module-info.class from the main classes' folder (tests run on the class path). */
    private static ModuleDescriptor descriptor() throws IOException {
        Path classes;
        try {
            classes = Path.of(dev.orrery.scheduler.Schedule.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
            assertNotNull(in, "module-info.class of dev.orrery.scheduler is on the test class path");
            return ModuleDescriptor.read(in);
        }
    }
}
