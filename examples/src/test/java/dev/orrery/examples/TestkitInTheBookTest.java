package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A game's own test writes against the test kit with nothing but the Determinism chapter
 * ({@code docs/determinism.md}) to go on, so every call it may make there is named in the
 * chapter, in a Java block or a backticked span: each public method of the types a test uses
 * ({@code DeterminismCheck}, {@code DeterminismFailure}, {@code GoldenRecording},
 * {@code InputScript} and its {@code Sender}, {@code SimulationFactory}), read from
 * {@code testkit/public-api.txt}. {@code Difference}'s accessors are left out: its fields print
 * in the failure message the chapter shows. A method added to the kit without a word in the
 * chapter fails here, naming it.
 */
class TestkitInTheBookTest {
    private static final Path ROOT = Path.of("..");
    private static final List<String> TYPES = List.of("DeterminismCheck", "DeterminismFailure", "GoldenRecording",
            "InputScript", "InputScript.Sender", "SimulationFactory");
    private static final Pattern TYPE_LINE = Pattern.compile("^(?:class|interface|record|enum) dev\\.orrery\\.testkit\\.(\\S+).*$");
    private static final Pattern METHOD_LINE = Pattern.compile("^\\s+public .*?(\\w+)\\(.*$");

    @Test
    void everyCallAGamesTestMakesOnTheKitIsNamedInTheDeterminismChapter() throws IOException {
        String code = codeOf(Files.readString(ROOT.resolve("docs/determinism.md")));
        List<String> missing = new ArrayList<>();
        String type = null;
        List<String> methods = new ArrayList<>();
        for (String line : Files.readAllLines(ROOT.resolve("testkit/public-api.txt"))) {
            Matcher t = TYPE_LINE.matcher(line);
            if (t.matches()) {
                type = t.group(1).replace('$', '.');
                continue;
            }
            Matcher m = METHOD_LINE.matcher(line);
            if (type == null || !TYPES.contains(type) || !m.matches() || line.contains(" dev.orrery.testkit." + type + "(")) {
                continue;                                       // not a type a test uses, or a constructor
            }
            String name = m.group(1);
            methods.add(type + "." + name);
            if (!Pattern.compile("(?<![\\w])" + name + "(?![\\w])").matcher(code).find()) {
                missing.add(type + "." + name);
            }
        }
        assertFalse(methods.size() < 15, "the kit's methods read from public-api.txt: " + methods);
        assertEquals(List.of(), missing, "public methods of the test kit that docs/determinism.md never names "
                + "(in a Java block or a backticked span): name each where the chapter covers its type");
    }

    /** The Java blocks and the backticked spans of {@code markdown}, one per line. */
    private static String codeOf(String markdown) {
        StringBuilder code = new StringBuilder();
        boolean inBlock = false;
        for (String line : markdown.split("\n", -1)) {
            if (line.trim().startsWith("```")) {
                inBlock = !inBlock;
                continue;
            }
            if (inBlock) {
                code.append(line).append('\n');
                continue;
            }
            Matcher span = Pattern.compile("`([^`]+)`").matcher(line);
            while (span.find()) {
                code.append(span.group(1)).append('\n');
            }
        }
        return code.toString();
    }
}
