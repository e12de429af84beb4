package dev.orrery.engine.journal;

import dev.orrery.engine.RunRecorder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Tells a cluster store's folder from a recording folder, by file names only (the engine does
 * not depend on the cluster module): the one rule by which the engine's {@code RunReplayer},
 * the explorer's timeline and the demo's {@code --replay} refuse a folder the cluster module's
 * {@code DirectoryWorldStore} wrote, naming the tool that checks it instead. That store keeps,
 * per world, {@code <store>/<worldId>/} with {@code epochs/}, {@code journal/} and
 * {@code snapshots/} in it.
 *
 * <p>Exported, with its package, to the explorer (and on the class path read by the demo);
 * nothing for users.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class ClusterStoreLayout {
    /** How many entries of a folder are looked at for a world's folder before giving up. */
    private static final int LOOKED_AT = 64;

    private ClusterStoreLayout() {
    }

    /**
     * True when {@code dir} holds no recording's journal ({@value RunRecorder#JOURNAL}) and is a
     * cluster store's folder: a world's folder ({@code epochs/}, {@code journal/} and
     * {@code snapshots/} in it), one of those three, or the store's own folder (a world's folder
     * among its first 64 entries). False too where {@code dir} is not a folder or cannot be
     * listed (the caller's plain refusal then names what is missing).
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
        return Files.isDirectory(dir.resolve("epochs")) && Files.isDirectory(dir.resolve("journal"))
                && Files.isDirectory(dir.resolve("snapshots"));
    }
}
