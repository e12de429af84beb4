package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertThrows;
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
 * No Java block in a Markdown file of the project ({@code README.md}, {@code docs/}, the
 * modules' {@code README.md}s: every {@code .md} but {@code CHANGELOG.md}, which is history) can
 * rot unnoticed: each is cut from a compiled source of this module. A block is preceded by a line
 * {@code <!-- snippet: dev/orrery/examples/HelloWorld.java#program -->}, and must equal the
 * lines between {@code // snippet:program} and {@code // end:program} in
 * {@code examples/src/main/java/dev/orrery/examples/HelloWorld.java}, with their common
 * indentation removed. Code this module cannot compile (the cluster's, which brings Pekko) is cut
 * the same way from another module's compiled source, named from the project root:
 * {@code <!-- snippet: cluster/src/test/java/dev/orrery/cluster/newcomer/NewcomerOrchardTest.java#move -->}.
 * After changing a source, run this test with
 * {@code -Dorrery.snippets.update=true} to rewrite the blocks, and review the diff. The update
 * fills only blocks that exist: a new marker needs an empty Java block below it, and a marker
 * with none fails the test (the page would show nothing).
 *
 * <p>A block that cannot be real code (an outline of lines from several places of another
 * module) says so on the line above it, naming the files it outlines, from the project root:
 * {@code <!-- schematic: demo/src/main/java/dev/orrery/demo/arena/Arena.java -->}. It is not
 * compiled, but the files must exist; a Java block with neither line fails the test, so none
 * is skipped silently. A fence counts as Java when its info string's first word is
 * {@code java}, in any case ({@code ```java}, {@code ```Java title}).
 */
class SnippetTest {
    /** The property that rewrites the Markdown blocks from their sources instead of comparing. */
    static final String UPDATE = "orrery.snippets.update";
    private static final Pattern MARKER = Pattern.compile("^<!-- snippet: (\\S+?)#(\\S+) -->$");
    /** An outline that is not compiled, naming the files (from the project root) it outlines. */
    private static final Pattern SCHEMATIC = Pattern.compile("^<!-- schematic: (\\S.*?) -->$");
    private static final Pattern FENCE = Pattern.compile("^\\s*```+\\s*(\\S*).*$");
    private static final Path ROOT = Path.of("..");
    private static final Path SOURCES = Path.of("src/main/java");
    /** A marker's path into another module's compiled sources, from the project root. */
    private static final Pattern OTHER_MODULE = Pattern.compile("[a-z][a-z-]*/src/(main|test)/java/\\S+\\.java");

    @Test
    void shouldCutEveryJavaBlockOfTheReadmeAndTheBookFromCompiledSources() throws IOException {
        List<String> problems = new ArrayList<>();
        int blocks = 0;
        for (Path md : markdownFiles()) {
            List<String> lines = Files.readAllLines(md);
            List<String> out = new ArrayList<>();
            boolean changed = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                out.add(line);
                if (!isJavaFence(line)) {
                    boolean marks = MARKER.matcher(line.strip()).matches() || SCHEMATIC.matcher(line.strip()).matches();
                    if (marks && (i + 1 == lines.size() || !isJavaFence(lines.get(i + 1)))) {
                        problems.add(ROOT.relativize(md.normalize()) + ":" + (i + 1) + ": '" + line.strip()
                                + "' is followed by no Java block, so nothing is cut into the page; put an empty "
                                + "```java block on the next line and run this test with -D" + UPDATE
                                + "=true to fill it in");
                    }
                    continue;
                }
                blocks++;
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                    end++;
                }
                List<String> block = lines.subList(i + 1, Math.min(end, lines.size()));
                String where = ROOT.relativize(md.normalize()) + ":" + (i + 1);
                String above = i > 0 ? lines.get(i - 1).strip() : "";
                Matcher schematic = SCHEMATIC.matcher(above);
                if (schematic.matches()) {
                    checkOutlined(where, schematic.group(1), problems);
                    out.addAll(block);
                    i = end - 1;
                    continue;
                }
                Matcher m = MARKER.matcher(above);
                if (!m.matches()) {
                    problems.add(where + ": a Java block with no '<!-- snippet: path#name -->' line above it; cut it from "
                            + "a source under examples/src/main/java between '// snippet:name' and '// end:name', or, "
                            + "when it cannot be real code, mark it '<!-- schematic: path/of/the/File.java, ... -->' "
                            + "naming the files it outlines");
                    out.addAll(block);
                    i = end - 1;
                    continue;
                }
                List<String> source;
                try {
                    source = region(sourceFile(m.group(1)), m.group(2));
                } catch (IllegalArgumentException e) {
                    problems.add(where + ": " + e.getMessage());
                    out.addAll(block);
                    i = end - 1;
                    continue;
                }
                if (!source.equals(stripTrailing(block))) {
                    if (Boolean.getBoolean(UPDATE)) {
                        changed = true;
                    } else {
                        problems.add(where + ": the block differs from " + m.group(1) + "#" + m.group(2)
                                + "; run this test with -D" + UPDATE + "=true to copy the source in, or fix the source");
                    }
                }
                out.addAll(Boolean.getBoolean(UPDATE) ? source : block);
                i = end - 1;
            }
            if (changed) {
                Files.write(md, out);
            }
        }
        assertTrue(blocks > 0, "no Java block found in the project's Markdown files: the test reads the wrong folder");
        if (!problems.isEmpty()) {
            fail(problems.size() + " Java blocks are not cut from compiled sources:\n  " + String.join("\n  ", problems));
        }
    }

    /** True for a fence line opening a Java block: its info string's first word is "java", in any case. */
    static boolean isJavaFence(String line) {
        Matcher m = FENCE.matcher(line);
        return m.matches() && m.group(1).equalsIgnoreCase("java");
    }

    /** Adds a problem for a schematic block that names no file, or a file that does not exist. */
    static void checkOutlined(String where, String files, List<String> problems) {
        for (String f : files.split(",")) {
            String path = f.strip();
            if (path.isEmpty() || !path.endsWith(".java") || !Files.isRegularFile(ROOT.resolve(path))) {
                problems.add(where + ": the schematic block names '" + path + "', which is not a .java file of the "
                        + "project (give paths from the project root, comma-separated, of the files it outlines)");
            }
        }
    }

    @Test
    void shouldReadEveryMarkdownFileOfTheProjectAndTellJavaFences() throws IOException {
        List<Path> files = markdownFiles();
        assertTrue(files.contains(ROOT.resolve("demo/README.md")), "demo/README.md is not read: " + files);
        assertTrue(files.contains(ROOT.resolve("docs/the-simulation.md")), "the book is not read: " + files);
        assertTrue(files.stream().noneMatch(p -> p.getFileName().toString().equals("CHANGELOG.md")), files.toString());
        assertTrue(isJavaFence("```java") && isJavaFence("  ```Java title") && isJavaFence("```` java"));
        assertTrue(!isJavaFence("```") && !isJavaFence("```sh") && !isJavaFence("```javascript"));
        List<String> problems = new ArrayList<>();
        checkOutlined("x.md:1", "demo/src/main/java/dev/orrery/demo/Main.java", problems);
        assertTrue(problems.isEmpty(), problems.toString());
        String here = "dev/orrery/examples/HelloWorld.java";
        String cluster = "cluster/src/test/java/dev/orrery/cluster/newcomer/NewcomerOrchardTest.java";
        assertTrue(sourceFile(here).equals(SOURCES.resolve(here)) && sourceFile(cluster).equals(ROOT.resolve(cluster)));
        IllegalArgumentException inMainPackage = assertThrows(IllegalArgumentException.class,
                () -> sourceFile("cluster/src/test/java/dev/orrery/cluster/NodeMisuseTest.java"));
        assertTrue(inMainPackage.getMessage().contains("package dev.orrery.cluster,"), inMainPackage.getMessage());
        checkOutlined("x.md:2", "demo/src/main/java/dev/orrery/demo/Gone.java, README.md", problems);
        assertTrue(problems.size() == 2 && problems.get(0).contains("'demo/src/main/java/dev/orrery/demo/Gone.java'")
                && problems.get(1).contains("'README.md'"), problems.toString());
    }

    @Test
    void shouldCloseEveryRegionItOpens() throws IOException {
        List<String> problems = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList())) {
                List<String> lines = Files.readAllLines(f);
                for (String l : lines) {
                    String t = l.strip();
                    if (t.startsWith("// snippet:")) {
                        String name = t.substring("// snippet:".length());
                        if (lines.stream().noneMatch(x -> x.strip().equals("// end:" + name))) {
                            problems.add(f + ": region '" + name + "' is never closed with '// end:" + name + "'");
                        }
                    }
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /**
     * The source a marker names: a path under {@code examples/src/main/java}, or, for code this
     * module cannot compile (the cluster's, which brings Pekko), a path from the project root of
     * a compiled source of another module, {@code <module>/src/main/java/...} or
     * {@code <module>/src/test/java/...}, which that module's build compiles and its tests run.
     */
    static Path sourceFile(String marked) {
        if (!OTHER_MODULE.matcher(marked).matches()) {
            return SOURCES.resolve(marked);
        }
        int test = marked.indexOf("/src/test/java/");
        if (test >= 0) { // a test class in a package of the module's own would compile package-private calls
            String pkg = marked.substring(test + "/src/test/java/".length(), marked.lastIndexOf('/'));
            if (Files.isDirectory(ROOT.resolve(marked.substring(0, test) + "/src/main/java/" + pkg))) {
                throw new IllegalArgumentException(marked + " is in package " + pkg.replace('/', '.') + ", which the "
                        + "module's main sources have too, so package-private API would compile there and could reach "
                        + "the book; move the class to a package of its own (as cluster/src/test/java/dev/orrery/cluster/"
                        + "newcomer/)");
            }
        }
        return ROOT.resolve(marked);
    }

    /** The lines of region {@code name} of {@code file}, common indentation removed, trailing spaces stripped. */
    static List<String> region(Path file, String name) throws IOException {
        if (!Files.exists(file)) {
            throw new IllegalArgumentException("no source " + file + " (paths are relative to examples/src/main/java, "
                    + "or from the project root for another module's: cluster/src/test/java/...)");
        }
        List<String> lines = Files.readAllLines(file);
        int from = -1;
        int to = -1;
        for (int i = 0; i < lines.size(); i++) {
            String t = lines.get(i).strip();
            if (t.equals("// snippet:" + name)) {
                from = i + 1;
            } else if (t.equals("// end:" + name) && from >= 0) {
                to = i;
                break;
            }
        }
        if (from < 0 || to < 0) {
            throw new IllegalArgumentException(file + " has no region '" + name + "' ('// snippet:" + name + "' ... '// end:"
                    + name + "')");
        }
        List<String> region = lines.subList(from, to);
        int indent = Integer.MAX_VALUE;
        for (String l : region) {
            if (!l.isBlank()) {
                indent = Math.min(indent, l.length() - l.stripLeading().length());
            }
        }
        List<String> out = new ArrayList<>();
        for (String l : region) {
            out.add(l.isBlank() ? "" : l.substring(indent).stripTrailing());
        }
        return out;
    }

    private static List<String> stripTrailing(List<String> lines) {
        return lines.stream().map(String::stripTrailing).collect(Collectors.toList());
    }

    /**
     * Every Markdown file of the project but {@code CHANGELOG.md} (history, not documentation),
     * sorted, from {@link #ROOT}: build output ({@code target/}) and hidden folders left out.
     */
    static List<Path> markdownFiles() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            files.filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p))
                    .filter(p -> !ROOT.resolve("CHANGELOG.md").equals(p))
                    .filter(SnippetTest::outsideBuildAndHiddenFolders)
                    .sorted().forEach(out::add);
        }
        return out;
    }

    private static boolean outsideBuildAndHiddenFolders(Path p) {
        Path relative = ROOT.relativize(p);
        for (int i = 0; i < relative.getNameCount() - 1; i++) {
            String name = relative.getName(i).toString();
            if (name.equals("target") || name.equals("node_modules") || name.startsWith(".")) {
                return false;
            }
        }
        return true;
    }
}
