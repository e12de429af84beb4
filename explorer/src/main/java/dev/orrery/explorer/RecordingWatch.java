package dev.orrery.explorer;

import dev.orrery.engine.RunRecorder;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Tells whether a recording's folder still holds the recording that the timeline's replay was
 * started from, or another one copied or recorded over it: the replay, its snapshots and its
 * answers then belong to neither, and {@link PastWorlds} starts again.
 *
 * <p>A recording only ever grows at the end of its journal: {@code start.snapshot} is written once
 * and the journal is appended to. So it counts as replaced when {@code start.snapshot} was written
 * again (its file key, size or modification time moved), or when the journal is another file (its
 * key), is gone or shorter, or, having changed (longer, or the same length with its modification
 * time moved), no longer holds the bytes it held: its first {@value #WINDOW} bytes, and the
 * {@value #WINDOW} bytes before the length it had at the last check, each compared by a CRC32C. A
 * journal that grew with those bytes as they were is taken as appended to, and the next check
 * compares the bytes before its new length.
 *
 * <p><b>Cost:</b> each {@link #replaced} reads the attributes of the two files; only when the
 * journal changed since the last check does it read, from one open of it, at most three ranges of
 * {@value #WINDOW} bytes (the first bytes, those before the old length, those before the new).
 * Bytes elsewhere are not compared: a journal rewritten in place that differs only between those
 * ranges (another run alike for its first and last few kilobytes read) goes unseen, even after
 * later appends (they move the compared range past it), unless a recorded hash tells (a
 * divergence); a rewrite to the same length within one step of the file system's clock keeps the
 * modification time and is seen once the file changes again, if it touched the compared ranges.
 * {@link #CHECKS} says this in the words {@code /api/timeline} answers.
 *
 * <p><b>Threading:</b> any thread; the checks are serialized on this object.
 */
final class RecordingWatch {
    /** Bytes compared at the journal's start, and before the length it had at the last check. */
    static final int WINDOW = 4096;
    /**
     * What the checks look at and when, in words for {@code /api/timeline} ({@code replacedChecks}):
     * they sample the files, so a user knows what a missing {@code replaced} does not prove.
     */
    static final String CHECKS = "sampled, not read whole: each travel (before it replays and once it arrived) and "
            + "each /api/timeline compare " + RunRecorder.SNAPSHOT + "'s file, size and modification time, and "
            + RunRecorder.JOURNAL + "'s file and length and, when it changed, its first " + WINDOW + " bytes and the "
            + WINDOW + " bytes before its length at the last check; nothing is checked between those. A journal "
            + "rewritten in place only elsewhere goes unseen, even once appended to (a recorded hash that differs "
            + "still shows as a divergence), and so does one rewritten to the same length within one step of the "
            + "file system's clock, until it changes again";

    private final Path snapshot;
    private final Path journal;
    private final CRC32C crc = new CRC32C();
    private final ByteBuffer buffer = ByteBuffer.allocate(WINDOW);
    /** {@code start.snapshot} as the replay read it; null: no baseline (nothing to compare). */
    private Stamp snapshotStamp;
    /** The journal's key and modification time at the last check; a null time: no journal then. */
    private Object journalKey;
    private FileTime journalModified;
    /** The journal's length at the last check (0 when there was none). */
    private long size;
    /** The CRC32C of the journal's first {@code min(WINDOW, size)} bytes. */
    private int headChecksum;
    /** The CRC32C of the {@code min(WINDOW, size)} bytes before {@link #size}. */
    private int tailChecksum;
    /** Bytes read from the journal by the checks, all together (what a test holds them to). */
    private long bytesRead;
    /** Why the recording counts as replaced, once a check found it; null until then, and after a baseline. */
    private String replaced;

    RecordingWatch(Path folder) {
        this.snapshot = folder.resolve(RunRecorder.SNAPSHOT);
        this.journal = folder.resolve(RunRecorder.JOURNAL);
    }

    private record Stamp(Object key, long size, FileTime modified) {
    }

    /**
     * Notes the recording as it is now, before the replay reads it: what later checks compare
     * with. A journal not written yet is taken as empty.
     *
     * @throws IOException when {@code start.snapshot} or the journal cannot be read
     */
    synchronized void baseline() throws IOException {
        snapshotStamp = null;
        replaced = null;
        BasicFileAttributes s = Files.readAttributes(snapshot, BasicFileAttributes.class);
        Stamp stamp = new Stamp(s.fileKey(), s.size(), s.lastModifiedTime());
        BasicFileAttributes j = journalAttributes();
        journalKey = j == null ? null : j.fileKey();
        journalModified = j == null ? null : j.lastModifiedTime();
        size = j == null ? 0 : j.size();
        if (size > 0) {
            try (FileChannel ch = FileChannel.open(journal, StandardOpenOption.READ)) {
                headChecksum = checksum(ch, 0, Math.min(WINDOW, size));
                tailChecksum = checksum(ch, Math.max(0, size - WINDOW), size);
            }
        } else {
            headChecksum = checksum(null, 0, 0);
            tailChecksum = headChecksum;
        }
        snapshotStamp = stamp;
    }

    /**
     * Why the folder no longer holds the recording noted by {@link #baseline} (in words for the
     * page), or null when, as far as these checks tell, it does: unchanged, or its journal appended
     * to (then the next check compares the bytes before its new end). Null too before a baseline.
     * The answer stays the same until the next {@link #baseline}.
     */
    synchronized String replaced() {
        if (snapshotStamp == null || replaced != null) {
            return replaced;
        }
        replaced = check();
        return replaced;
    }

    private String check() {
        try {
            BasicFileAttributes s = Files.readAttributes(snapshot, BasicFileAttributes.class);
            if (!new Stamp(s.fileKey(), s.size(), s.lastModifiedTime()).equals(snapshotStamp)) {
                return RunRecorder.SNAPSHOT + " was written again";
            }
        } catch (IOException e) {
            return RunRecorder.SNAPSHOT + " cannot be read: " + e.getMessage();
        }
        try {
            BasicFileAttributes j = journalAttributes();
            if (j == null) {
                return journalModified == null ? null : RunRecorder.JOURNAL + " is gone";
            }
            long now = j.size();
            if (journalModified != null && journalKey != null && !journalKey.equals(j.fileKey())) {
                return RunRecorder.JOURNAL + " is another file";
            }
            if (now < size) {
                return RunRecorder.JOURNAL + " is shorter (" + now + " bytes, " + size + " before)";
            }
            if (now == size && Objects.equals(j.lastModifiedTime(), journalModified)) {
                return null;
            }
            try (FileChannel ch = FileChannel.open(journal, StandardOpenOption.READ)) {
                int headBefore = (int) Math.min(WINDOW, size);
                int headNow = (int) Math.min(WINDOW, now); // more than before only while the journal is short
                read(ch, 0, headNow);
                crc.reset();
                crc.update(buffer.array(), 0, headBefore);
                if ((int) crc.getValue() != headChecksum) {
                    return RunRecorder.JOURNAL + " was rewritten: its first bytes differ";
                }
                crc.update(buffer.array(), headBefore, headNow - headBefore);
                int head = (int) crc.getValue();
                if (checksum(ch, Math.max(0, size - WINDOW), size) != tailChecksum) {
                    return RunRecorder.JOURNAL + " was rewritten: the bytes before its length at the last look ("
                            + size + ") differ";
                }
                if (now > size) { // appended to: compare the bytes before the new end next time
                    headChecksum = head;
                    tailChecksum = checksum(ch, Math.max(0, now - WINDOW), now);
                }
            }
            journalKey = j.fileKey();
            journalModified = j.lastModifiedTime();
            size = now;
            return null;
        } catch (IOException e) {
            return RunRecorder.JOURNAL + " cannot be read: " + e.getMessage();
        }
    }

    /** The journal's attributes, or null when there is none. */
    private BasicFileAttributes journalAttributes() throws IOException {
        try {
            return Files.readAttributes(journal, BasicFileAttributes.class);
        } catch (NoSuchFileException none) {
            return null;
        }
    }

    /** The CRC32C of the journal's bytes {@code from} to {@code to} (at most {@link #WINDOW}); of none when {@code ch} is null. */
    private int checksum(FileChannel ch, long from, long to) throws IOException {
        crc.reset();
        if (ch != null && to > from) {
            read(ch, from, to);
            crc.update(buffer.array(), 0, (int) (to - from));
        }
        return (int) crc.getValue();
    }

    /** Reads the journal's bytes {@code from} to {@code to} (at most {@link #WINDOW}) into {@link #buffer}'s start. */
    private void read(FileChannel ch, long from, long to) throws IOException {
        buffer.clear().limit((int) (to - from));
        long at = from;
        while (buffer.hasRemaining()) {
            int n = ch.read(buffer, at);
            if (n < 0) {
                throw new EOFException(journal + " ended at " + at + ", before " + to);
            }
            at += n;
        }
        bytesRead += to - from;
    }

    /** Bytes the checks read from the journal so far. */
    synchronized long bytesRead() {
        return bytesRead;
    }
}
