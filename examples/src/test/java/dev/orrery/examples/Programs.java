package dev.orrery.examples;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs an example's main with its output captured, for the tests that check what it prints. */
final class Programs {
    private static final Pattern HASH = Pattern.compile("hash=([0-9a-f]{16})");

    /** A main method. */
    @FunctionalInterface
    interface Main {
        void run(String[] args) throws Exception;
    }

    private Programs() {
    }

    /** The lines {@code main} prints with {@code args}; System.out is restored afterwards. */
    static synchronized List<String> run(Main main, String... args) throws Exception {
        PrintStream old = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream capture = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            main.run(args);
        } finally {
            System.setOut(old);
        }
        String out = bytes.toString(StandardCharsets.UTF_8);
        old.print(out);
        return out.lines().toList();
    }

    /** Every distinct {@code hash=...} the lines print, in order. */
    static Set<String> hashes(List<String> lines) {
        Set<String> out = new LinkedHashSet<>();
        for (String l : lines) {
            Matcher m = HASH.matcher(l);
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }
}
