package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The ecs module is a stack of layers a reader can see: every package imports only packages
 * below it (so there is no circle), each {@code package-info.java} names its layer, and no
 * main class runs past 500 lines without saying why. Dependencies are read from the compiled
 * classes' constant pools, so a reference by full name counts as much as an import.
 */
class EcsLayersTest {
    /** The packages bottom to top; a package may depend only on those before it. */
    private static final List<String> ORDER = List.of(
            "hash", "component", "ownership", "access", // leaves
            "archetype", "storage", // storage
            "prototype", "structure", // structure
            "", // the facade, dev.orrery.ecs
            "internal"); // the door for the scheduler and the engine

    private static final Map<String, String> LAYER = Map.of(
            "hash", "leaves", "component", "leaves", "ownership", "leaves", "access", "leaves",
            "archetype", "storage", "storage", "storage",
            "prototype", "structure", "structure", "structure",
            "", "facade", "internal", "the door");

    private static final String ROOT = "dev.orrery.ecs";
    private static final Pattern NAME = Pattern.compile("dev/orrery/ecs(/[a-z]+)?/[A-Z][A-Za-z0-9_$]*");

    @Test
    void shouldOnlyDependOnPackagesBelow() throws IOException {
        Map<String, Set<String>> deps = dependencies();
        assertEquals(new TreeSet<>(ORDER), new TreeSet<>(deps.keySet()),
                "every ecs package has its place in EcsLayersTest.ORDER (and every place a package)");
        List<String> upward = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : deps.entrySet()) {
            int from = ORDER.indexOf(e.getKey());
            for (String to : e.getValue()) {
                if (ORDER.indexOf(to) >= from) {
                    upward.add(name(e.getKey()) + " -> " + name(to));
                }
            }
        }
        assertTrue(upward.isEmpty(), "dependencies that run sideways or up the layers (a circle, or a lower layer "
                + "knowing a higher one); move the class, or hook in through an interface of the lower layer: " + upward);
    }

    @Test
    void shouldNameItsLayerInEachPackageInfo() throws IOException {
        for (String p : ORDER) {
            Path info = Path.of("src/main/java", name(p).replace('.', '/'), "package-info.java");
            assertTrue(Files.exists(info), "no package-info.java for " + name(p));
            String text = Files.readString(info);
            assertTrue(text.contains("Layer: " + LAYER.get(p)), info + " names its layer as 'Layer: " + LAYER.get(p) + "'");
        }
    }

    @Test
    void shouldSayWhyAMainClassRunsPastFiveHundredLines() throws IOException {
        List<String> silent = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList())) {
                List<String> lines = Files.readAllLines(f);
                if (lines.size() > 500 && lines.stream().noneMatch(l -> l.contains("Over 500 lines"))) {
                    silent.add(f + " (" + lines.size() + " lines)");
                }
            }
        }
        assertTrue(silent.isEmpty(), "split these, or say why they stay whole in a comment beginning 'Over 500 lines': "
                + silent);
    }

    private static String name(String p) {
        return p.isEmpty() ? ROOT : ROOT + "." + p;
    }

    /** Package (relative to dev.orrery.ecs) to the other ecs packages its classes reference. */
    private static Map<String, Set<String>> dependencies() throws IOException {
        Path classes;
        try {
            classes = Path.of(World.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        Map<String, Set<String>> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).collect(Collectors.toList())) {
                String rel = classes.relativize(f).toString().replace('\\', '/');
                if (rel.equals("module-info.class") || !rel.startsWith("dev/orrery/ecs/")) {
                    continue;
                }
                String from = relativePackage(rel.substring(0, rel.lastIndexOf('/')));
                Set<String> to = out.computeIfAbsent(from, k -> new TreeSet<>());
                try (InputStream in = Files.newInputStream(f)) {
                    for (String s : constantStrings(in)) {
                        Matcher m = NAME.matcher(s);
                        while (m.find()) {
                            String q = relativePackage(m.group().substring(0, m.group().lastIndexOf('/')));
                            if (!q.equals(from)) {
                                to.add(q);
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    private static String relativePackage(String slashed) {
        String p = slashed.replace('/', '.');
        return p.equals(ROOT) ? "" : p.substring(ROOT.length() + 1);
    }

    /** The UTF-8 constants of a class file: class names, descriptors and generic signatures among them. */
    private static List<String> constantStrings(InputStream raw) throws IOException {
        DataInputStream in = new DataInputStream(raw);
        in.readInt(); // magic
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        List<String> out = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> out.add(in.readUTF());
                case 7, 8, 16, 19, 20 -> in.readUnsignedShort();
                case 15 -> {
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++; // takes two slots
                }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        return out;
    }
}
