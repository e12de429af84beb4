package dev.orrery.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orrery.bench.fixture.CommandLine;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every number a report main takes is refused up front when no machine could run it: each
 * main under {@code bench/src/main/java} is found on the compiled classes (a report added later
 * is covered too), its synopsis read from its {@code --help}, and each numeric option (and each
 * positional argument) given {@code 2147483647} on its own, in a JVM of its own with a small
 * heap. Each must end at once with exit code 2 and one line naming the option, the range it
 * takes and why, where it used to end in an {@code OutOfMemoryError} or a
 * {@code RunnerException} after a minute, or run for days.
 */
class ReportMainsSizeLimitsTest {
    /** {@code [--particles 10000,100000]}, {@code [--worlds N]}, {@code [--max 10.24m]}: a numeric option. */
    private static final Pattern NUMERIC_OPTION = Pattern.compile("(--[a-z][\\w-]*) (N|[0-9][0-9.,]*[km]?)\\]");
    /** {@code [entities]}: a positional argument. */
    private static final Pattern POSITIONAL = Pattern.compile("\\[([a-zA-Z]+)\\]");
    /** A run refused up front ends within a JVM's start; this is only the bound on a run that was not. */
    private static final long PATIENCE_S = 90;
    private static final String HUGE = Integer.toString(Integer.MAX_VALUE);

    @Test
    void shouldRefuseASizeNoMachineCanRunInOneLineNamingTheRangeAndWhy() throws Exception {
        List<String> mains = reportMains();
        assertTrue(mains.size() >= 10, "found only " + mains);
        int checked = 0;
        for (String main : mains) {
            String simple = main.substring(main.lastIndexOf('.') + 1);
            Run help = java(main, "--help");
            assertEquals(0, help.status, main + " --help: " + help.err);
            String synopsis = help.out.lines().findFirst().orElse("");
            assertTrue(synopsis.startsWith("usage: java -cp bench/target/benchmarks.jar " + main), synopsis);
            List<String[]> cases = new ArrayList<>();
            Matcher o = NUMERIC_OPTION.matcher(synopsis);
            while (o.find()) {
                cases.add(new String[] {o.group(1), o.group(1), HUGE});
            }
            Matcher p = POSITIONAL.matcher(synopsis);
            List<String> before = new ArrayList<>();
            while (p.find()) {
                List<String> args = new ArrayList<>(List.of(p.group(1)));
                args.addAll(before);
                args.add(HUGE);
                cases.add(args.toArray(String[]::new));
                before.add("1");
            }
            for (String[] c : cases) {
                String name = c[0];
                String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
                Run r = java(main, args);
                String what = main + " " + String.join(" ", args);
                assertEquals(CommandLine.USAGE_ERROR, r.status, what + " was not refused; stderr: " + r.err);
                assertEquals("", r.out, what);
                List<String> lines = r.err.lines().toList();
                assertEquals(1, lines.size(), what + " printed more than one line: " + r.err);
                String line = lines.get(0);
                assertFalse(line.contains("Exception") || line.contains("Error"), line);
                assertTrue(line.startsWith(simple + ": " + name + " "), what + ": " + line);
                assertTrue(line.contains("'" + HUGE + "'"), what + " did not name the value: " + line);
                assertTrue(line.matches(".* to [0-9]+ .*\\(.+\\).*"), what + " did not name its range and why: " + line);
                checked++;
            }
        }
        assertTrue(checked >= 25, "checked only " + checked + " options of " + mains);
    }

    /** What a main printed and returned. */
    record Run(int status, String out, String err) {
    }

    private static Run java(String main, String... args) throws IOException, InterruptedException {
        return javaWithHeap("-Xmx256m", main, args);
    }

    /**
     * Runs {@code main} with {@code args} in a JVM of its own on the test's class path, with
     * {@code heap} (such as {@code -Xmx256m}); fails the test if it still runs after
     * {@value #PATIENCE_S} s.
     */
    static Run javaWithHeap(String heap, String main, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                heap, "-cp", System.getProperty("java.class.path"), main));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(PATIENCE_S, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly); // a JMH fork it started
            p.destroyForcibly().waitFor();
            fail(main + " " + String.join(" ", args) + " still ran after " + PATIENCE_S + " s: the size was not "
                    + "refused up front");
        }
        return new Run(p.exitValue(), out.join(), err.join());
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /** The classes of the bench module with a {@code public static void main(String[])}. */
    private static List<String> reportMains() throws IOException, ClassNotFoundException {
        Path root = Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".class") && !f.getFileName().toString().contains("$"))
                    .sorted().toList()) {
                String name = root.relativize(f).toString().replace(f.getFileSystem().getSeparator(), ".")
                        .replaceAll("\\.class$", "");
                if (name.contains("jmh_generated")) {
                    continue;
                }
                Class<?> c = Class.forName(name, false, ReportMainsSizeLimitsTest.class.getClassLoader());
                try {
                    Method m = c.getMethod("main", String[].class);
                    if (Modifier.isStatic(m.getModifiers())) {
                        out.add(name);
                    }
                } catch (NoSuchMethodException notAProgram) {
                    // a benchmark or a helper
                }
            }
        }
        return out;
    }
}
