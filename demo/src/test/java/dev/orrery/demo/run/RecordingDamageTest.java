package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.RunRecorder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording whose files were damaged or do not belong together is refused by
 * {@code --replay} with one line naming the file (and the property or section) and status 1;
 * only a journal a crash cut is replayed to its last complete tick (status 3). Each case once
 * got through: an edited {@code arena.properties} replayed with the recorded hashes, a damaged
 * length in the middle of the journal replayed as a cut, a huge resource length in the snapshot
 * ended the run with an OutOfMemoryError and its stack trace, and an empty starting snapshot
 * was reported by its path alone.
 */
class RecordingDamageTest {
    @TempDir
    static Path tmp;
    static Path recording;

    record Outcome(int status, String err) {
        void assertOneLine(String... names) {
            assertEquals(1, status, "exit status; err: " + err);
            String[] lines = err.strip().split("\n");
            assertEquals(1, lines.length, "stderr is not one line: " + err);
            assertTrue(lines[0].startsWith("orrery-demo: "), err);
            assertFalse(err.contains("\tat ") || err.contains("Exception in thread"), "a stack trace: " + err);
            for (String n : names) {
                assertTrue(err.contains(n), "'" + n + "' in: " + err);
            }
        }
    }

    @BeforeAll
    static void record() {
        recording = tmp.resolve("good");
        Outcome o = main("--agents", "300", "--teams", "2", "--ticks", "200", "--rate", "0", "--threads", "1",
                "--quiet", "--record", recording.toString());
        assertEquals(0, o.status(), o.err());
    }

    static Outcome main(String... args) {
        ExpectedErrorsTest.Outcome o = ExpectedErrorsTest.main(args);
        return new Outcome(o.status(), o.err());
    }

    static Outcome replay(Path dir) {
        return main("--replay", dir.toString(), "--threads", "1", "--quiet");
    }

    private static Path copy(String name) throws Exception {
        return ExpectedErrorsTest.copyRecording(recording, tmp.resolve(name));
    }

    private static void edit(Path file, String from, String to) throws Exception {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertTrue(text.contains(from), text);
        Files.writeString(file, text.replace(from, to), StandardCharsets.UTF_8);
    }

    @Test
    void shouldReplayTheGoodRecording() {
        Outcome o = replay(recording);
        assertEquals(0, o.status(), o.err());
        assertFalse(Files.exists(recording.resolve(RunRecorder.SNAPSHOT_TEMPORARY)), "the snapshot was renamed");
    }

    @Test
    void shouldRefuseAParametersFileEditedToMoreAgents() throws Exception {
        Path dir = copy("agents");
        edit(dir.resolve(DemoRun.PARAMETERS), "agents=300", "agents=301");
        replay(dir).assertOneLine("property 'agents'", dir.resolve(DemoRun.PARAMETERS).toString(), "agents=300",
                RunRecorder.SNAPSHOT);
    }

    @Test
    void shouldRefuseAParametersFileEditedToMoreTeams() throws Exception {
        Path dir = copy("teams");
        edit(dir.resolve(DemoRun.PARAMETERS), "teams=2", "teams=3");
        replay(dir).assertOneLine("property 'teams'", dir.resolve(DemoRun.PARAMETERS).toString(), "teams=2");
    }

    @Test
    void shouldRefuseADamagedParametersFileNamingTheProperty() throws Exception {
        Path dir = copy("seed");
        edit(dir.resolve(DemoRun.PARAMETERS), "seed=", "seed=x");
        replay(dir).assertOneLine("property 'seed'", DemoRun.PARAMETERS, "not a whole number");
    }

    @Test
    void shouldRefuseAFlippedLengthInTheMiddleOfTheJournalAsCorruptionNotACut() throws Exception {
        Path dir = copy("journal");
        Path journal = dir.resolve(RunRecorder.JOURNAL);
        byte[] b = Files.readAllBytes(journal);
        // walk the records to one three quarters in, and make its length run past the end
        int at = 20;
        while (at < b.length * 3 / 4) {
            at += 4 + ByteBuffer.wrap(b, at, 4).getInt() + 4;
        }
        b[at + 1] ^= 0x01; // + 65536 body bytes
        Files.write(journal, b);
        replay(dir).assertOneLine(journal.toString(), "byte offset " + at, "length field is damaged");
    }

    @Test
    void shouldRefuseAResourceLengthOf0x7ffffff0InOneLineWithoutRunningOutOfMemory() throws Exception {
        Path dir = copy("resource");
        Path file = dir.resolve(RunRecorder.SNAPSHOT);
        byte[] s = Files.readAllBytes(file);
        ByteBuffer b = ByteBuffer.wrap(s);
        int at = 20 + 4; // past the header and the count of sections
        int resources = -1;
        for (int i = 0; i < b.getInt(20); i++) {
            byte[] name = new byte[b.getShort(at) & 0xFFFF];
            b.get(at + 2, name);
            at += 2 + name.length;
            if (new String(name, StandardCharsets.UTF_8).equals("orrery.resources")) {
                resources = at + 4;
            }
            at += 4 + b.getInt(at);
        }
        assertTrue(resources > 0 && b.getInt(resources) > 0, "the snapshot carries resources");
        int firstLength = resources + 4 + 2 + (b.getShort(resources + 4) & 0xFFFF);
        b.putInt(firstLength, 0x7fff_fff0);
        CRC32C crc = new CRC32C();
        crc.update(s, 20, s.length - 24);
        b.putInt(s.length - 4, (int) crc.getValue());
        Files.write(file, s);
        replay(dir).assertOneLine(file.toString(), "section 'orrery.resources'", "byte " + (firstLength - resources),
                "2147483632");
    }

    @Test
    void shouldSayAnEmptyStartSnapshotWasCutBeforeTheFirstTick() throws Exception {
        Path dir = copy("empty");
        Files.write(dir.resolve(RunRecorder.SNAPSHOT), new byte[0]);
        replay(dir).assertOneLine(dir.resolve(RunRecorder.SNAPSHOT).toString(), "is empty (0 bytes)",
                "record the run again");
    }

    @Test
    void shouldSayAStartSnapshotLeftUnderItsTemporaryNameWasCutBeforeTheFirstTick() throws Exception {
        Path dir = copy("temporary");
        Files.move(dir.resolve(RunRecorder.SNAPSHOT), dir.resolve(RunRecorder.SNAPSHOT_TEMPORARY));
        replay(dir).assertOneLine(RunRecorder.SNAPSHOT_TEMPORARY, "record the run again");
    }
}
