package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainOptionsTest {
    @TempDir
    Path tmp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int main(String... args) {
        return Main.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
    }

    @Test
    void shouldWriteTheScheduleGraphAndAChromeTrace() throws Exception {
        Path dot = tmp.resolve("schedule.dot");
        Path trace = tmp.resolve("trace.json");
        ArenaEndToEndTest.MainSummary.run("--agents", "500", "--ticks", "20", "--rate", "0", "--quiet", "--dot",
                dot.toString(), "--trace", trace.toString());
        String graph = Files.readString(dot);
        assertTrue(graph.startsWith("digraph"), graph);
        for (String system : new String[] {"inputs", "grid", "neighbours", "steer", "fire", "move", "fly", "damage",
            "expire", "reap"}) {
            assertTrue(graph.contains(system), "graph lacks " + system);
        }
        String json = Files.readString(trace);
        assertTrue(json.contains("\"steer\""), "trace has no steer job");
        assertTrue(json.contains("\"neighbours\""), "trace has no neighbours job");
        assertTrue(json.contains("\"indices\":\"0.."), "the range system's job is not labelled with its indices");
    }

    @Test
    void shouldExplainEveryOptionInHelp() {
        assertEquals(0, main("--help"));
        String help = out.toString(StandardCharsets.UTF_8);
        for (String option : new String[] {"--agents", "--ticks", "--threads", "--seed", "--rate", "--port", "--bind",
            "--record", "--replay", "--trace", "--dot", "load"}) {
            assertTrue(help.contains(option), "help lacks " + option);
        }
    }

    @Test
    void shouldPrintWhatTheHelpSaysQuietKeeps() {
        // the help once said a --quiet run "prints only its summary line"; it prints its start and warm-up lines too
        assertEquals(0, main("--agents", "200", "--ticks", "10", "--rate", "0", "--threads", "1", "--quiet"));
        String[] lines = out.toString(StandardCharsets.UTF_8).strip().split("\n");
        assertEquals(3, lines.length, String.join("\n", lines));
        assertTrue(lines[0].startsWith("arena: ") && lines[1].startsWith("warmup: ") && lines[2].startsWith("ticks=10 "),
                String.join("\n", lines));
        out.reset();
        assertEquals(0, main("--help"));
        String help = out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ");
        assertTrue(help.contains("No progress lines (tick=... once a second); a run still prints its other lines "
                + "(arena:, replay:, server:, warmup: and the summary line)"), help);
    }

    @Test
    void shouldSayWhyAStopLeftNoSummary() {
        // Ctrl-C while 1 000 000 agents were populated once exited 130 after 5 s with no summary and no word why
        java.io.StringWriter said = new java.io.StringWriter();
        assertEquals(false, Main.awaitSummary(new java.util.concurrent.CountDownLatch(1), 0, () -> true,
                new java.io.PrintWriter(said)));
        String[] lines = said.toString().strip().split("\n");
        assertEquals(1, lines.length, said.toString());
        assertTrue(lines[0].startsWith("orrery-demo: stopped before the run could print its summary"), lines[0]);
        assertTrue(lines[0].contains("--replay replays its complete ticks"), lines[0]);
        java.io.StringWriter quiet = new java.io.StringWriter();
        assertTrue(Main.awaitSummary(new java.util.concurrent.CountDownLatch(0), 60, () -> true,
                new java.io.PrintWriter(quiet)));
        assertEquals("", quiet.toString(), "a run that printed its summary gets no extra line");
    }

    @Test
    void shouldMentionARecordingInTheStopLineOnlyWhenOneIsBeingMade() {
        // the line once told a cluster node, or a run without --record, what became of "a recording in progress"
        java.io.StringWriter said = new java.io.StringWriter();
        assertEquals(false, Main.awaitSummary(new java.util.concurrent.CountDownLatch(1), 0, () -> false,
                new java.io.PrintWriter(said)));
        assertEquals("orrery-demo: stopped before the run could print its summary (still starting, or not done 0 s "
                + "after the stop)", said.toString().strip());
    }

    @Test
    void shouldSayARunIsRecordingOnlyOnceItWritesItsRecording() throws Exception {
        // what the stop line's recording part goes by: not a run without --record, not one still populating
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        DemoRun plain = new DemoRun(new RunOptions(200, 2, 5, 1, 7, 0, 0, -1, dev.orrery.demo.net.ServerConfig
                .loopback(), null, null, null, null, true), sink);
        plain.run();
        assertEquals(false, plain.recording(), "a run without --record");
        DemoRun recorded = new DemoRun(new RunOptions(200, 2, 5, 1, 7, 0, 0, -1, dev.orrery.demo.net.ServerConfig
                .loopback(), tmp.resolve("rec"), null, null, null, true), sink);
        assertEquals(false, recorded.recording(), "before its folder is written");
        recorded.run();
        assertTrue(recorded.recording(), "a run with --record, once it wrote its folder");
        assertTrue(Files.exists(tmp.resolve("rec").resolve(DemoRun.PARAMETERS)));
    }

    @Test
    void shouldPrintTheProjectsVersion() throws Exception {
        // once the fixed "orrery-demo 0.1.0" while the project was 0.1.0-SNAPSHOT
        String pom = Files.readString(Path.of("pom.xml")); // the demo module's, where surefire runs
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<parent>.*?<version>([^<]+)</version>",
                java.util.regex.Pattern.DOTALL).matcher(pom);
        assertTrue(m.find(), "no parent version in pom.xml");
        assertEquals(0, main("--version"));
        assertEquals("orrery-demo " + m.group(1), out.toString(StandardCharsets.UTF_8).strip());
    }

    @Test
    void shouldRefuseTheRunsWarmUpOptionOnTheLoadClient() {
        assertEquals(2, main("load", "--warmup", "5", "--port", "1"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--warmup"), err.toString());
    }

    @Test
    void shouldRefuseBadOptionsWithAMessageNamingThem() {
        assertEquals(2, main("--agents", "many"));
        assertEquals(2, main("--agents", "0"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--agents must be 1 to 10000000"), err.toString());
        assertEquals(1, main("--replay", tmp.resolve("nothing").toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--replay needs a folder written by --record"),
                err.toString());
    }
}
