package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No example teaches a captured resource object: once an example puts a local variable's object
 * as a resource ({@code .resource(DEAD, dead)}), it never names the variable again, and reads the
 * resource through the job ({@code job.resource(DEAD)}) or the store
 * ({@code b.resources().get(DEAD)}). {@code Simulation.restore} puts a new object under each
 * resource with a codec, so a system that kept the first one changes or reads an object the
 * simulation no longer holds, and the restored run diverges without a word.
 *
 * <p>Checked: every {@code <pre>{@code ...}</pre>} block in the Javadoc of the library's main
 * sources, every {@code java} block of the README and {@code docs/}, and every method of the
 * compiled examples under {@code examples/src/main/java}.
 */
class ExamplesReadResourcesThroughTheStoreTest {
    private static final Path ROOT = Path.of("..");
    private static final List<String> MODULES = List.of("ecs", "scheduler", "engine", "explorer", "testkit", "cluster");
    /** A resource put from a local variable: {@code .resource(KEY, name)} or {@code .resource(KEY, name, codec)}. */
    private static final Pattern PUT = Pattern.compile("\\.resource\\(\\s*[\\w.]+\\s*,\\s*([a-z]\\w*)\\s*[,)]");
    private static final Pattern MARKDOWN_JAVA = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    @Test
    void shouldReadEveryResourceAnExamplePutsFromAVariableThroughTheJobOrTheStore() throws IOException {
        List<String> problems = new ArrayList<>();
        int blocks = 0;
        for (String module : MODULES) {
            for (Path f : files(ROOT.resolve(module).resolve("src/main/java"), ".java")) {
                for (String block : javadocBlocks(Files.readString(f))) {
                    blocks++;
                    check(block, ROOT.relativize(f.normalize()).toString(), problems);
                }
            }
        }
        List<Path> prose = new ArrayList<>(files(ROOT.resolve("docs"), ".md"));
        prose.add(ROOT.resolve("README.md"));
        for (Path f : prose) {
            Matcher m = MARKDOWN_JAVA.matcher(Files.readString(f));
            while (m.find()) {
                blocks++;
                check(m.group(1), ROOT.relativize(f.normalize()).toString(), problems);
            }
        }
        for (Path f : files(Path.of("src/main/java"), ".java")) {
            for (String method : methods(Files.readString(f))) {
                blocks++;
                check(method, "examples/" + f, problems);
            }
        }
        assertTrue(blocks >= 200, "checked only " + blocks + " examples: does the test read the right folders?");
        if (!problems.isEmpty()) {
            fail(problems.size() + " examples capture an object they put as a resource; read it through the job "
                    + "(job.resource(KEY)) or the store (builder.resources().get(KEY)) instead:\n  "
                    + String.join("\n  ", problems));
        }
    }

    /** Adds a problem for each variable {@code block} puts as a resource and names again after. */
    private static void check(String block, String where, List<String> problems) {
        Matcher put = PUT.matcher(block);
        while (put.find()) {
            String name = put.group(1);
            Matcher again = Pattern.compile("(?<![\\w.])" + name + "\\b").matcher(block);
            if (again.find(put.end())) {
                String line = block.substring(block.lastIndexOf('\n', again.start()) + 1).lines().findFirst()
                        .orElse("").replaceFirst("^\\s*\\*?\\s*", "");
                problems.add(where + ": puts '" + name + "' with " + put.group().strip() + " and then uses it: " + line);
            }
        }
    }

    private static List<String> javadocBlocks(String text) {
        List<String> out = new ArrayList<>();
        for (int at = text.indexOf("<pre>{@code"); at >= 0; at = text.indexOf("<pre>{@code", at + 1)) {
            int end = text.indexOf("}</pre>", at);
            out.add(text.substring(at, end < 0 ? text.length() : end));
        }
        return out;
    }

    /** The methods of a top-level class, cut at the lines that close them (four spaces and a brace). */
    private static List<String> methods(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            current.append(line).append('\n');
            if (line.equals("    }")) {
                out.add(current.toString());
                current.setLength(0);
            }
        }
        out.add(current.toString());
        return out;
    }

    private static List<Path> files(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.toString().endsWith(suffix)).sorted().collect(Collectors.toList());
        }
    }
}
