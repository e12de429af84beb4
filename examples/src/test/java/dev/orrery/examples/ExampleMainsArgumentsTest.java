package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every example program refuses arguments it does not take with one line and exit code 2, so a
 * newcomer who types {@code --help} or a tick count after a program that takes none is told so
 * instead of watching it run as if nothing had been typed. Each main is found on the compiled
 * classes (a program added later is covered too) and run in its own JVM, since the refusal
 * exits. {@code HelloWorld}, the README's first program, is checked too: it refuses arguments
 * with its own three lines rather than the examples' helper, so its source stays one a reader
 * can copy, and it must say the same.
 */
class ExampleMainsArgumentsTest {
    @Test
    void shouldRefuseAnArgumentTheProgramDoesNotTakeWithOneLineAndExitCode2() throws Exception {
        List<String> mains = exampleMains();
        assertTrue(mains.size() >= 20, "found only " + mains);
        for (String main : mains) {
            String simple = main.substring(main.lastIndexOf('.') + 1);
            // two numbers are taken by the program that takes the most (port, ticks); a third is refused by all
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), main, "1", "1", "--bogus")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), main + " did not end");
            assertEquals(2, p.exitValue(), main + " ran with an argument it does not take; stderr: " + err);
            List<String> lines = err.lines().toList();
            assertEquals(1, lines.size(), main + " printed more than one line: " + err);
            assertTrue(lines.get(0).startsWith(simple + ": takes "), lines.get(0));
            assertTrue(lines.get(0).endsWith("got 3: '1' '1' '--bogus'"), lines.get(0));
        }
    }

    @Test
    void shouldRefuseAnUnknownFirstArgumentWithOneLineNamingItAndExitCode2() throws Exception {
        for (String main : exampleMains()) {
            String simple = main.substring(main.lastIndexOf('.') + 1);
            // a newcomer's first guess: a program that takes a number must not take --help for one, nor run
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), main, "--help")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), main + " did not end");
            assertEquals(2, p.exitValue(), main + " ran with '--help' as an argument; stderr: " + err);
            List<String> lines = err.lines().toList();
            assertEquals(1, lines.size(), main + " printed more than one line: " + err);
            assertTrue(lines.get(0).startsWith(simple + ": "), lines.get(0));
            assertTrue(lines.get(0).contains("'--help'"), main + " did not name the argument: " + lines.get(0));
            assertTrue(lines.get(0).contains("takes no arguments") || lines.get(0).contains("must be a whole number"),
                    main + " did not say what it takes: " + lines.get(0));
        }
    }

    @Test
    void shouldSayAProgramTakesNoArgumentsRatherThanAtMostZero() {
        ProgramArgs.checkAtMost(new String[0]);
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ProgramArgs.checkAtMost(new String[] {"--help"}));
        assertEquals("takes no arguments; got 1: '--help'", e.getMessage());
    }

    /** The classes of this module with a {@code public static void main(String[])}, HelloWorld among them. */
    private static List<String> exampleMains() throws IOException, ClassNotFoundException {
        Path root = Path.of(ProgramArgs.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".class") && !f.getFileName().toString().contains("$")).sorted().toList()) {
                String name = root.relativize(f).toString().replace(f.getFileSystem().getSeparator(), ".").replaceAll("\\.class$", "");
                Class<?> c = Class.forName(name, false, ExampleMainsArgumentsTest.class.getClassLoader());
                try {
                    Method m = c.getMethod("main", String[].class);
                    if (Modifier.isStatic(m.getModifiers())) {
                        out.add(name);
                    }
                } catch (NoSuchMethodException notAProgram) {
                    // a helper class
                }
            }
        }
        assertFalse(out.isEmpty(), "no example main found under " + root);
        assertTrue(out.contains(HelloWorld.class.getName()), "HelloWorld not found among " + out);
        return out;
    }
}
