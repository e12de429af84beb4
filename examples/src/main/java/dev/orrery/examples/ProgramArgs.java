package dev.orrery.examples;

/**
 * The optional whole-number arguments of the example programs (a tick count, a port): a bad
 * one, or one more than the program takes, ends the program with one line on standard error
 * and exit code 2, not a stack trace.
 *
 * <p><b>Threading:</b> stateless; call it from {@code main}.
 */
public final class ProgramArgs {
    private ProgramArgs() {
    }

    /**
     * Ends the program when {@code args} holds more arguments than {@code names} (the names of
     * the ones it takes, in order), so that none is silently ignored: prints
     * {@code "<program>: takes at most N argument(s) (<names>); got M: '...'"} (with no
     * names, {@code "<program>: takes no arguments; got M: '...'"}) and exits with code 2.
     * Call it first in {@code main}, also in a program that takes no arguments.
     */
    public static void atMost(String program, String[] args, String... names) {
        try {
            checkAtMost(args, names);
        } catch (IllegalArgumentException bad) {
            System.err.println(program + ": " + bad.getMessage());
            System.exit(2);
            throw bad; // not reached
        }
    }

    /**
     * {@link #atMost} without the exit: throws {@link IllegalArgumentException} whose message
     * names the arguments taken and the ones given.
     */
    static void checkAtMost(String[] args, String... names) {
        if (args.length <= names.length) {
            return;
        }
        StringBuilder given = new StringBuilder();
        for (String a : args) {
            given.append(given.length() == 0 ? "'" : " '").append(a).append('\'');
        }
        if (names.length == 0) {
            throw new IllegalArgumentException("takes no arguments; got " + args.length + ": " + given);
        }
        throw new IllegalArgumentException("takes at most " + names.length + " argument" + (names.length == 1 ? "" : "s")
                + " (" + String.join(", ", names) + "); got " + args.length + ": " + given);
    }

    /**
     * Argument {@code index} of {@code args} as a whole number from {@code min} to
     * {@code max}, or {@code fallback} when there are fewer arguments. A bad value prints
     * {@code "<program>: <name> must be ..."} and exits with code 2.
     */
    public static int number(String program, String[] args, int index, String name, int fallback, int min, int max) {
        try {
            return parse(args, index, name, fallback, min, max);
        } catch (IllegalArgumentException bad) {
            System.err.println(program + ": " + bad.getMessage());
            System.exit(2);
            throw bad; // not reached
        }
    }

    /**
     * {@link #number} without the exit: throws {@link IllegalArgumentException} whose message
     * names the argument, the range and the value given.
     */
    static int parse(String[] args, int index, String name, int fallback, int min, int max) {
        if (args.length <= index) {
            return fallback;
        }
        String given = args[index];
        long value;
        try {
            value = Long.parseLong(given.trim());
        } catch (NumberFormatException notANumber) {
            value = Long.MIN_VALUE;
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " (argument " + (index + 1) + ") must be a whole number from "
                    + min + " to " + max + "; got '" + given + "'");
        }
        return (int) value;
    }
}
