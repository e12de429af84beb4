package dev.orrery.demo.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.SnapshotInfo;
import dev.orrery.cluster.world.WorldBlueprint;
import dev.orrery.cluster.world.WorldVerifier;
import dev.orrery.demo.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster node as the demo runs it, {@code java ... Main --cluster}, in a JVM of its own,
 * stopped by a signal while its worlds tick and take the node's inputs: what
 * demo/README.md and docs/many-worlds-and-the-cluster.md promise is checked from outside.
 *
 * <ul>
 *   <li>{@code kill} (SIGTERM, {@link Process#destroy()}): the node leaves the cluster in
 *       order and the JVM exits with 143, saying so in one line and nothing on stderr; being
 *       the last node, each world stops with a hand-off snapshot at the tick it reached, so a
 *       node started again over the store resumes it there with nothing to replay.</li>
 *   <li>{@code kill -9} (SIGKILL, {@link Process#destroyForcibly()}): every tick a world
 *       reported, and every input the node saw accepted, is in the store (a tick is forced to
 *       the journal before it is reported or acknowledged), so the next node resumes each
 *       world at or after its last reported tick from its snapshot and the journal after it.</li>
 * </ul>
 *
 * <p>Either way every world's store is then checked with {@link WorldVerifier}: its journal
 * replayed from tick 0 reproduces every journaled hash and every snapshot, which is what an
 * uninterrupted run with the same inputs gives, and no input applied twice.
 *
 * <p>The node's JVM is killed in {@code finally} whatever happens, so no process outlives a
 * test; the waits are generous (tens of seconds) for a loaded machine.
 */
class NodeProcessSignalsTest {
    private static final int WORLDS = 2;
    private static final int AGENTS = 300;
    private static final double RATE = 20;
    /** A node's progress line: its inputs' answers and each world here with its tick. */
    private static final Pattern PROGRESS = Pattern.compile("cluster: node \\S+ members=\\d+ worlds_here=(\\d+) "
            + "moving=\\d+ inputs accepted=(\\d+) refused=(\\d+) unknown=\\d+(?: \\|(.*))?");
    private static final Pattern WORLD_AT = Pattern.compile("(arena-\\d+)@(\\d+)");
    private static final Pattern HANDED_OFF = Pattern.compile(
            "cluster: world (arena-\\d+) handed off from here at tick (\\d+) with a snapshot .*");
    private static final Pattern RESTORED = Pattern.compile("cluster: world (arena-\\d+) restored here at tick (\\d+) "
            + "\\(epoch (\\d+)\\): (?:no snapshot|snapshot of tick (\\d+)), replayed (\\d+) journaled ticks;.*");
    private static final String LAST_NODE_LEAVES = " leaving; it is the last node: its worlds stop with a snapshot and "
            + "resume when a node starts again with this store";
    /** How long a stop may take before it counts as a hang (the node's own hook gives up after 30 s). */
    private static final long STOP_SECONDS = 45;

    @TempDir
    Path tmp;

    @Test
    void shouldLeaveInOrderOnSigtermAndResumeEveryWorldAtItsHandOffTick() throws Exception {
        Path store = tmp.resolve("worlds");
        Progress seen;
        String out;
        long stopMillis;
        try (NodeProcess node = NodeProcess.start(tmp, store)) {
            seen = node.awaitTicking(20);
            long stop = System.nanoTime();
            node.process.destroy(); // SIGTERM
            assertTrue(node.process.waitFor(STOP_SECONDS, TimeUnit.SECONDS), "the node did not exit within "
                    + STOP_SECONDS + " s of SIGTERM:\n" + node.out());
            stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stop);
            out = node.out();
            assertEquals(143, node.process.exitValue(), "SIGTERM ends the JVM with 128 + 15 once it left:\n" + out
                    + node.err());
            assertEquals("", node.err(), "nothing on stderr (no stack trace, no 'stopped before' line)");
        }
        assertFalse(out.contains("Exception") || out.contains("\tat "), "no stack trace on stdout either:\n" + out);
        List<String> leaving = lines(out, l -> l.contains(" leaving; "));
        assertEquals(1, leaving.size(), "one stop line:\n" + out);
        assertTrue(leaving.get(0).endsWith(LAST_NODE_LEAVES), leaving.get(0));

        Map<String, Long> handedOff = handedOff(out);
        assertEquals(seen.ticks.keySet(), handedOff.keySet(), "every world handed off with a snapshot:\n" + out);
        DirectoryWorldStore worlds = new DirectoryWorldStore(store);
        for (Map.Entry<String, Long> w : handedOff.entrySet()) {
            assertTrue(w.getValue() >= seen.ticks.get(w.getKey()), w + " handed off before a tick it reported: " + seen);
            List<SnapshotInfo> snapshots = worlds.snapshots(w.getKey());
            assertEquals(w.getValue(), snapshots.get(0).tick(), w.getKey() + "'s newest snapshot is its hand-off's: "
                    + snapshots);
        }
        Map<String, WorldVerifier.Report> verified = verifyFromTickZero(store, seen);

        String again = runNodeInProcess(store);
        for (Map.Entry<String, Long> w : handedOff.entrySet()) {
            Matcher m = restored(again, w.getKey());
            assertEquals(w.getValue(), Long.parseLong(m.group(2)), "resumed where it stopped: " + m.group());
            assertEquals(Long.toString(w.getValue()), m.group(4), "from its hand-off snapshot: " + m.group());
            assertEquals(0, Long.parseLong(m.group(5)), "nothing to replay after a hand-off: " + m.group());
            WorldVerifier.Report r = verified.get(w.getKey());
            assertEquals(w.getValue(), r.nextTick(), "the journal ends at the hand-off: " + r.describe());
            assertEquals(1, r.snapshotsChecked(), "the hand-off snapshot is the straight replay's state at its tick: "
                    + r.describe());
        }
        verifyAfterNextNode(store, seen, again);
        System.out.printf("NodeProcessSignalsTest (SIGTERM): exited 143 %d ms after the signal; handed off at %s%n",
                stopMillis, handedOff);
    }

    @Test
    void shouldLoseNoReportedTickNorAcceptedInputOnSigkill() throws Exception {
        Path store = tmp.resolve("worlds");
        Progress seen;
        try (NodeProcess node = NodeProcess.start(tmp, store)) {
            seen = node.awaitTicking(20);
            node.process.destroyForcibly(); // SIGKILL: no hook, no hand-off
            assertTrue(node.process.waitFor(STOP_SECONDS, TimeUnit.SECONDS), "SIGKILL did not end the node");
            assertEquals(137, node.process.exitValue(), "SIGKILL: 128 + 9");
        }
        Map<String, WorldVerifier.Report> verified = verifyFromTickZero(store, seen);
        long applied = 0;
        for (WorldVerifier.Report r : verified.values()) {
            assertTrue(r.nextTick() >= seen.ticks.get(r.worldId()), "every tick the world reported is journaled: "
                    + r.describe() + "; last seen " + seen);
            applied += r.inputsApplied();
        }
        assertTrue(applied >= seen.accepted, "every input the node saw accepted is journaled: " + applied
                + " journaled, " + seen.accepted + " accepted");

        String again = runNodeInProcess(store);
        for (WorldVerifier.Report r : verified.values()) {
            Matcher m = restored(again, r.worldId());
            long resumed = Long.parseLong(m.group(2));
            long snapshot = m.group(4) == null ? 0 : Long.parseLong(m.group(4)); // none: replayed from tick 0
            assertEquals(r.nextTick(), resumed, "resumed after the last journaled tick: " + m.group());
            assertEquals(resumed - snapshot, Long.parseLong(m.group(5)), "replayed the journal after the snapshot: "
                    + m.group());
            assertEquals(2, Long.parseLong(m.group(3)), "one new incarnation: " + m.group());
        }
        verifyAfterNextNode(store, seen, again);
    }

    @Test
    void shouldSayInOneLineThatANodeStoppedWhileStartingStartedNothing() throws Exception {
        Path store = tmp.resolve("worlds");
        List<String> cmd = new ArrayList<>(NodeProcess.java(SignalledBeforeTheNodeStarts.class));
        cmd.addAll(NodeProcess.args(store));
        Process p = new ProcessBuilder(cmd).redirectOutput(tmp.resolve("node.out").toFile())
                .redirectError(tmp.resolve("node.err").toFile()).start();
        try (NodeProcess node = new NodeProcess(p, tmp.resolve("node.out"), tmp.resolve("node.err"))) {
            assertTrue(p.waitFor(STOP_SECONDS, TimeUnit.SECONDS), "the node did not exit within " + STOP_SECONDS
                    + " s of SIGTERM:\n" + node.out() + node.err());
            String out = node.out();
            assertEquals(143, p.exitValue(), out + node.err());
            assertEquals("", node.err(), "nothing on stderr: the stop is not an error");
            assertEquals(List.of(STOPPED_STARTING), out.strip().lines().toList(), "one line saying what happened");
            assertFalse(Files.exists(store.resolve(ClusterDemo.BLUEPRINT_FILE)), "the store is left as it was");
        }
    }

    /** The line of a node stopped before it started. */
    private static final String STOPPED_STARTING = "cluster: stopped (Ctrl-C or kill) while the node was starting: it "
            + "joined no cluster and opened no world; the store is as it was";

    /**
     * The demo's {@code main} in a JVM that got SIGTERM before the node started: the signal is
     * sent to this process first, and a shutdown hook keeps the JVM's shutdown open until the
     * demo returns, as a signal arriving during a slow start does (the demo's hook cannot be
     * registered then, nor Pekko's).
     */
    static final class SignalledBeforeTheNodeStarts {
        /** Signals this JVM, waits for its shutdown to begin, then runs {@code Main} with {@code args}. */
        public static void main(String[] args) throws Exception {
            java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    ran.await(STOP_SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            new ProcessBuilder("kill", "-TERM", Long.toString(ProcessHandle.current().pid())).inheritIO().start()
                    .waitFor();
            while (!shuttingDown()) {
                TimeUnit.MILLISECONDS.sleep(10);
            }
            Main.execute(args, System.out, System.err, true);
            System.out.flush();
            ran.countDown();
            TimeUnit.SECONDS.sleep(STOP_SECONDS); // the JVM halts with 143 once the hooks are done
        }

        private static boolean shuttingDown() {
            Thread probe = new Thread(() -> { });
            try {
                Runtime.getRuntime().addShutdownHook(probe);
                Runtime.getRuntime().removeShutdownHook(probe);
                return false;
            } catch (IllegalStateException e) {
                return true;
            }
        }
    }

    /** What a node's progress lines showed last: each world's tick and the inputs accepted. */
    private record Progress(Map<String, Long> ticks, long accepted) {
    }

    /**
     * Checks every world of {@code store} against its journal: every journaled hash and every
     * snapshot kept must be those of a straight replay, no input applied twice.
     */
    private static Map<String, WorldVerifier.Report> verify(Path store, Progress seen) throws IOException {
        DirectoryWorldStore worlds = new DirectoryWorldStore(store);
        WorldBlueprint blueprint = ClusterDemo.blueprint(AGENTS, 2, 42, RATE);
        assertEquals(seen.ticks.keySet(), new java.util.HashSet<>(worlds.worldIds()));
        Map<String, WorldVerifier.Report> reports = new HashMap<>();
        for (String world : worlds.worldIds()) {
            WorldVerifier.Report r = WorldVerifier.verify(worlds, world, blueprint);
            assertTrue(r.ok(), r.describe());
            reports.put(world, r);
        }
        return reports;
    }

    /**
     * {@link #verify} of the first node's store, which still holds each world's journal from
     * tick 0: the replay is an uninterrupted run with the inputs the node journaled.
     */
    private static Map<String, WorldVerifier.Report> verifyFromTickZero(Path store, Progress seen) throws IOException {
        Map<String, WorldVerifier.Report> reports = verify(store, seen);
        for (WorldVerifier.Report r : reports.values()) {
            assertEquals(-1, r.fromSnapshot(), "replayed from tick 0: " + r.describe());
            assertTrue(r.hashesChecked() > 0 && r.ticksReplayed() > 0, r.describe());
        }
        return reports;
    }

    /**
     * {@link #verify} after the next node ran and left: its hand-off snapshot's retention may
     * have dropped the history before it, so each world must just reach that hand-off.
     */
    private static void verifyAfterNextNode(Path store, Progress seen, String nextNodeOut) throws IOException {
        Map<String, Long> handedOff = handedOff(nextNodeOut);
        for (WorldVerifier.Report r : verify(store, seen).values()) {
            assertEquals(handedOff.get(r.worldId()), r.nextTick(), "the store reaches the next node's hand-off: "
                    + r.describe());
        }
    }

    /** Each world's tick in the lines saying it was handed off with a snapshot. */
    private static Map<String, Long> handedOff(String out) {
        Map<String, Long> handedOff = new HashMap<>();
        for (String line : lines(out, l -> HANDED_OFF.matcher(l).matches())) {
            Matcher m = HANDED_OFF.matcher(line);
            assertTrue(m.matches());
            assertEquals(null, handedOff.put(m.group(1), Long.parseLong(m.group(2))), "handed off twice: " + out);
        }
        return handedOff;
    }

    /**
     * Runs a node over {@code store} in this JVM for 8 s (its worlds restored well within it,
     * even on a loaded machine) and returns what it printed.
     */
    private static String runNodeInProcess(Path store) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.execute(NodeProcess.args(store, "--cluster-seconds", "8").toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                false);
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, text + err.toString(StandardCharsets.UTF_8));
        return text;
    }

    private static Matcher restored(String out, String world) {
        for (String line : out.split("\n")) {
            Matcher m = RESTORED.matcher(line);
            if (m.matches() && m.group(1).equals(world)) {
                return m;
            }
        }
        throw new AssertionError(world + " was not restored by the next node:\n" + out);
    }

    private static List<String> lines(String text, java.util.function.Predicate<String> which) {
        List<String> found = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (which.test(line)) {
                found.add(line);
            }
        }
        return found;
    }

    /** The demo's cluster node in a JVM of its own, its stdout and stderr in files; closing it kills it. */
    private static final class NodeProcess implements AutoCloseable {
        final Process process;
        private final Path out;
        private final Path err;

        private NodeProcess(Process process, Path out, Path err) {
            this.process = process;
            this.out = out;
            this.err = err;
        }

        static List<String> args(Path store, String... more) {
            List<String> args = new ArrayList<>(List.of("--cluster", "--cluster-port", "0", "--cluster-store",
                    store.toString(), "--cluster-worlds", Integer.toString(WORLDS), "--agents", Integer.toString(AGENTS),
                    "--rate", Double.toString(RATE)));
            args.addAll(List.of(more));
            return args;
        }

        /**
         * The command running {@code main}'s class on this JVM's java and the test class path; on
         * JDK 24 and later with {@code --sun-misc-unsafe-memory-access=allow}, as demo/README.md
         * says for the cluster (Pekko reads fields through {@code sun.misc.Unsafe}, which those
         * JDKs warn about on stderr), and as the test JVM itself runs (the root pom's JDK 24+ profile).
         */
        static List<String> java(Class<?> main) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            List<String> cmd = new ArrayList<>(List.of(java));
            if (Runtime.version().feature() >= 24) {
                cmd.add("--sun-misc-unsafe-memory-access=allow");
            }
            cmd.addAll(List.of("-cp", cp, main.getName()));
            return cmd;
        }

        static NodeProcess start(Path dir, Path store) throws IOException {
            List<String> cmd = new ArrayList<>(java(Main.class));
            cmd.addAll(args(store));
            Path out = dir.resolve("node.out");
            Path err = dir.resolve("node.err");
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            return new NodeProcess(p, out, err);
        }

        String out() throws IOException {
            return Files.readString(out);
        }

        String err() throws IOException {
            return Files.readString(err);
        }

        /**
         * Waits (up to a minute: a loaded machine starts a JVM and a cluster slowly) for a
         * progress line with every world here at tick {@code ticks} or later and an input
         * accepted, and returns it.
         */
        Progress awaitTicking(long ticks) throws IOException, InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                assertTrue(process.isAlive(), "the node ended early:\n" + out() + err());
                assertTrue(System.nanoTime() < deadline, "no world ticked " + ticks + " times in a minute:\n" + out()
                        + err());
                String[] all = out().split("\n");
                for (int i = all.length - 1; i >= 0; i--) {
                    Matcher m = PROGRESS.matcher(all[i]);
                    if (m.matches()) {
                        Map<String, Long> at = new HashMap<>();
                        Matcher w = WORLD_AT.matcher(m.group(4) == null ? "" : m.group(4));
                        while (w.find()) {
                            at.put(w.group(1), Long.parseLong(w.group(2)));
                        }
                        assertEquals("0", m.group(3), "no input refused: " + all[i]);
                        long accepted = Long.parseLong(m.group(2));
                        if (at.size() == WORLDS && accepted > 0 && at.values().stream().allMatch(t -> t >= ticks)) {
                            return new Progress(at, accepted);
                        }
                        break;
                    }
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }

        @Override
        public void close() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(STOP_SECONDS, TimeUnit.SECONDS);
        }
    }
}
