package dev.orrery.demo.run;

import dev.orrery.demo.arena.ArenaConfig;
import dev.orrery.engine.RunRecorder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * A recording's arena parameters file ({@value #FILE}): the arena's {@code agents},
 * {@code teams} and {@code seed}, which {@code --replay} builds the same arena from.
 *
 * <p>Reading checks every byte before the arena is built: the file is UTF-8 in the
 * {@link Properties} format, at most {@value #MAX_BYTES} bytes, holds exactly those three
 * properties, each a whole number in the arena's range; anything else is refused with one
 * line naming the file, the property and the fix. After the starting snapshot is restored,
 * {@link #checkAgainst} compares the file with the parameters the snapshot itself carries,
 * so an edited file cannot replay another arena under the recorded hashes.
 *
 * <p><b>Threading:</b> stateless; called by the run's thread.
 */
public final class RecordingParameters {
    /** The parameters file's name in a recording folder. */
    public static final String FILE = "arena.properties";
    /** The largest parameters file read (the file {@code --record} writes is under 200 bytes). */
    public static final int MAX_BYTES = 4096;
    private static final Set<String> NAMES = Set.of("agents", "teams", "seed");

    private RecordingParameters() {
    }

    /**
     * Writes {@code config} as {@value #FILE} in {@code dir} (created if missing): under a
     * temporary name first, then renamed, so a crash leaves the whole file or none.
     *
     * @throws java.nio.file.FileAlreadyExistsException (an {@code IOException}) naming the file,
     *     if the folder already holds one, or a recording's snapshot, journal or hash log (an
     *     earlier recording is never overwritten nor added to), as {@code RunRecorder.start}
     *     refuses such a folder
     * @throws IOException if it cannot be written
     */
    public static void write(Path dir, ArenaConfig config) throws IOException {
        Files.createDirectories(dir);
        // the recorder's own files too, before this one is written: a folder RunRecorder.start
        // refuses next must be left as it was, not with this run's parameters beside its snapshot
        for (String name : new String[] {FILE, RunRecorder.SNAPSHOT, RunRecorder.JOURNAL, RunRecorder.COLUMNS}) {
            if (Files.exists(dir.resolve(name))) {
                // the JDK's type naming the file, as RunRecorder.start and the kit's GoldenRecording refuse it
                throw new java.nio.file.FileAlreadyExistsException(dir.resolve(name).toString(), null, "recording "
                        + "folder " + dir + " already holds " + name + "; record into an empty folder so no earlier "
                        + "run is overwritten");
            }
        }
        Path file = dir.resolve(FILE);
        Properties p = new Properties();
        p.setProperty("agents", Integer.toString(config.agents()));
        p.setProperty("teams", Integer.toString(config.teams()));
        p.setProperty("seed", Long.toString(config.seed()));
        Path tmp = dir.resolve(FILE + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            p.store(w, "Orrery arena recording: the parameters --replay rebuilds the arena from");
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Reads {@value #FILE} in the recording folder {@code dir}.
     *
     * @throws IOException with one line naming the file, and the property where one is at
     *     fault, if the file is missing, too long, damaged, or a property is missing,
     *     unknown, not a whole number or out of the arena's range
     */
    public static ArenaConfig read(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            throw new IOException("no " + FILE + " in " + dir + "; --replay needs a folder written by --record");
        }
        if (Files.size(file) > MAX_BYTES) {
            throw new IOException(file + " is " + Files.size(file) + " bytes, more than a parameters file's "
                    + MAX_BYTES + "; it is not the file --record wrote; " + FIX);
        }
        return parse(file.toString(), Files.readAllBytes(file));
    }

    /**
     * Parses the content of a parameters file; {@code name} names it in messages.
     *
     * @throws IOException as {@link #read} does
     */
    public static ArenaConfig parse(String name, byte[] content) throws IOException {
        if (content.length > MAX_BYTES) {
            throw damaged(name, "it is " + content.length + " bytes, more than a parameters file's " + MAX_BYTES);
        }
        Properties p = new Properties();
        try (Reader r = new InputStreamReader(new ByteArrayInputStream(content), StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT))) {
            p.load(r);
        } catch (CharacterCodingException e) {
            throw damaged(name, "it is not UTF-8 text");
        } catch (IllegalArgumentException e) { // a malformed \\uXXXX escape
            throw damaged(name, e.getMessage());
        }
        Set<String> unknown = new TreeSet<>(p.stringPropertyNames());
        unknown.removeAll(NAMES);
        if (!unknown.isEmpty()) {
            throw damaged(name, "it holds " + quoted(unknown) + ", which a parameters file does not (it holds agents, "
                    + "teams and seed)");
        }
        int agents = (int) number(name, p, "agents", Integer.MIN_VALUE, Integer.MAX_VALUE);
        int teams = (int) number(name, p, "teams", Integer.MIN_VALUE, Integer.MAX_VALUE);
        long seed = number(name, p, "seed", Long.MIN_VALUE, Long.MAX_VALUE);
        try {
            return new ArenaConfig(agents, teams, seed);
        } catch (IllegalArgumentException e) {
            String property = e.getMessage().startsWith("teams") ? "teams" : "agents";
            throw new IOException("property '" + property + "' of " + name + ": " + e.getMessage()
                    + "; " + FIX);
        }
    }

    /**
     * Checks the parameters file ({@code fromFile}, read from {@code name}) against the
     * parameters the recording's starting snapshot carries ({@code recorded}).
     *
     * @param snapshot the snapshot file, for the message
     * @throws IOException naming the first property that differs, both values, and both files
     */
    public static void checkAgainst(String name, ArenaConfig fromFile, String snapshot, ArenaConfig recorded)
            throws IOException {
        String property = fromFile.agents() != recorded.agents() ? "agents"
                : fromFile.teams() != recorded.teams() ? "teams"
                : fromFile.seed() != recorded.seed() ? "seed" : null;
        if (property == null) {
            return;
        }
        throw new IOException("property '" + property + "' of " + name + " is " + value(fromFile, property) + " but "
                + snapshot + " was recorded with " + property + "=" + value(recorded, property)
                + "; the files are not from one recording: set " + property + "=" + value(recorded, property) + " in "
                + FILE + " (the snapshot's value), or record the run again");
    }

    /**
     * Checks the parameters file's seed against the seed the recording's starting snapshot was
     * taken with ({@code recordedSeed}, from {@code Simulation.snapshotSeed}), before the
     * snapshot is restored: the engine would refuse it with a fix meant for code that builds a
     * simulation, while a {@code --replay} user can change the parameters file. Agents and
     * teams are compared by {@link #checkAgainst} after the restore, from the snapshot's
     * {@code Arena.CONFIG} resource.
     *
     * @throws IOException {@link #checkAgainst}'s message for the seed when the two differ
     */
    static void checkSeed(String name, ArenaConfig fromFile, String snapshot, long recordedSeed) throws IOException {
        if (fromFile.seed() != recordedSeed) {
            checkAgainst(name, fromFile, snapshot, new ArenaConfig(fromFile.agents(), fromFile.teams(), recordedSeed));
        }
    }

    private static long value(ArenaConfig c, String property) {
        return switch (property) {
            case "agents" -> c.agents();
            case "teams" -> c.teams();
            default -> c.seed();
        };
    }

    private static long number(String name, Properties p, String property, long min, long max) throws IOException {
        String text = p.getProperty(property);
        if (text == null) {
            throw damaged(name, "it lacks property '" + property + "'");
        }
        try {
            long v = Long.parseLong(text.strip());
            if (v < min || v > max) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IOException("property '" + property + "' of " + name + " is '" + printable(text)
                    + "', not a whole number in range; " + FIX);
        }
    }

    /**
     * What to do about a damaged parameters file: it is part of the recording, so the fix is a
     * new recording, or the file from a copy of this one.
     */
    private static final String FIX = "record the run again, or copy " + FILE + " from a backup of this recording";

    private static IOException damaged(String name, String why) {
        // only what is quoted from the file is cut (quoted, printable); the explanation is kept whole
        return new IOException(name + " is damaged: " + withoutControls(why) + "; " + FIX);
    }

    private static String quoted(Set<String> names) {
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            sb.append(sb.length() == 0 ? "" : ", ").append('\'').append(printable(n)).append('\'');
            if (sb.length() > 200) {
                sb.append(", ...");
                break;
            }
        }
        return sb.toString();
    }

    /** {@code text} cut to 80 characters, with control characters (line breaks among them) shown as {@code ?}. */
    private static String printable(String text) {
        return withoutControls(text.length() > 80 ? text.substring(0, 80) + "..." : text);
    }

    /** {@code t} with control characters (line breaks among them) shown as {@code ?}, so the message stays one line. */
    private static String withoutControls(String t) {
        StringBuilder sb = new StringBuilder(t.length());
        t.codePoints().forEach(c -> sb.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return sb.toString();
    }
}
