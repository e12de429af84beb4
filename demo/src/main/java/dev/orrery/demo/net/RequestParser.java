package dev.orrery.demo.net;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Reads one request line (without its line feed) into a {@link Request}. It checks the
 * verb, the argument count and each argument's form, so every command that reaches the
 * sink is well formed; whether an entity or field exists is the simulation's to say.
 *
 * <p><b>Threading:</b> stateless apart from its limits; the server uses it on the selector
 * thread only.
 */
final class RequestParser {
    private static final Pattern SPACES = Pattern.compile("[ \\t]+");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");
    private static final Pattern CLIENT_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,32}");
    private static final Pattern DIGITS = Pattern.compile("[0-9]+");
    private static final Pattern DECIMAL = Pattern.compile("[-+]?([0-9]+)(?:\\.([0-9]+))?");
    /**
     * Digits a MOVE coordinate may have each side of the point, not counting zeros at the start
     * of the whole part or at the end of the fraction; zeros at the start of the fraction count.
     */
    private static final int COORDINATE_DIGITS = 9;
    /** A SET value's number: sign, digits, optionally a point and digits, optionally an exponent. */
    private static final Pattern NUMBER = Pattern.compile("[-+]?([0-9]+)(?:\\.([0-9]+))?(?:[eE][-+]?([0-9]+))?");
    /**
     * Digits a SET value may have before its point, after it, and in its exponent, not counting
     * zeros at the start of the whole part or of the exponent, or at the end of the fraction;
     * zeros at the start of the fraction count.
     */
    private static final int VALUE_DIGITS = 19;
    private static final int VALUE_FRACTION_DIGITS = 17;
    private static final int EXPONENT_DIGITS = 3;
    private static final int ECHO_LIMIT = 32;

    private final int maxSpawnCount;

    RequestParser(int maxSpawnCount) {
        this.maxSpawnCount = maxSpawnCount;
    }

    /**
     * Parses {@code length} bytes of {@code line}. A trailing carriage return must already be
     * stripped; the line is not blank.
     */
    Request parse(byte[] line, int length) {
        for (int i = 0; i < length; i++) {
            int b = line[i] & 0xff;
            if ((b < 0x20 && b != '\t') || b > 0x7e) {
                return malformed("byte 0x" + Integer.toHexString(b) + " at column " + (i + 1)
                        + " is not printable ASCII; send plain ASCII text lines");
            }
        }
        String[] words = SPACES.split(new String(line, 0, length, StandardCharsets.US_ASCII).strip());
        String verb = words[0].toUpperCase(Locale.ROOT);
        switch (verb) {
            case "HELLO":
                if (words.length != 2 || !CLIENT_NAME.matcher(words[1]).matches()) {
                    return malformed("usage: HELLO <name>, a name of 1 to 32 letters, digits, '_', '.' or '-'");
                }
                return new Request.Hello(words[1]);
            case "QUIT":
                return words.length == 1 ? new Request.Quit() : malformed("usage: QUIT, with no arguments");
            case "MOVE":
                return move(words);
            case "SPAWN":
                return spawn(words);
            case "GET":
                return property(words, CommandType.GET, 4, "usage: GET <entity> <component> <field>");
            case "SET":
                return property(words, CommandType.SET, 5, "usage: SET <entity> <component> <field> <value>");
            default:
                return new Request.Rejected(ErrorCode.UNKNOWN, "unknown command '" + echo(words[0])
                        + "'; send HELLO, MOVE, SPAWN, GET, SET or QUIT");
        }
    }

    private static Request move(String[] w) {
        String usage = "usage: MOVE <squad> <x> <y>, squad a whole number 0 or more, x and y decimals like -12.5";
        if (w.length != 4) {
            return malformed(usage + "; got " + (w.length - 1) + " arguments");
        }
        long squad = wholeNumber(w[1], 9);
        if (squad < 0) {
            return malformed("squad '" + echo(w[1]) + "' is not a whole number 0 to 999999999; " + usage);
        }
        if (!coordinate(w[2]) || !coordinate(w[3])) {
            return malformed("coordinates '" + echo(w[2]) + "' '" + echo(w[3])
                    + "' must be decimals of up to 9 digits each side of the point (zeros at the start of the whole "
                    + "part and at the end of the fraction are not counted; zeros at the start of the fraction "
                    + "count); " + usage);
        }
        // -0 is taken as 0: ClientCommand.MoveSquad stores 0.0 for it
        return new Request.Command(CommandType.MOVE, (int) squad, Float.parseFloat(w[2]),
                Float.parseFloat(w[3]), 0, null, null, null);
    }

    /**
     * Whether {@code s} is a MOVE coordinate: an optional sign, digits, and optionally a point
     * and digits, with at most {@value #COORDINATE_DIGITS} digits each side of the point. Zeros
     * at the start of the whole part and at the end of the fraction are not counted
     * ({@code 0000000001} and {@code 3.2500000000} are taken), as {@link #wholeNumber} does not
     * count a squad's leading zeros; zeros at the start of the fraction are counted, since they
     * place its digits ({@code 0.000000001} is taken, {@code 0.0000000001} is refused).
     */
    private static boolean coordinate(String s) {
        java.util.regex.Matcher m = DECIMAL.matcher(s);
        return m.matches() && leading(m.group(1)) <= COORDINATE_DIGITS && trailing(m.group(2)) <= COORDINATE_DIGITS;
    }

    /**
     * Whether {@code s} is a SET value: {@code true}, {@code false}, or a decimal number with at
     * most {@value #VALUE_DIGITS} digits before the point, {@value #VALUE_FRACTION_DIGITS} after
     * it and {@value #EXPONENT_DIGITS} in its exponent, counted as {@link #coordinate} counts
     * them: zeros at the start of the whole part or of the exponent, and at the end of the
     * fraction, are not counted ({@code 00000000000000000001}, {@code 2.50000000000000000000}
     * and {@code 1e0001} are taken); zeros at the start of the fraction are
     * ({@code 0.00000000000000001} is taken, {@code 0.000000000000000001} is refused: written
     * {@code 1e-18} it is taken).
     */
    private static boolean value(String s) {
        if (s.equals("true") || s.equals("false")) {
            return true;
        }
        java.util.regex.Matcher m = NUMBER.matcher(s);
        return m.matches() && leading(m.group(1)) <= VALUE_DIGITS && trailing(m.group(2)) <= VALUE_FRACTION_DIGITS
                && (m.group(3) == null || leading(m.group(3)) <= EXPONENT_DIGITS);
    }

    /** The digits of a whole part or an exponent, {@code digits}, from its first non-zero one (one for all zeros). */
    private static int leading(String digits) {
        int first = 0;
        while (first < digits.length() - 1 && digits.charAt(first) == '0') {
            first++;
        }
        return digits.length() - first;
    }

    /** The digits of the fraction {@code digits} up to its last non-zero one (none for null). */
    private static int trailing(String digits) {
        int end = digits == null ? 0 : digits.length();
        while (end > 0 && digits.charAt(end - 1) == '0') {
            end--;
        }
        return end;
    }

    private Request spawn(String[] w) {
        String usage = "usage: SPAWN <count>, count 1 to " + maxSpawnCount;
        if (w.length != 2) {
            return malformed(usage);
        }
        long count = wholeNumber(w[1], 10);
        if (count < 1 || count > maxSpawnCount) {
            return malformed("count '" + echo(w[1]) + "' is out of range; " + usage);
        }
        return new Request.Command(CommandType.SPAWN, (int) count, 0, 0, 0, null, null, null);
    }

    private static Request property(String[] w, CommandType type, int words, String usage) {
        if (w.length != words) {
            return malformed(usage + "; got " + (w.length - 1) + " arguments");
        }
        long entity = wholeNumber(w[1], 19);
        if (entity < 0) {
            return malformed("entity '" + echo(w[1]) + "' is not an entity id (a whole number 0 to "
                    + Long.MAX_VALUE + "); " + usage);
        }
        if (!NAME.matcher(w[2]).matches() || !NAME.matcher(w[3]).matches()) {
            return malformed("component '" + echo(w[2]) + "' and field '" + echo(w[3])
                    + "' must be names: a letter or '_', then up to 63 letters, digits or '_'; " + usage);
        }
        String value = null;
        if (type == CommandType.SET) {
            value = w[4];
            if (!value(value)) {
                return malformed("value '" + echo(value) + "' must be true, false or a decimal number of up to "
                        + VALUE_DIGITS + " digits before the point, " + VALUE_FRACTION_DIGITS + " after it and "
                        + EXPONENT_DIGITS + " in an exponent (leading zeros of the whole part or exponent and "
                        + "trailing zeros of the fraction are not counted; write 1e-18, not 0.000000000000000001); "
                        + usage);
            }
        }
        return new Request.Command(type, 0, 0, 0, entity, w[2], w[3], value);
    }

    /**
     * The whole number {@code s} spells, or -1 if it is not one of at most {@code maxDigits}
     * digits that fits a long. Leading zeros are not counted ({@code 0000000001} is 1), so a
     * value in range is taken however it is padded; only the digits after them can make it too
     * long. MOVE's squad, SPAWN's count and GET's and SET's entity all go through here (MOVE's
     * coordinates and SET's value count their digits alike: {@link #coordinate}, {@link #value}).
     */
    private static long wholeNumber(String s, int maxDigits) {
        if (!DIGITS.matcher(s).matches()) {
            return -1;
        }
        int first = 0;
        while (first < s.length() - 1 && s.charAt(first) == '0') {
            first++;
        }
        if (s.length() - first > maxDigits) {
            return -1;
        }
        try {
            return Long.parseLong(s, first, s.length(), 10);
        } catch (NumberFormatException tooLarge) {
            return -1;
        }
    }

    private static Request.Rejected malformed(String message) {
        return new Request.Rejected(ErrorCode.MALFORMED, message);
    }

    /** Cuts client text before it is echoed in an error, so a reply never grows with the request. */
    private static String echo(String s) {
        return s.length() <= ECHO_LIMIT ? s : s.substring(0, ECHO_LIMIT) + "...";
    }
}
