package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.run.ExpectedErrorsTest.Outcome;
import dev.orrery.engine.RunRecorder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's expected errors name the file, option or port involved and what to do,
 * in one line: a replay folder that is missing, a file, incomplete or cut before its first
 * tick; a recording folder that cannot be written; an explorer port in use; a limit option out
 * of range (named as the option, not as the server's internal value); an output file that is a
 * folder. Each case also checks that the good recording still replays to the same hash.
 */
class CommandLineErrorsTest {
    @TempDir
    static Path tmp;
    static Path recording;
    static String recordedHash;

    @BeforeAll
    static void record() {
        recording = tmp.resolve("good");
        Outcome o = ExpectedErrorsTest.main("--agents", "200", "--ticks", "30", "--rate", "0", "--threads", "1",
                "--quiet", "--record", recording.toString());
        assertEquals(0, o.status(), o.err());
        recordedHash = hash(o.out());
        assertFalse(Files.exists(recording.resolve(RunRecorder.SNAPSHOT + ".tmp")), "the temporary snapshot was renamed");
    }

    private static String hash(String out) {
        String last = out.strip().substring(out.strip().lastIndexOf('\n') + 1);
        return last.substring(last.indexOf("hash="));
    }

    private static Path copy(String name) throws Exception {
        return ExpectedErrorsTest.copyRecording(recording, tmp.resolve(name));
    }

    private static Outcome refused(String... args) {
        Outcome o = ExpectedErrorsTest.main(args);
        o.assertOneLineError();
        return o;
    }

    private static void assertSays(Outcome o, String... parts) {
        for (String p : parts) {
            assertTrue(o.err().contains(p), "'" + p + "' not in: " + o.err());
        }
    }

    @Test
    void shouldNameTheReplayFolderTheFileAndTheFix() throws Exception {
        Path nowhere = tmp.resolve("nowhere");
        assertSays(refused("--replay", nowhere.toString(), "--quiet"), "--replay " + nowhere, "no such folder",
                "written by --record");

        Path aFile = recording.resolve(RunRecorder.JOURNAL);
        assertSays(refused("--replay", aFile.toString(), "--quiet"), "not a folder", "not one of its files");

        for (String file : new String[] {RunRecorder.JOURNAL, RunRecorder.SNAPSHOT, DemoRun.PARAMETERS}) {
            Path dir = copy("missing-" + file);
            Files.delete(dir.resolve(file));
            assertSays(refused("--replay", dir.toString(), "--quiet"), "--replay " + dir, "has no " + file,
                    "record again");
        }

        Path folderInPlace = copy("snapshot-is-a-folder"); // once "orrery-demo: Is a directory"
        Files.delete(folderInPlace.resolve(RunRecorder.SNAPSHOT));
        Files.createDirectory(folderInPlace.resolve(RunRecorder.SNAPSHOT));
        Outcome o = refused("--replay", folderInPlace.toString(), "--quiet");
        assertSays(o, folderInPlace.resolve(RunRecorder.SNAPSHOT) + " is not a file");

        Path cutBeforeFirstTick = copy("empty-snapshot"); // what an in-place write left when killed early
        Files.write(cutBeforeFirstTick.resolve(RunRecorder.SNAPSHOT), new byte[0]);
        assertSays(refused("--replay", cutBeforeFirstTick.toString(), "--quiet"),
                cutBeforeFirstTick.resolve(RunRecorder.SNAPSHOT) + " is empty", "record the run again");

        assertReplaysToTheRecordedHash();
    }

    @Test
    void shouldSayAnUnreadableReplayFolderIsUnreadableNotIncomplete() throws Exception {
        // once "the recording has no arena.properties ...; record again": a folder it may not list looked empty
        Path dir = copy("unreadable");
        java.util.Set<java.nio.file.attribute.PosixFilePermission> was = Files.getPosixFilePermissions(dir);
        Files.setPosixFilePermissions(dir, java.util.Set.of());
        try {
            org.junit.jupiter.api.Assumptions.assumeFalse(Files.isReadable(dir), "this user (root?) reads any folder");
            Outcome o = refused("--replay", dir.toString(), "--quiet");
            assertEquals(1, o.status(), o.err());
            assertSays(o, "--replay " + dir + ": permission denied on the folder", "chmod u+rx");
            assertFalse(o.err().contains("record again"), o.err());
        } finally {
            Files.setPosixFilePermissions(dir, was);
        }
    }

    @Test
    void shouldNameTheRecordOptionWhenItsFolderCannotBeWritten() throws Exception {
        Path file = Files.writeString(tmp.resolve("a-file"), "not a folder");
        Path under = file.resolve("recording");
        Outcome o = refused("--agents", "100", "--ticks", "3", "--rate", "0", "--quiet", "--record", under.toString());
        assertEquals(1, o.status());
        assertSays(o, "--record " + under, "cannot write the recording", "give --record a new or empty folder");
        Outcome onFile = refused("--agents", "100", "--ticks", "3", "--rate", "0", "--quiet", "--record", file.toString());
        assertSays(onFile, "--record " + file, "a file, not a folder, is there", "give --record a new or empty folder");

        Path used = copy("used"); // a folder that holds a recording is refused, and left as it was
        long before = Files.size(used.resolve(RunRecorder.SNAPSHOT));
        assertSays(refused("--agents", "100", "--ticks", "3", "--rate", "0", "--quiet", "--record", used.toString()),
                "already holds", "empty folder");
        assertEquals(before, Files.size(used.resolve(RunRecorder.SNAPSHOT)));
        assertReplaysToTheRecordedHash();
    }

    @Test
    void shouldRefuseAFolderHoldingARecordingAsTheEngineDoesNamingTheOptionTheFileAndTheFix() throws Exception {
        // once a plain IOException, where RunRecorder.start and GoldenRecording throw the JDK's FileAlreadyExistsException
        Path used = copy("used-twice");
        FileAlreadyExistsException e = org.junit.jupiter.api.Assertions.assertThrows(FileAlreadyExistsException.class,
                () -> RecordingParameters.write(used, new dev.orrery.demo.arena.ArenaConfig(100, 2, 5)));
        assertEquals(used.resolve(DemoRun.PARAMETERS).toString(), e.getFile());
        assertTrue(e.getReason().contains("record into an empty folder"), e.getReason());
        Path engineRecording = copy("engine-recording-twice");
        Files.delete(engineRecording.resolve(DemoRun.PARAMETERS));
        for (Path dir : new Path[] {used, engineRecording}) {
            String name = dir == used ? DemoRun.PARAMETERS : RunRecorder.SNAPSHOT;
            Outcome o = refused("--agents", "100", "--ticks", "3", "--rate", "0", "--quiet", "--record", dir.toString());
            assertEquals(1, o.status(), o.err());
            // the file's own reason, after the option: not reworded as "a file, not a folder, is there", not repeated
            assertEquals("orrery-demo: --record " + dir + ": recording folder " + dir + " already holds " + name
                    + "; record into an empty folder so no earlier run is overwritten", o.err().strip());
        }
        assertReplaysToTheRecordedHash();
    }

    @Test
    void shouldRefuseAFolderHoldingAnEngineRecordingWithoutWritingArenaPropertiesIntoIt() throws Exception {
        // a RunRecorder recording with no arena.properties (a program's, or one whose parameters were
        // deleted): the refusal came after arena.properties was written, so the folder was left holding
        // this run's parameters beside another run's snapshot, and its replay then said they disagree
        Path engineRecording = copy("engine-recording");
        Files.delete(engineRecording.resolve(DemoRun.PARAMETERS));
        Outcome o = refused("--agents", "100", "--ticks", "3", "--rate", "0", "--quiet", "--record",
                engineRecording.toString());
        assertEquals(1, o.status(), o.err());
        assertSays(o, "already holds " + RunRecorder.SNAPSHOT, "empty folder");
        assertFalse(Files.exists(engineRecording.resolve(DemoRun.PARAMETERS)), "the refused run left its parameters there");
        assertFalse(Files.exists(engineRecording.resolve(DemoRun.PARAMETERS + ".tmp")));
        assertReplaysToTheRecordedHash();
    }

    @Test
    void shouldNameTheExplorerPortInUse() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            Outcome o = refused("--agents", "100", "--ticks", "3", "--rate", "0", "--quiet", "--explore",
                    Integer.toString(port));
            assertEquals(1, o.status());
            assertSays(o, "--explore " + port, "127.0.0.1:" + port, "pick a free port");
        }
    }

    @Test
    void shouldRefuseANegativeTickDeadlineAndRunTheSameWorldUnderAGenerousOne() {
        for (String bad : new String[] {"-1", "NaN", "Infinity"}) {
            Outcome o = refused("--tick-deadline", bad, "--ticks", "1");
            assertEquals(2, o.status(), o.err());
            assertSays(o, "--tick-deadline", "0 (none) or a positive number of steps");
        }
        // Far above any tick's time: nothing is ended, so the world is the one without a deadline.
        String[] run = {"--agents", "2000", "--ticks", "60", "--rate", "0", "--quiet", "--seed", "5", "--threads", "2"};
        String without = ArenaEndToEndTest.MainSummary.run(run);
        String[] withDeadline = java.util.Arrays.copyOf(run, run.length + 2);
        withDeadline[run.length] = "--tick-deadline";
        withDeadline[run.length + 1] = "600";
        String with = ArenaEndToEndTest.MainSummary.run(withDeadline);
        assertEquals(without.substring(without.indexOf("hash=")), with.substring(with.indexOf("hash=")));
        assertEquals(without.substring(0, without.indexOf(" p50")), with.substring(0, with.indexOf(" p50")));
    }

    @Test
    void shouldNameTheLimitOptionsByTheirOptionNames() {
        String[][] cases = {{"--client-rate", "0", "clientRate"}, {"--client-burst", "0", "clientBurst"},
            {"--max-spawn", "0", "maxSpawnCount"}, {"--spawn-budget", "0", "spawnBudget"},
            {"--max-connections-per-address", "0", "maxConnectionsPerAddress"}};
        for (String[] c : cases) {
            Outcome o = refused(c[0], c[1], "--ticks", "1");
            assertEquals(2, o.status(), o.err());
            assertSays(o, c[0]);
            assertFalse(o.err().contains(c[2]), "the internal name: " + o.err());
        }
    }

    @Test
    void shouldRefuseAnOutputFileThatIsAFolderBeforeTheRun() {
        Outcome trace = refused("--ticks", "1", "--agents", "10", "--trace", tmp.toString());
        assertEquals(2, trace.status());
        assertSays(trace, "--trace " + tmp + " is a folder", "give a file name");
        Path missing = tmp.resolve("no-such-folder").resolve("graph.dot");
        Outcome dot = refused("--ticks", "1", "--agents", "10", "--dot", missing.toString());
        assertEquals(2, dot.status());
        assertSays(dot, "--dot " + missing, "does not exist");
        assertEquals("", trace.out() + dot.out(), "nothing ran");
    }

    @Test
    void shouldRefuseAPortOrExplorerPortBelowZeroAsBadOptions() {
        // -1 once meant "not given" inside: --port -1 ran without a server, --explore -1 without an explorer, exit 0
        for (String option : new String[] {"--port", "--explore"}) {
            for (String bad : new String[] {"-1", "65536"}) {
                Outcome o = refused(option, bad, "--agents", "100", "--ticks", "3", "--rate", "0", "--quiet");
                assertEquals(2, o.status(), o.err());
                assertSays(o, option + " must be 0 (ephemeral) to 65535; got " + bad, "; see --help");
                assertEquals("", o.out(), "nothing ran");
            }
        }
    }

    @Test
    void shouldSayALimitOptionsRuleOnce() {
        // once: "--max-connections must be 1 to 100000; got 0 (caused by --max-connections must be ...; got 0)"
        for (String[] c : new String[][] {{"--max-connections", "0"}, {"--client-rate", "-1"}}) {
            Outcome o = refused(c[0], c[1], "--ticks", "1");
            assertEquals(2, o.status(), o.err());
            assertSays(o, c[0] + " must be");
            assertEquals(o.err().indexOf(" must be"), o.err().lastIndexOf(" must be"), "said twice: " + o.err());
            assertFalse(o.err().contains("caused by"), o.err());
        }
    }

    @Test
    void shouldRefuseTheServersOptionsWithoutAServer() {
        for (String[] c : new String[][] {{"--bind", "0.0.0.0"}, {"--max-connections", "10"}, {"--client-rate", "50"},
            {"--idle-timeout", "5"}, {"--max-entities", "500000"}}) {
            Outcome o = refused("--agents", "100", "--ticks", "3", "--quiet", c[0], c[1]);
            assertEquals(2, o.status(), o.err());
            assertSays(o, c[0] + " applies to the TCP server", "without --port there is none; add --port PORT");
            assertEquals("", o.out(), "nothing ran");
        }
        Outcome two = refused("--agents", "100", "--ticks", "3", "--bind", "0.0.0.0", "--spawn-budget", "9");
        assertSays(two, "--bind, --spawn-budget apply to the TCP server", "leave them out; see --help");
        // with a server, or with the explorer's edits for the cap, they run
        Outcome served = ExpectedErrorsTest.main("--agents", "100", "--ticks", "3", "--rate", "0", "--quiet", "--port",
                "0", "--max-connections", "10");
        assertEquals(0, served.status(), served.err());
        Outcome edits = ExpectedErrorsTest.main("--agents", "100", "--ticks", "3", "--rate", "0", "--quiet",
                "--explore", "0", "--explore-edits", "--max-entities", "500000");
        assertEquals(0, edits.status(), edits.err());
    }

    @Test
    void shouldRefuseTheOptionsAReplayDoesNotUse() {
        String[][] cases = {{"--agents", "5"}, {"--teams", "3"}, {"--seed", "7"}, {"--ticks", "10"}, {"--rate", "0"},
            {"--max-connections", "10"}, {"--bind", "0.0.0.0"}, {"--fsync", "tick"}, {"--max-entities", "500"}};
        for (String[] c : cases) {
            Outcome o = refused("--replay", recording.toString(), "--quiet", c[0], c[1]);
            assertEquals(2, o.status(), o.err());
            assertSays(o, "--replay does not use " + c[0] + " (", "leave it out; see --help");
            assertEquals("", o.out(), "nothing ran");
        }
        Outcome two = refused("--replay", recording.toString(), "--agents", "5", "--ticks", "3");
        assertSays(two, "--replay does not use --agents (", "; --ticks (a replay runs the recording's ticks); leave them out");
        // what a replay does use still runs
        Outcome o = ExpectedErrorsTest.main("--replay", recording.toString(), "--threads", "1", "--warmup", "4",
                "--watchdog", "0", "--tick-deadline", "0", "--quiet");
        assertEquals(0, o.status(), o.err());
        assertEquals(recordedHash, hash(o.out()));
        assertReplaysToTheRecordedHash();
    }

    @Test
    void shouldRefuseFsyncWithoutRecord() {
        Outcome o = refused("--fsync", "tick", "--agents", "100", "--ticks", "3", "--rate", "0", "--quiet");
        assertEquals(2, o.status(), o.err());
        assertSays(o, "--fsync applies to --record only");
        assertEquals("", o.out(), "nothing ran");
    }

    @Test
    void shouldWarmUpAReplayForAtMostHalfTheRecordedTicks() {
        // the default once came from the unused --ticks (300): min(120, 150) = 120, more than this recording's 30 ticks
        Outcome o = ExpectedErrorsTest.main("--replay", recording.toString(), "--threads", "1", "--quiet");
        assertEquals(0, o.status(), o.err());
        assertTrue(o.out().contains("warmup: ticks=15 "), o.out());
        assertTrue(o.out().contains("(left out of the summary's figures"), o.out());
        Outcome given = ExpectedErrorsTest.main("--replay", recording.toString(), "--threads", "1", "--quiet", "--warmup",
                "20");
        assertTrue(given.out().contains("warmup: ticks=20 "), given.out());
    }

    @Test
    void shouldExplainADamagedParametersFileInFull() throws Exception {
        Path dir = copy("garbage-parameters");
        Files.writeString(dir.resolve(DemoRun.PARAMETERS), "garbage");
        Outcome o = refused("--replay", dir.toString(), "--quiet");
        assertEquals(1, o.status());
        assertSays(o, "it holds 'garbage', which a parameters file does not (it holds agents, teams and seed)",
                "record the run again");
        assertFalse(o.err().contains("restore it from the recording"), o.err());
        Path longLine = copy("long-parameters"); // a long quote from the file is cut; the explanation is not
        Files.writeString(longLine.resolve(DemoRun.PARAMETERS), "x".repeat(500));
        Outcome cut = refused("--replay", longLine.toString(), "--quiet");
        assertSays(cut, "x".repeat(80) + "...", "(it holds agents, teams and seed)", "record the run again");
        assertFalse(cut.err().contains("x".repeat(81)), cut.err());
    }

    @Test
    void shouldRefuseABadClusterPortOrSeedAsBadOptions() {
        Outcome port = refused("--cluster", "--cluster-port", "-1", "--cluster-store", tmp.resolve("store").toString());
        assertEquals(2, port.status(), port.err());
        assertSays(port, "--cluster-port must be 0 (a free one) to 65535; got -1", "; see --help");
        Outcome seeds = refused("--cluster", "--cluster-seeds", "garbage", "--cluster-store",
                tmp.resolve("store").toString());
        assertEquals(2, seeds.status(), seeds.err());
        assertSays(seeds, "--cluster-seeds: 'garbage' is not HOST:PORT", "; see --help");
        assertEquals(2, refused("--cluster", "--cluster-seeds", "127.0.0.1:0", "--cluster-store",
                tmp.resolve("store").toString()).status());
    }

    @Test
    void shouldNameTheLoadClientsOptionsAndExitTwo() {
        String[][] cases = {{"--connections", "0"}, {"--seconds", "0"}, {"--max-commands", "-1"}, {"--port", "70000"},
            {"--rate", "-1"}};
        for (String[] c : cases) {
            String[] args = c[0].equals("--port") ? new String[] {"load", c[0], c[1]}
                    : new String[] {"load", "--port", "7", c[0], c[1]};
            Outcome o = refused(args);
            assertEquals(2, o.status(), o.err());
            assertSays(o, c[0] + " must be ", "; got " + c[1], "; see load --help");
        }
        Outcome unknown = refused("load", "--bogus"); // once: "Missing required option: '--port=PORT'"
        assertEquals(2, unknown.status());
        assertSays(unknown, "Unknown option: '--bogus'");
        assertSays(refused("load"), "load needs --port PORT");
        assertSays(refused("load", "--port", "7", "--hostile", "--connections", "3"), "--hostile does not use --connections");
        assertSays(refused("load", "--port", "7", "--polite", "3"), "--polite applies to --hostile only");
    }

    @Test
    void shouldRefuseRunOptionsGivenBeforeLoad() throws Exception {
        // once ignored: "--agents 5 load --port P" ran the load client as if --agents were not there
        Outcome one = refused("--agents", "5", "load", "--port", "7");
        assertEquals(2, one.status(), one.err());
        assertSays(one, "load does not use --agents (given before load", "give load's own options after load",
                "; see load --help");
        Outcome two = refused("--rate", "5", "--record", tmp.resolve("not-made").toString(), "load", "--port", "7");
        assertSays(two, "load does not use --rate, --record (", "leave them out");
        assertFalse(Files.exists(tmp.resolve("not-made")));
        // --verbose is read from the whole line, so it may stand on either side of load (once "Unknown option" after it)
        try (Socket held = refusingPort()) {
            int closed = held.getLocalPort();
            for (String[] args : new String[][] {{"load", "--port", Integer.toString(closed), "--seconds", "1",
                "--verbose"}, {"--verbose", "load", "--port", Integer.toString(closed), "--seconds", "1"}}) {
                Outcome o = ExpectedErrorsTest.main(args);
                assertEquals(1, o.status(), o.err());
                assertSays(o, "no connection to 127.0.0.1:" + closed + " could be made", "is the server running there?");
                assertFalse(o.err().contains("Unknown option"), o.err());
            }
        }
    }

    /**
     * A loopback port bound and not listening, held until the socket is closed: a connect to it
     * is refused, and nothing else can listen there meanwhile. A port taken from a closed
     * {@code ServerSocket} was free for any process on a busy machine to bind before the load
     * connected, and a listener there turned "could be made" into "was greeted".
     */
    private static Socket refusingPort() throws IOException {
        Socket held = new Socket();
        held.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
        return held;
    }

    @Test
    void shouldFailALoadThatNoServerGreets() throws Exception {
        // a listener that accepts (the kernel's backlog) but never answers HELLO: once exit 0, "connections=0 ... sent=0"
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getByName("127.0.0.1"))) {
            int port = silent.getLocalPort();
            Outcome o = refused("load", "--port", Integer.toString(port), "--connections", "2", "--seconds", "1");
            assertEquals(1, o.status(), o.err());
            assertSays(o, "no connection to 127.0.0.1:" + port + " was greeted", "nothing was sent",
                    "is an orrery-demo server (--port " + port + ") running there");
            assertTrue(o.out().startsWith("connections=0 "), "the client's summary still comes first: " + o.out());
        }
    }

    @Test
    void shouldNameClusterVerifyWhenReplayIsGivenAClusterStoresFolder() throws Exception {
        // once: "the recording has no arena.properties ...; replay a folder written by --record"
        Path store = tmp.resolve("store");
        Path world = store.resolve("arena-0");
        for (String d : new String[] {"epochs", "journal", "snapshots"}) { // DirectoryWorldStore's layout
            Files.createDirectories(world.resolve(d));
        }
        Files.writeString(world.resolve("journal").resolve("1-0.journal"), "");
        for (Path given : new Path[] {store, world, world.resolve("journal")}) {
            Outcome o = refused("--replay", given.toString(), "--quiet");
            assertEquals(1, o.status(), o.err());
            assertSays(o, "--replay " + given + ": this is a cluster store's folder",
                    "each world keeps epochs/, a file per epoch claimed, and journal/ and snapshots/ once it has "
                    + "journaled a tick and stored a snapshot", // the engine's one text
                    "check the store's worlds with --cluster-verify --cluster-store DIR");
        }
    }

    @Test
    void shouldFailAHostileLoadThatNoServerGreets() throws Exception {
        // once exit 0 with 'hostile ... io_errors=4 ...': no server at all looked like a finished soak
        int closed;
        Outcome o;
        try (Socket held = refusingPort()) {
            closed = held.getLocalPort();
            o = refused("load", "--hostile", "--port", Integer.toString(closed), "--seconds", "1", "--polite", "2",
                    "--silent", "0");
        }
        assertEquals(1, o.status(), o.err());
        assertSays(o, "no polite client of --hostile got past HELLO at 127.0.0.1:" + closed, "the soak tested nothing",
                "(first failure: ", "is an orrery-demo server (--port " + closed + ") running there");
        assertTrue(o.out().startsWith("hostile "), "the load's summary still comes first: " + o.out());
    }

    @Test
    void shouldNameTheSeedToSetWhenTheParametersFileDisagreesWithTheSnapshot() throws Exception {
        // agents and teams were named with the fix; the seed got the engine's "build the simulation with the recorded seed"
        Path dir = copy("other-seed");
        Path parameters = dir.resolve(DemoRun.PARAMETERS);
        String text = Files.readString(parameters);
        assertTrue(text.contains("seed=42"), text);
        Files.writeString(parameters, text.replace("seed=42", "seed=43"));
        Outcome o = refused("--replay", dir.toString(), "--quiet");
        assertEquals(1, o.status(), o.err());
        assertSays(o, "property 'seed' of " + parameters + " is 43 but", "was recorded with seed=42",
                "set seed=42 in arena.properties");
        assertFalse(o.err().contains("build the simulation"), o.err());
        Files.writeString(parameters, text);
        Outcome fixed = ExpectedErrorsTest.main("--replay", dir.toString(), "--threads", "1", "--quiet");
        assertEquals(0, fixed.status(), fixed.err());
        assertEquals(recordedHash, hash(fixed.out()));
    }

    @Test
    void shouldCompareTheParametersSeedWithTheSeedTheSnapshotHolds() throws Exception {
        // the seed was once read back out of the text of the engine's refusal to restore the snapshot
        long recorded = dev.orrery.engine.Simulation.snapshotSeed(dev.orrery.engine.RunReplayer.startSnapshot(recording));
        assertEquals(42, recorded);
        dev.orrery.demo.arena.ArenaConfig fromFile = RecordingParameters.read(recording);
        RecordingParameters.checkSeed("a.properties", fromFile, "s.snapshot", recorded); // one recording: no complaint
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> RecordingParameters.checkSeed("a.properties", new dev.orrery.demo.arena.ArenaConfig(
                        fromFile.agents(), fromFile.teams(), 43), "s.snapshot", recorded));
        assertEquals("property 'seed' of a.properties is 43 but s.snapshot was recorded with seed=42; the files are "
                + "not from one recording: set seed=42 in arena.properties (the snapshot's value), or record the run "
                + "again", e.getMessage());
    }

    private static void assertReplaysToTheRecordedHash() {
        Outcome o = ExpectedErrorsTest.main("--replay", recording.toString(), "--threads", "2", "--quiet");
        assertEquals(0, o.status(), o.err());
        assertEquals(recordedHash, hash(o.out()));
    }
}
