package dev.orrery.explorer;

import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.journal.JournalReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a recording's journal ends, read through again only when the file grew and not once
 * it was closed: its last complete tick, and whether it was closed or how it was cut. A live
 * recording's end moves as the run writes it.
 *
 * <p><b>Threading:</b> any thread; the reads are serialized on this object.
 */
final class JournalEnd {
    private final Path journal;
    private long size = -1;
    private long last = Long.MIN_VALUE;
    private boolean closed;
    private String cut;

    JournalEnd(Path folder) {
        this.journal = folder.resolve(RunRecorder.JOURNAL);
    }

    /** The journal's last complete tick ({@link Long#MIN_VALUE}: none yet), or null when it cannot be read. */
    synchronized Long last() {
        if (closed) {
            return last;
        }
        try {
            long now = Files.size(journal);
            if (now != size) {
                try (JournalReader r = JournalReader.openAllowingCut(journal)) {
                    while (r.nextRecord()) {
                        // to the end record, or the last complete tick of a live or cut journal
                    }
                    last = r.lastTickEnded();
                    closed = r.closedCleanly();
                    cut = r.cut();
                }
                size = now;
            }
            return last;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** How the journal ends as {@link #last} last read it, in the words of {@link RecordedInputs#ending}. */
    synchronized String ending() {
        return RecordedInputs.ending(closed, cut);
    }
}
