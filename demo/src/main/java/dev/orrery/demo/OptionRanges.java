package dev.orrery.demo;

import java.util.Map;
import java.util.Set;
import picocli.CommandLine;

/**
 * The allowed range of every numeric option of the command line, for the error line of a
 * value picocli cannot convert to the option's type: a word, or a whole number beyond
 * {@code int} or {@code long}. Picocli's own line said only
 * {@code Invalid value for option '--agents': '99999999999' is not an int}, while a number of
 * the type outside the bounds got the bounds from the option's check; now both name them:
 * {@code --agents must be a whole number 1 to 10000000; got '99999999999'}.
 *
 * <p>The ranges are those the options' checks enforce ({@code RunOptions}, {@code ServerConfig},
 * {@code ClusterDemo.Options}, {@link LoadCommand}), with the type's largest value where a
 * check has no upper bound. {@code OptionRangesTest} fails on a numeric option of either
 * command that has no range here, and on a range of an option that is gone.
 *
 * <p><b>Threading:</b> stateless; called on the command line's thread.
 */
final class OptionRanges {
    private static final String INT_MAX = Integer.toString(Integer.MAX_VALUE);
    private static final String LONG_MAX = Long.toString(Long.MAX_VALUE);
    /** The types picocli converts as whole numbers, and as decimal ones. */
    private static final Set<Class<?>> WHOLE = Set.of(int.class, Integer.class, long.class, Long.class);
    private static final Set<Class<?>> DECIMAL = Set.of(double.class, Double.class);

    /** The ranges of the run's options ({@link Main}). */
    static final Map<String, String> RUN = Map.ofEntries(
            Map.entry("--agents", "1 to 10000000"),
            Map.entry("--teams", "2 to 8"),
            Map.entry("--ticks", "0 (until stopped) to " + LONG_MAX),
            Map.entry("--threads", "1 to 256"),
            Map.entry("--seed", Long.MIN_VALUE + " to " + LONG_MAX),
            Map.entry("--rate", "0 (as fast as possible) to 10000 ticks/s"),
            Map.entry("--warmup", "0 to " + LONG_MAX + " ticks"),
            Map.entry("--port", "0 (ephemeral) to 65535"),
            Map.entry("--max-connections", "1 to 100000"),
            Map.entry("--max-connections-per-address", "1 to " + INT_MAX),
            Map.entry("--hello-timeout", "more than 0 and at most 86400 seconds"),
            Map.entry("--idle-timeout", "more than 0 and at most 86400 seconds"),
            Map.entry("--client-rate", "1 to " + INT_MAX + " commands a second"),
            Map.entry("--client-burst", "1 to " + INT_MAX + " commands"),
            Map.entry("--max-spawn", "1 to " + INT_MAX),
            Map.entry("--spawn-budget", "1 to " + LONG_MAX + " agents"),
            Map.entry("--max-entities", "0 (the default, 2 x --agents + 100000), or --agents to " + LONG_MAX),
            Map.entry("--watchdog", "0 (off), or a finite number of steps of a nanosecond (at 60 Hz) or more"),
            Map.entry("--tick-deadline", "0 (none), or a finite number of steps of a nanosecond (at 60 Hz) or more"),
            Map.entry("--explore", "0 (ephemeral) to 65535"),
            Map.entry("--cluster-port", "0 (a free one) to 65535"),
            Map.entry("--cluster-worlds", "1 to 10000"),
            Map.entry("--cluster-min-members", "1 to 1000"),
            Map.entry("--cluster-seconds", "0 (until stopped) or more"));

    /** The ranges of {@code load}'s options ({@link LoadCommand}). */
    static final Map<String, String> LOAD = Map.of(
            "--port", "1 to 65535",
            "--connections", "1 to 10000",
            "--rate", "0 (as fast as replies allow) to 10000000",
            "--seconds", "1 to 3600",
            "--max-commands", "1 to 1000000000",
            "--polite", "1 to 64",
            "--polite-rate", "1 to 1000",
            "--silent", "0 to 1000");

    private OptionRanges() {
    }

    /** The ranges of the options of {@code command} ({@code load}, or the run's for any other name). */
    static Map<String, String> of(String command) {
        return command.equals("load") ? LOAD : RUN;
    }

    /** Whether an option of {@code type} is numeric, and so needs a range here. */
    static boolean numeric(Class<?> type) {
        return WHOLE.contains(type) || DECIMAL.contains(type);
    }

    /**
     * The error line (without {@code orrery-demo: }) for {@code e} when it is picocli's refusal
     * of a value it could not convert for a numeric option: the option, its range and the value
     * as given; null for any other parse error, which keeps its own line.
     */
    static String conversionError(CommandLine.ParameterException e) {
        if (!(e.getCause() instanceof CommandLine.TypeConversionException)
                || !(e.getArgSpec() instanceof CommandLine.Model.OptionSpec option)) {
            return null;
        }
        String range = of(e.getCommandLine().getCommandName()).get(option.longestName());
        if (!numeric(option.type()) || range == null) {
            return null;
        }
        String value = String.valueOf(e.getValue()).replaceAll("\\p{Cntrl}", "?");
        return option.longestName() + " must be " + (WHOLE.contains(option.type()) ? "a whole number " : "a number ")
                + range + "; got '" + (value.length() > 40 ? value.substring(0, 40) + "..." : value) + "'";
    }
}
