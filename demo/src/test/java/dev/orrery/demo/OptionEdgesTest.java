package dev.orrery.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each numeric option of the run and of {@code load} one step past each end of its range (and
 * past its type, negative, and zero where zero is outside): refused before any run, with exit
 * status 2 and one line, {@code orrery-demo: }, the option's name and its range's low end (as
 * {@code OptionRanges} gives it), never a stack trace. A node's options come with {@code --cluster},
 * a hostile load's with {@code --hostile}, so the value, not the mode, is what is refused.
 */
class OptionEdgesTest {
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path store;

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource(delimiter = '|', value = {
        "     | --agents                       | 0",
        "     | --agents                       | -1",
        "     | --agents                       | 10000001",
        "     | --agents                       | 2147483648",
        "     | --teams                        | 1",
        "     | --teams                        | 9",
        "     | --teams                        | -2147483648",
        "     | --ticks                        | -1",
        "     | --ticks                        | 9223372036854775808",
        "     | --threads                      | 0",
        "     | --threads                      | 257",
        "     | --seed                         | 9223372036854775808",
        "     | --seed                         | -9223372036854775809",
        "     | --rate                         | -0.001",
        "     | --rate                         | 10000.001",
        "     | --rate                         | NaN",
        "     | --rate                         | Infinity",
        "     | --warmup                       | -1",
        "     | --port                         | -1",
        "     | --port                         | 65536",
        "     | --max-connections              | 0",
        "     | --max-connections              | 100001",
        "     | --max-connections-per-address  | 0",
        "     | --hello-timeout                | 0",
        "     | --hello-timeout                | 86400.001",
        "     | --hello-timeout                | NaN",
        "     | --idle-timeout                 | -1",
        "     | --idle-timeout                 | 86401",
        "     | --client-rate                  | 0",
        "     | --client-burst                 | 0",
        "     | --max-spawn                    | 0",
        "     | --spawn-budget                 | 0",
        "     | --max-entities                 | -1",
        "     | --watchdog                     | -1",
        "     | --tick-deadline                | -1",
        "     | --explore                      | -1",
        "     | --explore                      | 65536",
        "     | --cluster-port                 | 65536",
        "     | --cluster-worlds               | 0",
        "     | --cluster-worlds               | 10001",
        "     | --cluster-min-members          | 0",
        "     | --cluster-min-members          | 1001",
        "     | --cluster-seconds              | -1",
        "load | --port                         | 0",
        "load | --port                         | 65536",
        "load | --connections                  | 0",
        "load | --connections                  | 10001",
        "load | --rate                         | -1",
        "load | --rate                         | 10000001",
        "load | --seconds                      | 0",
        "load | --seconds                      | 3601",
        "load | --max-commands                 | 0",
        "load | --max-commands                 | 1000000001",
        "load | --polite                       | 0",
        "load | --polite                       | 65",
        "load | --polite-rate                  | 0",
        "load | --polite-rate                  | 1001",
        "load | --silent                       | -1",
        "load | --silent                       | 1001",
    })
    void shouldRefuseAValuePastEitherEndInOneLineNamingTheOption(String command, String option, String value) {
        java.util.List<String> args = new java.util.ArrayList<>();
        if (command != null) {
            args.add(command);
            if (!option.equals("--port")) {
                args.addAll(java.util.List.of("--port", "1")); // load needs a port before its checks
            }
        }
        if (option.startsWith("--cluster-")) {
            // the options of a node, refused without one (and a node needs its store)
            args.addAll(java.util.List.of("--cluster", "--cluster-store", store.toString()));
        } else if (option.startsWith("--polite") || option.equals("--silent")) {
            args.add("--hostile"); // the options of a hostile load
        }
        args.addAll(java.util.List.of(option, value));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.execute(args.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        String e = err.toString(StandardCharsets.UTF_8).strip();
        assertEquals(2, status, args + ": " + e);
        assertEquals(1, e.lines().count(), "one line: " + e);
        assertTrue(e.startsWith("orrery-demo: ") && e.contains(option), "names " + option + ": " + e);
        String range = OptionRanges.of(command == null ? "run" : command).get(option);
        String low = range.split(" ")[0];
        assertTrue(e.contains(low), "gives the range (" + range + "): " + e);
        assertFalse(e.contains("Exception") || e.contains("\tat "), "no stack trace: " + e);
        assertEquals("", out.toString(StandardCharsets.UTF_8), "nothing ran");
    }
}
