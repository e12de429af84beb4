package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shell blocks ({@code ```sh}) of the project's Markdown files (the files
 * {@link SnippetTest} reads) name things that exist, so a reader who copies a command gets
 * the program the text means, not "class not found" or "unknown option". Read without running
 * anything:
 * <ul>
 * <li>{@code java -cp ... dev.orrery.Some.Main}: a source {@code <module>/src/main/java/dev/orrery/Some/Main.java}
 *     with a {@code static void main}; a class outside {@code dev.orrery} is the reader's own
 *     ({@code my.game.Main}) and is left alone;</li>
 * <li>{@code java -jar <module>/target/x.jar}: the module exists;</li>
 * <li>each {@code --option} after the main class or the jar: a string literal {@code "--option"}
 *     in that module's main sources (how the programs and picocli name their options);</li>
 * <li>{@code ./mvnw ... -pl a,b}: each a module folder with a {@code pom.xml}; {@code -Dtest=Name}:
 *     a test source {@code Name.java} in one of them; {@code -Dorrery.x}: a property some source
 *     reads ({@code "orrery.x"}) or a pom names ({@code <orrery.x>}, {@code ${orrery.x}});</li>
 * <li>a command run by relative path ({@code .ci/install-browser}): the file exists.</li>
 * </ul>
 * Shell variables set in the block ({@code J=demo/target/orrery-demo.jar}) are expanded,
 * quotes and {@code \} line continuations understood, comments ({@code # ...}) left out.
 */
class ShellBlocksTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern FENCE = Pattern.compile("^\\s*```+\\s*(sh|bash|shell)\\b.*$");
    private static final Pattern ASSIGNMENT = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", Pattern.DOTALL);
    private static final Pattern VARIABLE = Pattern.compile("^\\$\\{?([A-Za-z_][A-Za-z0-9_]*)}?$");

    private final Map<Path, String> mainSources = new HashMap<>();
    private String everySourceAndPom;

    @Test
    void shouldNameRealModulesClassesAndOptionsInEveryShellBlock() throws IOException {
        List<String> problems = new ArrayList<>();
        int blocks = 0;
        for (Path md : SnippetTest.markdownFiles()) {
            List<String> lines = Files.readAllLines(md);
            Map<String, String> variables = new HashMap<>(); // a file's later blocks use what an earlier one set
            for (int i = 0; i < lines.size(); i++) {
                if (!FENCE.matcher(lines.get(i)).matches()) {
                    continue;
                }
                blocks++;
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                    end++;
                }
                problems.addAll(check(ROOT.relativize(md.normalize()) + ":" + (i + 1),
                        lines.subList(i + 1, Math.min(end, lines.size())), variables));
                i = end;
            }
        }
        assertTrue(blocks > 0, "no sh block found in the project's Markdown files: the test reads the wrong folder");
        assertTrue(problems.isEmpty(), problems.size() + " shell commands name what does not exist:\n  "
                + String.join("\n  ", problems));
    }

    @Test
    void shouldReportAMissingModuleClassMainOptionTestPropertyOrScript() {
        List<String> problems = check("x.md:1", List.of(
                "./mvnw -B -q -DskipTests package -pl examples,nosuchmodule -am",
                "java -cp examples/target/orrery-examples.jar dev.orrery.examples.NoSuchProgram",
                "java -cp examples/target/orrery-examples.jar dev.orrery.examples.ProgramArgs",
                "J=demo/target/orrery-demo.jar; O=\"--agents 10 --no-such-option\"",
                "java -jar $J $O   # --also-not-checked in a comment",
                "./mvnw -pl cluster -am verify -Dtest=NoSuchTest -Dorrery.no.such.property=1",
                ".ci/no-such-script && java -jar nomodule/target/x.jar"));
        assertEquals(8, problems.size(), String.join("\n", problems));
        String all = String.join("\n", problems);
        for (String named : new String[] {"'nosuchmodule'", "dev.orrery.examples.NoSuchProgram",
                "dev.orrery.examples.ProgramArgs has no", "'--no-such-option'", "'NoSuchTest'",
                "'orrery.no.such.property'", "'.ci/no-such-script'", "'nomodule' is not a module"}) {
            assertTrue(all.contains(named), "no problem names " + named + ":\n" + all);
        }
        assertTrue(!all.contains("'--agents'") && !all.contains("--also-not-checked"),
                "a real option or a comment was reported:\n" + all);
    }

    @Test
    void shouldAcceptQuotesContinuationsAndTheReadersOwnClasses() {
        List<String> problems = check("x.md:1", List.of(
                "./mvnw -B -q -DskipTests package -pl examples -am",
                "java -cp \"examples/target/orrery-examples.jar:my-game.jar\" dev.orrery.testkit.CompareRecordings \\",
                "    --game com.example.MyGameFactory run-a run-b",
                "java -cp \"target/classes:$(cat cp.txt)\" my.game.Main               # the class path",
                "java -p \"target/classes:$(cat cp.txt)\" -m my.game/my.game.Main     # the module path",
                "JAZZER_FUZZ=1 ./mvnw -B -ntp -pl cluster -am test -Dtest=ChaosTest -Dorrery.chaos.seconds=5",
                "java -XX:StartFlightRecording=filename=demo.jfr -jar demo/target/orrery-demo.jar --ticks 120 \\",
                "    | grep x"));
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /** The problems of one block's commands; {@code where} is the block's file and line. */
    List<String> check(String where, List<String> block) {
        return check(where, block, new HashMap<>());
    }

    /** As {@link #check(String, List)}, with the shell variables set so far, which it adds to. */
    List<String> check(String where, List<String> block, Map<String, String> variables) {
        List<String> problems = new ArrayList<>();
        for (String line : joinContinuations(block)) {
            for (List<Word> command : commands(tokens(line))) {
                List<String> words = expand(command, variables);
                int first = 0;
                while (first < words.size() && ASSIGNMENT.matcher(words.get(first)).matches()) {
                    first++;
                }
                if (first == words.size()) { // only assignments: remember them for the lines below
                    for (String w : words) {
                        Matcher m = ASSIGNMENT.matcher(w);
                        if (m.matches()) {
                            variables.put(m.group(1), m.group(2));
                        }
                    }
                    continue;
                }
                List<String> run = words.subList(first, words.size());
                String name = run.get(0);
                String at = where + ": '" + String.join(" ", run) + "': ";
                if (name.equals("java")) {
                    checkJava(at, run, problems);
                } else if (name.endsWith("mvnw") || name.equals("mvn")) {
                    checkMaven(at, run, problems);
                }
                if (name.contains("/") && !name.startsWith("/") && !Files.exists(ROOT.resolve(name))) {
                    problems.add(at + "runs '" + name + "', which is not a file of the project");
                }
            }
        }
        return problems;
    }

    private void checkJava(String at, List<String> run, List<String> problems) {
        int i = 1;
        String main = null;
        String jar = null;
        while (i < run.size()) {
            String w = run.get(i);
            if (w.equals("-cp") || w.equals("-classpath") || w.equals("--class-path") || w.equals("-p")
                    || w.equals("--module-path")) {
                i += 2;
            } else if (w.equals("-m") || w.equals("--module")) {
                return; // a module's main class: the reader's own program
            } else if (w.equals("-jar")) {
                jar = i + 1 < run.size() ? run.get(i + 1) : null;
                i += 2;
                break;
            } else if (w.startsWith("-")) {
                i++;
            } else {
                main = w;
                i++;
                break;
            }
        }
        Path module = null;
        if (main != null) {
            if (!main.startsWith("dev.orrery.")) {
                return; // the reader's class
            }
            Path source = null;
            for (Path m : modules()) {
                Path f = m.resolve("src/main/java").resolve(main.replace('.', '/') + ".java");
                if (Files.isRegularFile(f)) {
                    source = f;
                    module = m;
                }
            }
            if (source == null) {
                problems.add(at + "no module's src/main/java holds class " + main);
                return;
            }
            if (!read(source).contains("static void main(")) {
                problems.add(at + main + " has no main method");
                return;
            }
        } else if (jar != null) {
            Matcher m = Pattern.compile("^([\\w.-]+)/target/[^/]+\\.jar$").matcher(jar);
            if (!m.matches()) {
                return; // a jar of the reader's, or one copied elsewhere
            }
            module = ROOT.resolve(m.group(1));
            if (!Files.isRegularFile(module.resolve("pom.xml"))) {
                problems.add(at + "runs " + jar + ", but '" + m.group(1) + "' is not a module of the project");
                return;
            }
        }
        if (module == null) {
            return;
        }
        String sources = mainSources(module);
        for (String arg : run.subList(Math.min(i, run.size()), run.size())) {
            if (arg.startsWith("--") && arg.length() > 2) {
                String option = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
                if (!sources.contains("\"" + option + "\"")) {
                    problems.add(at + "option '" + option + "' appears nowhere in " + ROOT.relativize(module)
                            + "/src/main/java");
                }
            }
        }
    }

    private void checkMaven(String at, List<String> run, List<String> problems) {
        List<Path> selected = new ArrayList<>();
        for (int i = 1; i < run.size(); i++) {
            String w = run.get(i);
            if ((w.equals("-pl") || w.equals("--projects")) && i + 1 < run.size()) {
                for (String name : run.get(++i).split(",")) {
                    Path m = ROOT.resolve(name.replaceFirst("^[:!]", ""));
                    if (!Files.isRegularFile(m.resolve("pom.xml"))) {
                        problems.add(at + "'" + name + "' is not a module of the project (no " + name + "/pom.xml)");
                    } else {
                        selected.add(m);
                    }
                }
            }
        }
        for (String w : run) {
            if (w.startsWith("-Dtest=")) {
                for (String test : w.substring("-Dtest=".length()).split(",")) {
                    String simple = test.replaceFirst("#.*$", "");
                    if (simple.contains("*") || simple.startsWith("!") || simple.isEmpty()) {
                        continue;
                    }
                    if (!testExists(selected.isEmpty() ? modules() : selected, simple)) {
                        problems.add(at + "no test '" + simple + "' in " + (selected.isEmpty() ? "any module"
                                : selected.stream().map(p -> ROOT.relativize(p).toString())
                                        .collect(Collectors.joining(", "))));
                    }
                }
            } else if (w.startsWith("-Dorrery.")) {
                String property = w.substring(2).replaceFirst("=.*$", "");
                String all = everySourceAndPom();
                if (!all.contains("\"" + property + "\"") && !all.contains("${" + property + "}")
                        && !all.contains("<" + property + ">")) {
                    problems.add(at + "property '" + property + "' is read by no source or pom of the project");
                }
            }
        }
    }

    private static boolean testExists(List<Path> modules, String simpleName) {
        for (Path m : modules) {
            Path tests = m.resolve("src/test/java");
            if (!Files.isDirectory(tests)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(tests)) {
                if (files.anyMatch(p -> p.getFileName().toString().equals(simpleName + ".java"))) {
                    return true;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return false;
    }

    private static List<Path> modules() {
        try (Stream<Path> dirs = Files.list(ROOT)) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("pom.xml"))).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String mainSources(Path module) {
        return mainSources.computeIfAbsent(module, m -> concat(m.resolve("src/main/java"), ".java"));
    }

    private String everySourceAndPom() {
        if (everySourceAndPom == null) {
            StringBuilder all = new StringBuilder(read(ROOT.resolve("pom.xml")));
            for (Path m : modules()) {
                all.append(read(m.resolve("pom.xml"))).append(concat(m.resolve("src"), ".java"));
            }
            everySourceAndPom = all.toString();
        }
        return everySourceAndPom;
    }

    private static String concat(Path dir, String suffix) {
        if (!Files.isDirectory(dir)) {
            return "";
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.toString().endsWith(suffix)).sorted().map(ShellBlocksTest::read)
                    .collect(Collectors.joining("\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Lines ending in a backslash joined with the next. */
    private static List<String> joinContinuations(List<String> block) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : block) {
            String t = line.stripTrailing();
            if (t.endsWith("\\")) {
                current.append(t, 0, t.length() - 1).append(' ');
            } else {
                out.add(current.append(t).toString());
                current.setLength(0);
            }
        }
        if (current.length() > 0) {
            out.add(current.toString());
        }
        return out;
    }

    /** A word of a command line; {@code quoted} when any of it was inside quotes (no expansion). */
    private record Word(String text, boolean quoted, boolean operator) {
    }

    /** The words and operators ({@code && || | ; & ( )}) of one line, quotes removed, a comment dropped. */
    private static List<Word> tokens(String line) {
        List<Word> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'' || c == '"') {
                int close = line.indexOf(c, i + 1);
                int to = close < 0 ? line.length() : close;
                word.append(line, i + 1, to);
                inWord = true;
                quoted = true;
                i = to;
            } else if (Character.isWhitespace(c) || "&|;()".indexOf(c) >= 0) {
                if (inWord) {
                    out.add(new Word(word.toString(), quoted, false));
                    word.setLength(0);
                    inWord = false;
                    quoted = false;
                }
                if ("&|;()".indexOf(c) >= 0) {
                    out.add(new Word(String.valueOf(c), false, true));
                }
            } else if (c == '#' && !inWord) {
                break; // a comment to the end of the line
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            out.add(new Word(word.toString(), quoted, false));
        }
        return out;
    }

    /** The commands of a line: the runs of words between operators. */
    private static List<List<Word>> commands(List<Word> tokens) {
        List<List<Word>> out = new ArrayList<>();
        List<Word> current = new ArrayList<>();
        for (Word w : tokens) {
            if (w.operator()) {
                if (!current.isEmpty()) {
                    out.add(current);
                }
                current = new ArrayList<>();
            } else {
                current.add(w);
            }
        }
        if (!current.isEmpty()) {
            out.add(current);
        }
        return out;
    }

    /** The command's words, an unquoted {@code $NAME} set earlier in the block split into its words. */
    private static List<String> expand(List<Word> command, Map<String, String> variables) {
        List<String> out = new ArrayList<>();
        for (Word w : command) {
            Matcher m = VARIABLE.matcher(w.text());
            if (!w.quoted() && m.matches() && variables.containsKey(m.group(1))) {
                for (String part : variables.get(m.group(1)).strip().split("\\s+")) {
                    if (!part.isEmpty()) {
                        out.add(part);
                    }
                }
            } else {
                out.add(w.text());
            }
        }
        return out;
    }
}
