package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.Main;
import dev.orrery.engine.RunRecorder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expected errors end the command line with one clear line on stderr and a non-zero status,
 * never a stack trace (unless {@code --verbose}): corrupt and missing recording files, bad
 * options, a port in use. Stray output of other threads is caught through System.err too.
 */
class ExpectedErrorsTest {
    @TempDir
    static Path tmp;
    static Path recording;

    /** What one run of the command line printed and returned. */
    record Outcome(int status, String out, String err) {
        void assertOneLineError() {
            assertNotEquals(0, status, "exit status; err: " + err);
            String[] lines = err.strip().split("\n");
            assertEquals(1, lines.length, "stderr is not one line: " + err);
            assertTrue(lines[0].startsWith("orrery-demo: "), err);
            assertFalse(err.contains("\tat ") || err.contains("Exception in thread"), "a stack trace: " + err);
        }
    }

    @BeforeAll
    static void record() {
        recording = tmp.resolve("good");
        Outcome o = main("--agents", "300", "--ticks", "130", "--rate", "0", "--threads", "2", "--quiet", "--record",
                recording.toString());
        assertEquals(0, o.status(), o.err());
    }

    static Outcome main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream realErr = System.err;
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        System.setErr(errStream); // so a stack trace printed by any thread shows up here
        try {
            int status = Main.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8), errStream, false);
            return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(realErr);
        }
    }

    private static Path copy(String name) throws Exception {
        return copyRecording(recording, tmp.resolve(name));
    }

    /** Copies the files of recording folder {@code from} into a new folder {@code to}, and returns {@code to}. */
    static Path copyRecording(Path from, Path to) throws Exception {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        return to;
    }

    private static void flip(Path file, int offset) throws Exception {
        byte[] b = Files.readAllBytes(file);
        b[offset % b.length] ^= 0x5A;
        Files.write(file, b);
    }

    @Test
    void shouldReplayTheGoodRecordingCleanly() {
        Outcome o = main("--replay", recording.toString(), "--threads", "1", "--quiet");
        assertEquals(0, o.status(), o.err());
        assertEquals("", o.err());
    }

    @Test
    void shouldRefuseACorruptJournalInOneLine() throws Exception {
        long size = Files.size(recording.resolve(RunRecorder.JOURNAL));
        int refused = 0;
        for (int i = 1; i <= 8; i++) {
            Path dir = copy("journal" + i);
            flip(dir.resolve(RunRecorder.JOURNAL), (int) (size * i / 9));
            Outcome o = main("--replay", dir.toString(), "--threads", "1", "--quiet");
            if (o.status() != 0) {
                o.assertOneLineError();
                refused++;
            } else {
                assertEquals("", o.err());
            }
        }
        assertTrue(refused > 0, "no corruption of the journal was noticed");
        Path cut = copy("journal-cut");
        Path journal = cut.resolve(RunRecorder.JOURNAL);
        Files.write(journal, java.util.Arrays.copyOf(Files.readAllBytes(journal), (int) size / 2));
        main("--replay", cut.toString(), "--threads", "1", "--quiet").assertOneLineError();
    }

    @Test
    void shouldRefuseACorruptSnapshotInOneLine() throws Exception {
        long size = Files.size(recording.resolve(RunRecorder.SNAPSHOT));
        for (int i = 0; i < 6; i++) {
            Path dir = copy("snapshot" + i);
            flip(dir.resolve(RunRecorder.SNAPSHOT), (int) (size * i / 6));
            Outcome o = main("--replay", dir.toString(), "--threads", "1", "--quiet");
            if (o.status() != 0) {
                o.assertOneLineError();
            } else {
                assertEquals("", o.err());
            }
        }
        Path header = copy("snapshot-header");
        flip(header.resolve(RunRecorder.SNAPSHOT), 0);
        main("--replay", header.toString(), "--threads", "1", "--quiet").assertOneLineError();
    }

    @Test
    void shouldRefuseMissingFilesInOneLine() throws Exception {
        for (String file : new String[] {RunRecorder.JOURNAL, RunRecorder.SNAPSHOT, DemoRun.PARAMETERS}) {
            Path dir = copy("missing-" + file);
            Files.delete(dir.resolve(file));
            Outcome o = main("--replay", dir.toString(), "--quiet");
            o.assertOneLineError();
            assertTrue(o.err().contains(file), o.err());
        }
        main("--replay", tmp.resolve("nowhere").toString()).assertOneLineError();
    }

    @Test
    void shouldRefuseBadOptionsInOneLineWithStatusTwo() {
        for (String[] args : new String[][] {{"--agents", "many"}, {"--agents", "0"}, {"--hello-timeout", "-1"},
            {"--max-connections", "0"}, {"--no-such-option"}, {"--max-entities", "5"}}) {
            Outcome o = main(args);
            o.assertOneLineError();
            assertEquals(2, o.status(), String.join(" ", args) + ": " + o.err());
        }
    }

    @Test
    void shouldRefuseAPortInUseInOneLine() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            Outcome o = main("--agents", "100", "--ticks", "5", "--quiet", "--port",
                    Integer.toString(taken.getLocalPort()));
            o.assertOneLineError();
            assertEquals(1, o.status());
            // once "cannot listen on /127.0.0.1:PORT", InetSocketAddress's text
            assertTrue(o.err().contains("cannot listen on 127.0.0.1:" + taken.getLocalPort() + ": "), o.err());
        }
    }

    @Test
    void shouldShowTheStackTraceWhenVerbose() {
        Outcome o = main("--replay", tmp.resolve("nowhere").toString(), "--verbose");
        assertEquals(1, o.status());
        assertTrue(o.err().startsWith("orrery-demo: ") && o.err().contains("\tat "), o.err());
    }

    @Test
    void shouldReportSteadyStateAndWarmupApart() {
        Outcome o = main("--agents", "300", "--ticks", "40", "--rate", "0", "--threads", "1", "--quiet");
        assertEquals(0, o.status(), o.err());
        String[] lines = o.out().strip().split("\n");
        assertTrue(lines[lines.length - 2].matches("warmup: ticks=20 p50_ms=\\S+ p99_ms=\\S+ max_ms=\\S+ \\(left out.*"),
                o.out());
        assertTrue(lines[lines.length - 1].startsWith("ticks=40 "), o.out());
    }
}
