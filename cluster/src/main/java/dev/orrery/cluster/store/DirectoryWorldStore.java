package dev.orrery.cluster.store;

import static dev.orrery.engine.journal.ClusterStoreLayout.EPOCHS_FOLDER;
import static dev.orrery.engine.journal.ClusterStoreLayout.JOURNAL_FOLDER;
import static dev.orrery.engine.journal.ClusterStoreLayout.SNAPSHOTS_FOLDER;

import dev.orrery.engine.journal.ClusterStoreLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A {@link WorldStore} in a directory every node can reach (a local folder for nodes on one
 * machine, an NFS or similar mount for several). Per world, {@code <root>/<worldId>/} holds
 * {@code epochs/<epoch>} (empty files; a claim creates the next one with an atomic
 * create-if-absent), {@code snapshots/<tick>-<epoch>.snapshot} (written to a temporary file
 * and moved into place atomically) and {@code journal/<epoch>-<startTick>.journal}; the folders'
 * names, and the epoch files', are the engine's {@link ClusterStoreLayout}'s, by which
 * {@code RunReplayer}, the explorer and the demo tell a store's folder from a recording's.
 * Nothing is deleted: old segments and snapshots stay for audits and single-node replays of
 * the whole history (a production store would compact what lies before the oldest snapshot
 * it keeps).
 *
 * <p>The fence holds as long as the file system's create-if-absent is atomic and a file
 * created on one node is visible to the others at once (true on a local disk; NFS v4 and
 * most cluster file systems give it; eventually consistent object stores do not).
 *
 * <p><b>Threading:</b> thread-safe (every method works on files only) and safe for several
 * processes sharing the directory.
 */
public final class DirectoryWorldStore implements WorldStore {
    private static final Pattern WORLD_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    private static final Pattern SNAPSHOT = Pattern.compile("(\\d+)-(\\d+)\\.snapshot");
    private static final Pattern SEGMENT = Pattern.compile("(\\d+)-(\\d+)\\.journal");
    private static final Pattern EPOCH_NAME = Pattern.compile(ClusterStoreLayout.EPOCH_FILE);
    private static final int CLAIM_ATTEMPTS = 100;
    private static final String TEMP_PREFIX = "writing-";
    private static final long STALE_TEMPORARY_MILLIS = 3_600_000;

    private final Path root;

    /**
     * A store in {@code root}, created if missing.
     *
     * @param root the directory, the same for every node that shares the worlds
     * @throws IOException if {@code root} cannot be created
     */
    public DirectoryWorldStore(Path root) throws IOException {
        this.root = Files.createDirectories(root);
    }

    /**
     * The directory holding every world's folder.
     *
     * @return the directory given to the constructor
     */
    public Path root() {
        return root;
    }

