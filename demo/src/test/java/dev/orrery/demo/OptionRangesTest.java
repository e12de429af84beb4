package dev.orrery.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A value picocli cannot convert for a numeric option (a word, or a whole number beyond the
 * option's type) is refused in one line that names the option's range, with the exit status
 * of every bad option (2), for every numeric option of the run and of {@code load}.
 */
class OptionRangesTest {
    private record Outcome(int status, String out, String err) {
    }

    private static Outcome main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldNameTheRangeOfAnIntOptionGivenANumberBeyondAnInt() {
        // once: "Invalid value for option '--agents': '99999999999' is not an int", with no range
        Outcome o = main("--agents", "99999999999");
        assertEquals(2, o.status(), o.err());
        assertEquals("orrery-demo: --agents must be a whole number 1 to 10000000; got '99999999999'; see --help",
                o.err().strip());
        assertEquals("", o.out());

        o = main("--port", "99999999999");
        assertEquals("orrery-demo: --port must be a whole number 0 (ephemeral) to 65535; got '99999999999'; see --help",
                o.err().strip());
        o = main("load", "--port", "many");
        assertEquals(2, o.status(), o.err());
        assertEquals("orrery-demo: --port must be a whole number 1 to 65535; got 'many'; see load --help",
                o.err().strip());
        o = main("--rate", "fast");
        assertEquals("orrery-demo: --rate must be a number 0 (as fast as possible) to 10000 ticks/s; got 'fast'; see "
                + "--help", o.err().strip());
    }

    @Test
    void shouldNameTheRangeOfEveryNumericOptionOfBothCommands() {
        CommandLine cl = new CommandLine(new Main());
        int checked = 0;
        for (CommandLine c : List.of(cl, cl.getSubcommands().get("load"))) {
            boolean load = c != cl;
            Map<String, String> ranges = OptionRanges.of(c.getCommandName());
            Set<String> numeric = new TreeSet<>();
            for (CommandLine.Model.OptionSpec option : c.getCommandSpec().options()) {
                if (!OptionRanges.numeric(option.type())) {
                    continue;
                }
                String name = option.longestName();
                numeric.add(name);
                String range = ranges.get(name);
                assertTrue(range != null, (load ? "load " : "") + name + " is numeric and has no range in OptionRanges");
                boolean whole = option.type() != double.class && option.type() != Double.class;
                String value = whole ? "99999999999999999999" : "lots";
                List<String> args = new ArrayList<>(load ? List.of("load") : List.of());
                args.addAll(List.of(name, value));
                Outcome o = main(args.toArray(String[]::new));
                String what = String.join(" ", args) + ": " + o.err();
                assertEquals(2, o.status(), what);
                assertEquals(1, o.err().strip().lines().count(), what);
                assertTrue(o.err().startsWith("orrery-demo: " + name + " must be a " + (whole ? "whole " : "") + "number "
                        + range + "; got '" + value + "'; see "), what);
                assertFalse(o.err().contains("is not a"), what);
                checked++;
            }
            assertEquals(numeric, new TreeSet<>(ranges.keySet()), "OptionRanges names an option that is not numeric or "
                    + "gone, in " + c.getCommandName());
        }
        assertTrue(checked >= 30, "only " + checked + " numeric options found");
    }

    @Test
    void shouldKeepPicoclisLineForOtherParseErrors() {
        Outcome o = main("--agents");
        assertEquals(2, o.status(), o.err());
        assertTrue(o.err().contains("Missing required parameter for option '--agents'"), o.err());
        o = main("--bogus");
        assertEquals(2, o.status(), o.err());
        assertTrue(o.err().contains("Unknown option: '--bogus'"), o.err());
    }
}
