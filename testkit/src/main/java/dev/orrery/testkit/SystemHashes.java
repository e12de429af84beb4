package dev.orrery.testkit;

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The kit's file beside a recording, {@value #FILE}: the names of the game's systems (in graph
 * order) and components (in registration order), then for every tick the world's state hash
 * after each system and after each sync point that applied commands (naming the systems that
 * recorded them). With it two recordings, or a recording and a replay, can name the first
 * system, or the first system's commands, after which they differ without running both
 * versions of the game.
 *
 * <p>Format (big-endian): 8 bytes of magic; an int count and that many UTF strings of system
 * names; an int count and that many UTF strings of component names; then records up to the end
 * of the file, one per tick, tick by tick (a record cut short by a crash is dropped; one that
 * is not the tick after the record before it is refused: a count before it is damaged). Two
 * versions are read:
 * <ul>
 *   <li>{@code ORRSYSH2}, written now: a record is a long tick, an int count of points and that
 *       many points, each an int code then a long hash. A code {@code p >= 0} is the point after
 *       the system at graph position {@code p}; a code {@code -1 - n} is the point after a sync
 *       point, followed by the {@code n} ints of the graph positions of the systems whose
 *       commands it applied.
 *   <li>{@code ORRSYSH1}, from older recordings: a record is a long tick, an int count and that
 *       many long hashes, one after each system; it holds no sync point.
 * </ul>
 */
final class SystemHashes {
    static final String FILE = "systems.hashes";
    private static final byte[] MAGIC_V1 = {'O', 'R', 'R', 'S', 'Y', 'S', 'H', '1'};
    private static final byte[] MAGIC = {'O', 'R', 'R', 'S', 'Y', 'S', 'H', '2'};
    private static final int MAX_NAMES = 1 << 16;
    /** The largest file read whole (the most an array holds). */
    private static final long MAX_FILE_BYTES = Integer.MAX_VALUE - 8;

    final List<String> systems;
    final List<String> components;
    /** Per tick, the hash after each system. */
    final Map<Long, long[]> ticks;
    /**
     * Per tick, every point in order (after each system and after each sync point), as a
     * {@link SystemTrail} holds them; null for an {@code ORRSYSH1} file, which has no sync point.
     */
    final Map<Long, List<SystemTrail.Point>> points;

    private SystemHashes(List<String> systems, List<String> components, Map<Long, long[]> ticks,
            Map<Long, List<SystemTrail.Point>> points) {
        this.systems = systems;
        this.components = components;
        this.ticks = ticks;
        this.points = points;
    }

    /**
     * The line that says which systems one recording has and the other has not (a system renamed,
     * added or removed between two versions of a game), or empty when either has no file or both
     * name the same systems: the states may still agree, but a recording replays only into a game
     * with its own systems.
     */
    static Optional<String> namesDiffer(SystemHashes a, SystemHashes b) {
        if (a == null || b == null || new TreeSet<>(a.systems).equals(new TreeSet<>(b.systems))) {
            return Optional.empty();
        }
        List<String> onlyA = a.systems.stream().filter(n -> !b.systems.contains(n)).toList();
        List<String> onlyB = b.systems.stream().filter(n -> !a.systems.contains(n)).toList();
        return Optional.of("systems: a has " + onlyA + " that b has not, b has " + onlyB + " that a has not (renamed, "
                + "added or removed); a recording replays only into a game with its own systems, so a golden "
                + "recording of one version fails in the other at tick 0 even where the states agree");
    }

