package dev.orrery.engine.journal;

import dev.orrery.engine.RunRecorder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Tells a cluster store's folder from a recording folder, by file names only (the engine does
 * not depend on the cluster module): the one rule by which the engine's {@code RunReplayer},
 * the explorer's timeline and the demo's {@code --replay} refuse a folder the cluster module's
 * {@code DirectoryWorldStore} wrote, naming the tool that checks it instead. That store keeps,
 * per world, {@code <store>/<worldId>/} with {@value #EPOCHS_FOLDER}{@code /} (an empty file
 * per epoch claimed, named by the epoch's number), {@value #JOURNAL_FOLDER}{@code /} and
 * {@value #SNAPSHOTS_FOLDER}{@code /} in it, and spells those names with the constants here, so
 * the store and this rule cannot drift apart.
 *
 * <p>Exported, with its package, to the explorer and the cluster (and on the class path read
 * by the demo); nothing for users.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class ClusterStoreLayout {
    /** The folder of a world's epoch files, one empty file per epoch claimed. */
    public static final String EPOCHS_FOLDER = "epochs";
    /** The folder of a world's journal segments. */
    public static final String JOURNAL_FOLDER = "journal";
    /** The folder of a world's snapshots. */
    public static final String SNAPSHOTS_FOLDER = "snapshots";
    /** The regular expression an epoch file's name matches: the epoch's number in decimal digits. */
    public static final String EPOCH_FILE = "\\d+";

    /** How many entries of a folder are looked at for a world's folder, or an epoch file, before giving up. */
    private static final int LOOKED_AT = 64;
    private static final Pattern EPOCH_NAME = Pattern.compile(EPOCH_FILE);

    private ClusterStoreLayout() {
    }

    /**
     * What a folder {@link #isClusterStore} recognises is, in the words the engine's
     * {@code RunReplayer}, the explorer's timeline and the demo's {@code --replay} use when they
     * refuse one: {@code "a cluster store's folder (...)"}, saying which folders a world keeps and
     * when; each tool adds what it replays and the tool that checks a store instead. One text, so
     * it follows this rule: a world that was only claimed keeps {@value #EPOCHS_FOLDER}{@code /}
     * alone.
     */
    public static String description() {
        return "a cluster store's folder (the store the cluster module's DirectoryWorldStore writes, a world's "
                + "folder in it or one of that folder's own: each world keeps " + EPOCHS_FOLDER + "/, a file per "
                + "epoch claimed, and " + JOURNAL_FOLDER + "/ and " + SNAPSHOTS_FOLDER + "/ once it has journaled a "
                + "tick and stored a snapshot)";
    }

    /**
     * True when {@code dir} holds no recording's journal ({@value RunRecorder#JOURNAL}) and is a
     * cluster store's folder: a world's folder, one of the folders in it, or the store's own
     * folder (a world's folder among its first 64 entries). A world's folder holds an
     * {@value #EPOCHS_FOLDER}{@code /} folder with an epoch file among its first 64 entries
     * (every world the store has claimed, even one that never journaled a tick or took a
     * snapshot), or all three of {@value #EPOCHS_FOLDER}{@code /}, {@value #JOURNAL_FOLDER}{@code /}
     * and {@value #SNAPSHOTS_FOLDER}{@code /}. False too where {@code dir} is not a folder or
     * cannot be listed (the caller's plain refusal then names what is missing).
     */
    public static boolean isClusterStore(Path dir) {
        if (Files.exists(dir.resolve(RunRecorder.JOURNAL))) {
            return false; // a recording (perhaps cut before its snapshot), whatever else the folder holds
        }
        if (worldFolder(dir) || dir.getParent() != null && worldFolder(dir.getParent())) {
            return true;
        }
        try (Stream<Path> children = Files.list(dir)) {
            return children.limit(LOOKED_AT).anyMatch(ClusterStoreLayout::worldFolder);
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
    }

    private static boolean worldFolder(Path dir) {
        Path epochs = dir.resolve(EPOCHS_FOLDER);
        if (!Files.isDirectory(epochs)) {
            return false;
        }
        if (Files.isDirectory(dir.resolve(JOURNAL_FOLDER)) && Files.isDirectory(dir.resolve(SNAPSHOTS_FOLDER))) {
            return true;
        }
        try (Stream<Path> files = Files.list(epochs)) {
            return files.limit(LOOKED_AT).anyMatch(f -> EPOCH_NAME.matcher(f.getFileName().toString()).matches()
                    && Files.isRegularFile(f));
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
    }
}
