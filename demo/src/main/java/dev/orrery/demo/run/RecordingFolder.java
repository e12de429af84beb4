package dev.orrery.demo.run;

import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.journal.ClusterStoreLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the command line says about a recording folder before it is used: a {@code --replay}
 * folder checked for its files (in one line naming the folder, the file and what to do) before
 * anything is read from it, and a file-system failure of {@code --record} named in a few words.
 * The contents of the files are checked by their readers ({@link RecordingParameters}, the
 * snapshot and the journal).
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class RecordingFolder {
    private RecordingFolder() {
    }

    /**
     * The one-line failure of {@code --record dir}, with {@code e} as its cause: a recording's
     * file already there ({@link RecordingParameters#write}, {@code RunRecorder.start}: a
     * {@code FileAlreadyExistsException} whose reason names the folder, the file and what to
     * do) in its own words after the option; any other failure named in a few words with what to
     * give {@code --record} instead.
     */
    static IOException cannotRecord(Path dir, java.nio.file.FileSystemException e) {
        if (e instanceof java.nio.file.FileAlreadyExistsException && e.getReason() != null) {
            return new IOException("--record " + dir + ": " + e.getReason(), e);
        }
        return new IOException("--record " + dir + ": cannot write the recording (" + fileReason(e) + "); give "
                + "--record a new or empty folder this user may write", e);
    }

    /** What went wrong with a file, with the file named when it is not the whole message. */
    static String fileReason(java.nio.file.FileSystemException e) {
        String what = e instanceof java.nio.file.NoSuchFileException ? "no such file or folder"
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : e instanceof java.nio.file.FileAlreadyExistsException && e.getFile() != null
                        && Files.isRegularFile(Path.of(e.getFile())) ? "a file, not a folder, is there"
                : e instanceof java.nio.file.FileAlreadyExistsException ? "already exists"
                : e.getReason() != null ? e.getReason() : e.getClass().getSimpleName();
        return what + ": " + e.getFile();
    }

    /**
     * Refuses, naming the file and what to do, a {@code --replay} folder that is missing, not a
     * folder, not readable by this user, or lacks a recording file, or whose start snapshot is empty (a recording cut before
     * its first tick by an older version, which wrote the snapshot in place).
     */
    static void check(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            throw new IOException("--replay " + dir + ": no such folder; --replay needs a folder written by --record");
        }
        if (!Files.isDirectory(dir)) {
            throw new IOException("--replay " + dir + ": not a folder; give --replay the folder --record wrote, not "
                    + "one of its files");
        }
        if (!Files.isReadable(dir) || !Files.isExecutable(dir)) {
            // else every file looks missing: "the recording has no arena.properties; ... record again"
            throw new IOException("--replay " + dir + ": permission denied on the folder; let this user read it "
                    + "(chmod u+rx " + dir + "), or replay a copy this user may read");
        }
        if (ClusterStoreLayout.isClusterStore(dir)) { // the engine's rule, as RunReplayer's
            // once: "the recording has no arena.properties; ... replay a folder written by --record"
            throw new IOException("--replay " + dir + ": this is " + ClusterStoreLayout.description()
                    + ", not a recording --record wrote; check the store's worlds with "
                    + "--cluster-verify --cluster-store DIR, naming the store's folder");
        }
        for (String name : new String[] {DemoRun.PARAMETERS, RunRecorder.SNAPSHOT, RunRecorder.JOURNAL}) {
            Path f = dir.resolve(name);
            if (!Files.exists(f) && name.equals(RunRecorder.SNAPSHOT)
                    && Files.exists(dir.resolve(RunRecorder.SNAPSHOT_TEMPORARY))) {
                throw new IOException("--replay " + dir + ": the recording was cut while its start snapshot was being "
                        + "written (only " + RunRecorder.SNAPSHOT_TEMPORARY + " is there), before its first tick; there "
                        + "is nothing to replay: record the run again");
            }
            if (!Files.exists(f)) {
                throw new IOException("--replay " + dir + ": the recording has no " + name + " (" + f + "); the folder "
                        + "is not a complete recording: replay a folder written by --record, or record again");
            }
            if (!Files.isRegularFile(f)) {
                throw new IOException("--replay " + dir + ": " + f + " is not a file; the folder is not a recording "
                        + "--record wrote: replay one that is, or record again");
            }
            if (!Files.isReadable(f)) {
                throw new IOException("--replay " + dir + ": permission denied on " + f + "; let this user read it");
            }
        }
        if (Files.size(dir.resolve(RunRecorder.SNAPSHOT)) == 0) {
            throw new IOException("--replay " + dir + ": " + dir.resolve(RunRecorder.SNAPSHOT) + " is empty (0 bytes): "
                    + "the recording was cut before its start snapshot was written, so there is nothing to replay; "
                    + "record the run again");
        }
    }
}