    /** The file in {@code dir}, or null when the recording has none (it was not made by the kit). */
    static SystemHashes readIfPresent(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        long size = Files.size(file);
        if (size > MAX_FILE_BYTES) {
            throw new IOException(file + " holds " + size + " bytes, more than the " + MAX_FILE_BYTES
                    + " the test kit reads at once; record fewer ticks per recording (or it is not a file the kit wrote)");
        }
        // Read whole, so that every count and length is checked against the bytes left (available())
        // before anything is allocated for it; what is read is about a tenth of what it becomes.
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(Files.readAllBytes(file)))) {
            byte[] magic = new byte[MAGIC.length];
            in.readFully(magic);
            boolean v1 = Arrays.equals(magic, MAGIC_V1);
            if (!v1 && !Arrays.equals(magic, MAGIC)) {
                throw new IOException(file + " does not start with ORRSYSH2 or ORRSYSH1: it is not a file the test kit "
                        + "wrote (or one from a newer kit)");
            }
            List<String> systems = names(in, file, "system");
            List<String> components = names(in, file, "component");
            Map<Long, long[]> ticks = new LinkedHashMap<>();
            Map<Long, List<SystemTrail.Point>> points = v1 ? null : new LinkedHashMap<>();
            long last = -1;
            int lastCount = 0;
            for (;;) {
                long tick;
                try {
                    tick = in.readLong();
                } catch (EOFException end) {
                    break;
                }
                if (!ticks.isEmpty() && tick != last + 1) {
                    // a count that still fits one pass, or the bytes left, read into the records after it (or
                    // stopped short of its own): the bytes read as this tick are part of another record
                    throw new IOException(file + ": tick " + last + " lists " + lastCount + (v1 ? " hashes" : " points")
                            + ", but the record after them is tick " + tick + ", not tick " + (last + 1) + " (the "
                            + "records follow tick by tick): the count is damaged; record the recording again "
                            + "(GoldenRecording.record)");
                }
                try {
                    if (v1) {
                        long[] h = hashesV1(in, file, tick, systems.size());
                        ticks.put(tick, h);
                        lastCount = h.length;
                    } else {
                        List<SystemTrail.Point> p = pointsV2(in, file, tick, systems);
                        ticks.put(tick, afterSystems(p));
                        points.put(tick, p);
                        lastCount = p.size();
                    }
                    last = tick;
                } catch (EOFException cut) {
                    break; // the last record was cut short
                }
            }
            return new SystemHashes(systems, components, ticks, points);
        } catch (EOFException e) {
            throw new IOException(file + " ends inside its header; the file is damaged");
        }
    }

    private static long[] hashesV1(DataInputStream in, Path file, long tick, int systems) throws IOException {
        int n = count(in, file, tick, "hashes", systems, systems, Long.BYTES);
        long[] h = new long[n];
        for (int i = 0; i < n; i++) {
            h[i] = in.readLong();
        }
        return h;
    }

    /**
     * One tick's points of an {@code ORRSYSH2} record. One pass through the schedule passes each
     * system once and, at most, a sync point before each system, one after each exclusive system
     * and one at the end of each phase; a sync point applies the commands of the systems that
     * recorded since the last one (an exclusive system's twice): a pass holds at most
     * {@code 4 * systems + 1} points, and a sync point names at most as many systems. A fixed-step
     * phase that runs several steps in the tick passes its part of the schedule once a step, so
     * the tick's count may be larger where the file holds the bytes for it ({@link #count}); a
     * damaged count cannot ask for more than the file backs.
     */
    private static List<SystemTrail.Point> pointsV2(DataInputStream in, Path file, long tick, List<String> systems)
            throws IOException {
        int max = 4 * systems.size() + 1;
        int n = count(in, file, tick, "points", systems.size(), max, Integer.BYTES + Long.BYTES);
        List<SystemTrail.Point> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int code = in.readInt();
            if (code >= 0) {
                out.add(new SystemTrail.Point(name(systems, code, file, tick), null, in.readLong()));
                continue;
            }
            long count = -1L - code;
            if (count > max) {
                throw new IOException(file + ": tick " + tick + " has a sync point that applied the commands of " + count
                        + " systems (at most " + max + " for " + systems.size() + " systems); the file is damaged");
            }
            List<String> who = new ArrayList<>((int) count);
            for (int k = 0; k < count; k++) {
                who.add(name(systems, in.readInt(), file, tick));
            }
            out.add(new SystemTrail.Point(null, List.copyOf(who), in.readLong()));
        }
        return List.copyOf(out);
    }

    /**
     * A tick's count of {@code what} (hashes or points), each at least {@code bytes} long: a tick
     * that passes each system once holds at most {@code onePass}; a fixed-step phase that runs
     * several steps in the tick passes its systems (and sync points) once a step, so a larger
     * count is read when the file holds its bytes. A count that one pass allows but whose bytes
     * the file does not hold is a record cut short (an {@link EOFException}, dropped); a larger
     * one, or a negative one, is refused, so that a damaged count allocates nothing. A damaged
     * count read here reads into the next record (or stops short of its own), which
     * {@link #readIfPresent} then refuses: the record after it is not the next tick.
     */
    private static int count(DataInputStream in, Path file, long tick, String what, int systems, int onePass,
            int bytes) throws IOException {
        int n = in.readInt();
        if (n >= 0 && n <= onePass) {
            return n;
        }
        if (n >= 0 && (long) n * bytes <= in.available()) {
            return n; // a fixed-step phase ran several steps in this tick
        }
        throw new IOException(file + ": tick " + tick + " lists " + n + " " + what + " for " + systems + " systems, "
                + "more than one pass of them (at most " + onePass + ") and more than the " + in.available()
                + " bytes left hold; the file is damaged (or cut short inside a tick in which a fixed-step phase ran "
                + "many steps): record it again");
    }

    private static String name(List<String> systems, int position, Path file, long tick) throws IOException {
        if (position < 0 || position >= systems.size()) {
            throw new IOException(file + ": tick " + tick + " names system #" + position + " of " + systems.size()
                    + "; the file is damaged");
        }
        return systems.get(position);
    }

    private static long[] afterSystems(List<SystemTrail.Point> points) {
        return points.stream().filter(p -> p.recordedBy() == null).mapToLong(SystemTrail.Point::hash).toArray();
    }

    private static List<String> names(DataInputStream in, Path file, String what) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_NAMES) {
            throw new IOException(file + " lists " + n + " " + what + " names, more than the " + MAX_NAMES
                    + " a game may have; the file is damaged");
        }
        if (2L * n > in.available()) {
            throw new IOException(file + " lists " + n + " " + what + " names but only " + in.available()
                    + " bytes follow (a name takes at least 2); the file is damaged");
        }
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            in.mark(2);
            int length = in.readUnsignedShort();
            in.reset();
            if (length + 2 > in.available()) {
                throw new EOFException(); // checked first: reading the name would allocate for its length
            }
            try {
                out.add(in.readUTF());
            } catch (UTFDataFormatException e) {
                throw new IOException(file + ": " + what + " name " + i + " is not modified UTF-8 (" + e.getMessage()
                        + "); the file is damaged", e);
            }
        }
        return List.copyOf(out);
    }

    /** The position of the first system after which {@code a} and {@code b} differ, or -1. */
    static int firstDifference(long[] a, long[] b) {
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            if (a[i] != b[i]) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Writes the file as a run goes: the header at creation, then one record per tick. The
     * points of a tick wait in arrays that grow to the largest tick and are reused, so a tick
     * allocates nothing once they have grown.
     *
     * <p><b>Threading:</b> one thread, the simulation's tick thread (its hooks call
     * {@link #system} and {@link #syncPoint}).
     */
    static final class Writer implements Closeable {
        private final DataOutputStream out;
        private int[] codes = new int[16];
        private long[] hashes = new long[16];
        private int points;
        private int[] recordedBy = new int[16];
        private int recorded;

        Writer(Path dir, List<String> systems, List<String> components) throws IOException {
            out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(dir.resolve(FILE))));
            out.write(MAGIC);
            out.writeInt(systems.size());
            for (String s : systems) {
                out.writeUTF(s);
            }
            out.writeInt(components.size());
            for (String c : components) {
                out.writeUTF(c);
            }
        }

        /** The world hashed {@code hash} after the system at graph position {@code position}. */
        void system(int position, long hash) {
            point(position, hash);
        }

        /**
         * The world hashed {@code hash} after a sync point that applied the commands of the systems
         * at the first {@code count} graph positions in {@code by} (read during the call only).
         */
        void syncPoint(int[] by, int count, long hash) {
            if (recorded + count > recordedBy.length) {
                recordedBy = Arrays.copyOf(recordedBy, Math.max(2 * recordedBy.length, recorded + count));
            }
            System.arraycopy(by, 0, recordedBy, recorded, count);
            recorded += count;
            point(-1 - count, hash);
        }

        private void point(int code, long hash) {
            if (points == codes.length) {
                codes = Arrays.copyOf(codes, 2 * points);
                hashes = Arrays.copyOf(hashes, 2 * points);
            }
            codes[points] = code;
            hashes[points++] = hash;
        }

        /** Writes the points since the last call as tick {@code tick}'s record, and forgets them. */
        void endTick(long tick) throws IOException {
            out.writeLong(tick);
            out.writeInt(points);
            int by = 0;
            for (int i = 0; i < points; i++) {
                int code = codes[i];
                out.writeInt(code);
                for (int k = 0; k < -1 - code; k++) {
                    out.writeInt(recordedBy[by++]);
                }
                out.writeLong(hashes[i]);
            }
            points = 0;
            recorded = 0;
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