    /**
     * The ids of the worlds stored here (folders with a name a world id may have), sorted.
     *
     * @return the ids in {@code String} order; an empty list for an empty store
     * @throws IOException if {@link #root()} cannot be listed
     */
    public List<String> worldIds() throws IOException {
        List<String> out = new ArrayList<>();
        for (Matcher m : list(root, WORLD_ID)) {
            if (Files.isDirectory(root.resolve(m.group()))) {
                out.add(m.group());
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * What a world occupies in the store.
     *
     * @param bytes the bytes of its files
     * @param files its files (snapshots, journal segments, epoch markers)
     */
    public record Usage(long bytes, long files) {
    }

    /**
     * What {@code worldId} occupies now (nothing for a world never stored). Files deleted
     * while they are counted are left out.
     *
     * @param worldId a world id, letters, digits, {@code _}, {@code .} and {@code -}, at most 64
     *     characters, starting with a letter or digit
     * @return the bytes and files, both 0 for a world never stored
     * @throws IllegalArgumentException if {@code worldId} is not one this store takes
     * @throws IOException if the world's folder cannot be walked
     */
    public Usage usage(String worldId) throws IOException {
        long[] out = new long[2];
        Path dir = world(worldId);
        if (!Files.isDirectory(dir)) {
            return new Usage(0, 0);
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.filter(Files::isRegularFile).forEach(p -> {
                try {
                    out[0] += Files.size(p);
                    out[1]++;
                } catch (IOException gone) {
                    // deleted while walking: not stored any more
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return new Usage(out[0], out[1]);
    }

    @Override
    public long claim(String worldId) throws IOException {
        Path epochs = Files.createDirectories(world(worldId).resolve(EPOCHS_FOLDER));
        for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
            long next = latestEpoch(epochs) + 1;
            try {
                Files.createFile(epochs.resolve(Long.toString(next)));
                return next;
            } catch (FileAlreadyExistsException raced) {
                // another node claimed the same epoch first: read again and take the next one
            }
        }
        throw new IOException("could not claim an epoch for world '" + worldId + "' in " + epochs + " after "
                + CLAIM_ATTEMPTS + " attempts; other nodes keep claiming it (check that only one cluster uses "
                + root + ")");
    }

    @Override
    public boolean isCurrent(String worldId, long epoch) throws IOException {
        // Claims take the latest epoch plus one, so a later claim always created epoch + 1: one stat a tick.
        // Markers are forgotten oldest first (forgetEpochsBefore), so a missing own marker also means fenced.
        Path epochs = world(worldId).resolve(EPOCHS_FOLDER);
        return !Files.exists(epochs.resolve(Long.toString(epoch + 1))) && Files.exists(epochs.resolve(Long.toString(epoch)));
    }

    @Override
    public void forgetEpochsBefore(String worldId, long epoch) throws IOException {
        Path epochs = world(worldId).resolve(EPOCHS_FOLDER);
        List<Long> old = new ArrayList<>();
        for (Matcher m : list(epochs, EPOCH_NAME)) {
            long e = Long.parseLong(m.group());
            if (e < epoch) {
                old.add(e);
            }
        }
        old.sort(null); // oldest first: a marker is gone only once every marker below it is
        for (long e : old) {
            Files.deleteIfExists(epochs.resolve(Long.toString(e)));
        }
    }

    @Override
    public void deleteSnapshot(String worldId, SnapshotInfo snapshot) throws IOException {
        Files.delete(snapshotPath(worldId, snapshot.tick(), snapshot.epoch()));
    }

    @Override
    public void deleteSegment(String worldId, JournalSegment segment) throws IOException {
        Path expected = world(worldId).resolve(JOURNAL_FOLDER)
                .resolve(segment.epoch() + "-" + segment.startTick() + ".journal");
        if (!expected.equals(segment.path())) {
            throw new IllegalArgumentException("journal segment " + segment + " is not one of world '" + worldId
                    + "' in " + root + "; pass a segment listed by segments()");
        }
        Files.delete(expected);
    }

    @Override
    public List<SnapshotInfo> snapshots(String worldId) throws IOException {
        List<SnapshotInfo> out = new ArrayList<>();
        for (Matcher m : list(world(worldId).resolve(SNAPSHOTS_FOLDER), SNAPSHOT)) {
            out.add(new SnapshotInfo(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
        }
        return out;
    }

    @Override
    public byte[] readSnapshot(String worldId, SnapshotInfo snapshot) throws IOException {
        return Files.readAllBytes(snapshotPath(worldId, snapshot.tick(), snapshot.epoch()));
    }

    @Override
    public void writeSnapshot(String worldId, long epoch, long tick, byte[] snapshot) throws IOException {
        Path target = snapshotPath(worldId, tick, epoch);
        Files.createDirectories(target.getParent());
        Path tmp = Files.createTempFile(target.getParent(), TEMP_PREFIX, ".tmp");
        try {
            Files.write(tmp, snapshot);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        deleteStaleTemporaries(target.getParent());
    }

    /** Deletes snapshot temporaries a crashed writer left, once they are an hour old (no live write takes that long). */
    private static void deleteStaleTemporaries(Path dir) throws IOException {
        long cutoff = System.currentTimeMillis() - STALE_TEMPORARY_MILLIS;
        for (Matcher m : list(dir, Pattern.compile(Pattern.quote(TEMP_PREFIX) + ".*\\.tmp"))) {
            Path p = dir.resolve(m.group());
            try {
                if (Files.getLastModifiedTime(p).toMillis() < cutoff) {
                    Files.deleteIfExists(p);
                }
            } catch (NoSuchFileException gone) {
                // its writer finished, or another node cleaned it
            }
        }
    }

    @Override
    public List<JournalSegment> segments(String worldId) throws IOException {
        Path dir = world(worldId).resolve(JOURNAL_FOLDER);
        List<JournalSegment> out = new ArrayList<>();
        for (Matcher m : list(dir, SEGMENT)) {
            out.add(new JournalSegment(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), dir.resolve(m.group())));
        }
        out.sort(Comparator.comparingLong(JournalSegment::epoch).thenComparingLong(JournalSegment::startTick));
        return out;
    }

    @Override
    public Path newSegment(String worldId, long epoch, long startTick) throws IOException {
        return Files.createDirectories(world(worldId).resolve(JOURNAL_FOLDER)).resolve(epoch + "-" + startTick + ".journal");
    }

    @Override
    public String toString() {
        return "DirectoryWorldStore[" + root + "]";
    }

    private Path snapshotPath(String worldId, long tick, long epoch) {
        return world(worldId).resolve(SNAPSHOTS_FOLDER).resolve(tick + "-" + epoch + ".snapshot");
    }

    /** Refuses an id that cannot name a folder here: 1 to 64 letters, digits, '_', '.' or '-', first a letter or digit. */
    @Override
    public void checkWorldId(String worldId) {
        if (worldId == null || !WORLD_ID.matcher(worldId).matches()) {
            throw new IllegalArgumentException("world id '" + worldId + "' cannot name a folder in " + root
                    + "; use 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit");
        }
    }

    private Path world(String worldId) {
        checkWorldId(worldId);
        return root.resolve(worldId);
    }

    private static long latestEpoch(Path epochs) throws IOException {
        long max = 0;
        for (Matcher m : list(epochs, EPOCH_NAME)) {
            max = Math.max(max, Long.parseLong(m.group()));
        }
        return max;
    }

    /** The names in {@code dir} that match {@code pattern} (none if the folder is missing). */
    private static List<Matcher> list(Path dir, Pattern pattern) throws IOException {
        List<Matcher> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.forEach(p -> {
                Matcher m = pattern.matcher(p.getFileName().toString());
                if (m.matches()) {
                    out.add(m);
                }
            });
        } catch (NoSuchFileException e) {
            return out;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return out;
    }
}
