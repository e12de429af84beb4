package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No Javadoc example of the library can rot: every {@code <pre>{@code ...}</pre>} block in the
 * Javadoc of the public types of the exported packages must occur, whitespace aside, in a
 * compiled source under {@code examples/src/main/java/dev/orrery/examples/javadoc/}. When this
 * fails, copy the block into the class of its package there (with the variables it takes for
 * granted as parameters), or fix the block so that it compiles as written.
 */
class JavadocExamplesTest {
    private static final Path ROOT = Path.of("..");
    /** The exported packages, each a folder of one module's sources (not their subpackages). */
    private static final List<String> PACKAGES = List.of(
            "ecs/src/main/java/dev/orrery/ecs",
            "ecs/src/main/java/dev/orrery/ecs/component",
            "scheduler/src/main/java/dev/orrery/scheduler",
            "engine/src/main/java/dev/orrery/engine",
            "engine/src/main/java/dev/orrery/engine/host",
            "explorer/src/main/java/dev/orrery/explorer");
    private static final Path EXAMPLES = Path.of("src/main/java/dev/orrery/examples/javadoc");
    /** A top-level public type: only those are part of the API, and only their examples are checked. */
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^public\\s+(?:(?:final|abstract|sealed|non-sealed)\\s+)*(?:class|interface|enum|record|@interface)\\s",
            Pattern.MULTILINE);
    private static final Pattern LEADING_STAR = Pattern.compile("^\\s*\\*\\s?");
    private static final String OPEN = "<pre>{@code";
    private static final String CLOSE = "}</pre>";

    @Test
    void shouldFindEveryJavadocExampleOfThePublicTypesInTheCompiledExamples() throws IOException {
        String compiled = normalize(read(EXAMPLES));
        List<String> problems = new ArrayList<>();
        int blocks = 0;
        for (String pkg : PACKAGES) {
            for (Path source : javaFiles(ROOT.resolve(pkg))) {
                String text = Files.readString(source);
                if (!PUBLIC_TYPE.matcher(text).find() && !source.endsWith("package-info.java")) {
                    continue; // a package-private type: its examples may use what users cannot reach
                }
                List<String> lines = text.lines().collect(Collectors.toList());
                for (int i = 0; i < lines.size(); i++) {
                    int at = lines.get(i).indexOf(OPEN);
                    if (at < 0) {
                        continue;
                    }
                    blocks++;
                    String where = ROOT.relativize(source.normalize()) + ":" + (i + 1);
                    List<String> block = new ArrayList<>();
                    block.add(lines.get(i).substring(at + OPEN.length()));
                    int end = i + 1;
                    while (end < lines.size() && !lines.get(end).contains(CLOSE)) {
                        block.add(LEADING_STAR.matcher(lines.get(end)).replaceFirst(""));
                        end++;
                    }
                    if (end == lines.size()) {
                        problems.add(where + ": the example is never closed with " + CLOSE);
                        break;
                    }
                    String last = lines.get(end);
                    block.add(LEADING_STAR.matcher(last.substring(0, last.indexOf(CLOSE))).replaceFirst(""));
                    String example = normalize(String.join("\n", block));
                    if (!compiled.contains(example)) {
                        String first = block.stream().filter(l -> !l.isBlank()).findFirst().orElse("").strip();
                        problems.add(where + ": the example starting '" + first + "' is in no source under "
                                + EXAMPLES);
                    }
                    i = end;
                }
            }
        }
        assertTrue(blocks >= 40, "found only " + blocks + " Javadoc examples: does the test read the right folders?");
        if (!problems.isEmpty()) {
            fail(problems.size() + " of " + blocks + " Javadoc examples are not compiled:\n  "
                    + String.join("\n  ", problems));
        }
    }

    /** Whitespace runs collapsed to one space, ends trimmed. */
    static String normalize(String text) {
        return text.strip().replaceAll("\\s+", " ");
    }

    private static String read(Path dir) throws IOException {
        StringBuilder all = new StringBuilder();
        for (Path f : javaFiles(dir)) {
            all.append(Files.readString(f)).append('\n');
        }
        return all.toString();
    }

    private static List<Path> javaFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".java")).sorted().collect(Collectors.toList());
        }
    }
}
