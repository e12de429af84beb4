package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The examples use only what a user of the library may: every Orrery package a source under
 * {@code examples/src/main/java} names (in an import, a qualified name or a comment) is one of
 * the six public user packages, or the examples' own.
 */
class ExamplesUsePublicApiTest {
    private static final Set<String> PUBLIC = Set.of("dev.orrery.ecs", "dev.orrery.ecs.component",
            "dev.orrery.scheduler", "dev.orrery.engine", "dev.orrery.engine.host", "dev.orrery.explorer",
            "dev.orrery.testkit");
    private static final Pattern PACKAGE = Pattern.compile("\\bdev\\.orrery(?:\\.[a-z_][a-z0-9_]*)+");
    private static final Path SOURCES = Path.of("src/main/java");

    @Test
    void shouldNameOnlyThePublicUserPackages() throws IOException {
        List<Path> sources;
        try (Stream<Path> files = Files.walk(SOURCES)) {
            sources = files.filter(p -> p.toString().endsWith(".java")).sorted().collect(Collectors.toList());
        }
        List<String> problems = new ArrayList<>();
        for (Path source : sources) {
            List<String> lines = Files.readAllLines(source);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = PACKAGE.matcher(lines.get(i));
                while (m.find()) {
                    String name = m.group();
                    if (!PUBLIC.contains(name) && !name.equals("dev.orrery.examples")
                            && !name.startsWith("dev.orrery.examples.")) {
                        problems.add(source + ":" + (i + 1) + ": " + name);
                    }
                }
            }
        }
        assertTrue(sources.size() >= 9, "found only " + sources.size() + " sources under " + SOURCES);
        assertTrue(problems.isEmpty(), "the examples may use only " + PUBLIC + ", but name:\n  "
                + String.join("\n  ", problems));
    }
}
