package dev.orrery.surface;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scan behind every module's doc-comment test finds what is left undocumented, and only that. */
class DocCommentsTest {
    @TempDir
    Path root;

    private void write(String file, String... lines) throws IOException {
        Path f = root.resolve(file);
        Files.createDirectories(f.getParent());
        Files.write(f, List.of(lines));
    }

    private void documentedPackage(String name) throws IOException {
        write(name.replace('.', '/') + "/package-info.java", "/** A package. */", "package " + name + ";");
    }

    @Test
    void shouldNameEachVisibleTypeAndMemberWithNoComment() throws IOException {
        documentedPackage("p");
        write("p/Plain.java",
                "package p;",
                "public class Plain {",                                    // 2: no comment
                "    /** Documented. */",
                "    public Plain() {}",
                "    public int count;",                                   // 5
                "    protected void hook() {}",                            // 6
                "    void packagePrivate() {}",
                "    private int hidden;",
                "    /** Documented. */",
                "    public void documented() {}",
                "    @Override",
                "    public String toString() { return \"\"; }",           // inherits its comment
                "    /** Documented. */",
                "    public static class Nested {",                        // 14: implicit constructor
                "        public static final int LIMIT = 1;",              // 15
                "    }",
                "    static class Hidden {",
                "        public void notSeen() {}",
                "    }",
                "}");
        write("p/Api.java",
                "package p;",
                "/** An interface. */",
                "public interface Api {",
                "    int SIZE = 4;",                                       // 4: implicitly public
                "    void run();",                                         // 5
                "    /** Documented. */",
                "    default void twice() { run(); run(); }",
                "    private void helper() {}",
                "}");
        write("p/Mode.java",
                "package p;",
                "/** An enum. */",
                "public enum Mode {",
                "    /** Documented. */",
                "    ON,",
                "    OFF",                                                 // 6
                "}");
        write("p/Point.java",
                "package p;",
                "/**",
                " * A record.",
                " *",
                " * @param x documented",
                " */",
                "public record Point(int x, int y) {",                     // 7: y has no @param
                "    public static Point origin() { return new Point(0, 0); }", // 8
                "}");
        write("p/Quiet.java",
                "package p;",
                "class Quiet {",
                "    public void notSeen() {}",
                "}");

        assertEquals(List.of(
                "p/Api.java:4: field Api.SIZE has no doc comment",
                "p/Api.java:5: method run has no doc comment",
                "p/Mode.java:6: enum constant Mode.OFF has no doc comment",
                "p/Plain.java:2: class Plain has no doc comment",
                "p/Plain.java:5: field Plain.count has no doc comment",
                "p/Plain.java:6: method hook has no doc comment",
                "p/Plain.java:14: class Nested has an implicit default constructor, which has no doc comment; "
                        + "declare it with one (or make it private)",
                "p/Plain.java:15: field Nested.LIMIT has no doc comment",
                "p/Point.java:7: record component Point.y has no @param in the record's comment",
                "p/Point.java:8: method origin has no doc comment"),
                DocComments.missing(root, Set.of("p")));
    }

    @Test
    void shouldScanOnlyTheNamedPackagesAndWantEachOneCommented() throws IOException {
        write("open/Open.java", "package open;", "/** Documented. */", "public final class Open {",
                "    private Open() {}", "}");
        write("internal/Bare.java", "package internal;", "public class Bare {", "    public void bare() {}", "}");
        write("open/package-info.java", "package open;");
        write("bare/Done.java", "package bare;", "/** Documented. */", "public final class Done {",
                "    private Done() {}", "}");

        assertEquals(List.of("bare: package bare has no package-info.java with a comment",
                "open/package-info.java: package open has no doc comment"),
                DocComments.missing(root, Set.of("open", "bare")));
    }

    @Test
    void shouldFindNothingWhenEverythingIsDocumented() throws IOException {
        documentedPackage("q");
        write("q/Done.java", "package q;", "/** Documented. */", "public final class Done {",
                "    /** Documented. */", "    public Done() {}", "}");

        assertEquals(List.of(), DocComments.missing(root, Set.of("q")));
    }

    @Test
    void shouldRefuseASourceThatDoesNotParse() throws IOException {
        documentedPackage("r");
        write("r/Broken.java", "package r;", "/** Documented. */", "public class Broken {");

        assertThrows(IllegalStateException.class, () -> DocComments.missing(root, Set.of("r")));
    }
}
