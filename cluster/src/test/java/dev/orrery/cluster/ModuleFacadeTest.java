package dev.orrery.cluster;

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
 * Pins what module {@code dev.orrery.cluster} exports: every package, to everyone (the protocol's
 * serializer and the entity are built by Pekko, which reads them from the class or module path).
 * Exporting another package must be a deliberate change of this test and of the README's facade table.
 */
class ModuleFacadeTest {
    @Test
    void shouldExportEveryPackageToEveryone() throws IOException {
        ModuleDescriptor d = descriptor();
        assertEquals("dev.orrery.cluster", d.name());
        Set<String> open = new TreeSet<>();
        Map<String, Set<String>> qualified = new TreeMap<>();
        for (ModuleDescriptor.Exports e : d.exports()) {
            if (e.isQualified()) {
                qualified.put(e.source(), new TreeSet<>(e.targets()));
            } else {
                open.add(e.source());
            }
        }
        assertEquals(new TreeSet<>(Set.of("dev.orrery.cluster", "dev.orrery.cluster.protocol",
                "dev.orrery.cluster.sharding", "dev.orrery.cluster.store", "dev.orrery.cluster.world")), open,
                "packages exported to everyone");
        assertEquals(new TreeMap<String, Set<String>>(), qualified,
                "internal packages and the modules they are exported to");
    }

    /** Reads module-info.class from the main classes' folder (tests run on the class path). */
    private static ModuleDescriptor descriptor() throws IOException {
        Path classes;
        try {
            classes = Path.of(dev.orrery.cluster.ClusterNode.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
            assertNotNull(in, "module-info.class of dev.orrery.cluster is on the test class path");
            return ModuleDescriptor.read(in);
        }
    }
}
