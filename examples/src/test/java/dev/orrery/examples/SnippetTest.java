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
 * No Java block in {@code README.md} or {@code docs/} can rot: each is cut from a compiled
 * source of this module. A block is preceded by a line
 * {@code <!-- snippet: dev/orrery/examples/HelloWorld.java#program -->}, and must equal the
 * lines between {@code // snippet:program} and {@code // end:program} in
 * {@code examples/src/main/java/dev/orrery/examples/HelloWorld.java}, with their common
 * indentation removed. After changing a source, run this test with
 * {@code -Dorrery.snippets.update=true} to rewrite the blocks, and review the diff.
 */
class SnippetTest {
    /** The property that rewrites the Markdown blocks from their sources instead of comparing. */
    static final String UPDATE = "orrery.snippets.update";
    private static final Pattern MARKER = Pattern.compile("^<!-- snippet: (\\S+?)#(\\S+) -->$");
    private static final Path ROOT = Path.of("..");
    private static final Path SOURCES = Path.of("src/main/java");

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
                if (!line.strip().equals("```java")) {
                    continue;
                }
                blocks++;
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                    end++;
                }
                List<String> block = lines.subList(i + 1, Math.min(end, lines.size()));
                String where = ROOT.relativize(md.normalize()) + ":" + (i + 1);
                Matcher m = i > 0 ? MARKER.matcher(lines.get(i - 1).strip()) : null;
                if (m == null || !m.matches()) {
                    problems.add(where + ": a Java block with no '<!-- snippet: path#name -->' line above it; cut it from "
                            + "a source under examples/src/main/java between '// snippet:name' and '// end:name'");
                    out.addAll(block);
                    i = end - 1;
                    continue;
                }
                List<String> source;
                try {
                    source = region(SOURCES.resolve(m.group(1)), m.group(2));
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
        assertTrue(blocks > 0, "no Java block found in README.md or docs/: the test reads the wrong folder");
        if (!problems.isEmpty()) {
            fail(problems.size() + " Java blocks are not cut from compiled sources:\n  " + String.join("\n  ", problems));
        }
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

    /** The lines of region {@code name} of {@code file}, common indentation removed, trailing spaces stripped. */
    static List<String> region(Path file, String name) throws IOException {
        if (!Files.exists(file)) {
            throw new IllegalArgumentException("no source " + file + " (paths are relative to examples/src/main/java)");
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

    private static List<Path> markdownFiles() throws IOException {
        List<Path> out = new ArrayList<>();
        out.add(ROOT.resolve("README.md"));
        Path docs = ROOT.resolve("docs");
        if (Files.isDirectory(docs)) {
            try (Stream<Path> files = Files.walk(docs)) {
                files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(out::add);
            }
        }
        return out;
    }
}
