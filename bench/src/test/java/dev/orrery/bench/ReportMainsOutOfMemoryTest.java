package dev.orrery.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.bench.fixture.CommandLine;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A size within {@link CommandLine}'s limits can still need more heap than the JVM was given:
 * a report main run in a JVM of its own with a 32 MiB heap and 20 000 000 particles (the
 * {@link CommandLine#ENTITIES} limit, taken) must end in one line on standard error naming the
 * sizes, the heap's maximum and {@code -Xmx}, with exit code {@link 3},
 * where it used to end in an {@code OutOfMemoryError} stack trace and exit code 1. The child
 * fails within a second on an idle machine; the bound is {@link ReportMainsSizeLimitsTest}'s
 * 90 s, for a loaded one. A worker thread's run out of heap is the same line, and ends the run
 * though its main thread waits for the worker ({@link WorkerOutOfHeapMain}).
 */
class ReportMainsOutOfMemoryTest {
    @Test
    void shouldReportRunningOutOfHeapInOneLineNamingXmx() throws Exception {
        String main = "dev.orrery.bench.gameloop.ParticleScalingReport";
        String[] args = {"--particles", "20000000", "--workers", "1", "--reps", "1", "--rep-ms", "1", "--warmup-ms", "0"};
        ReportMainsSizeLimitsTest.Run r = ReportMainsSizeLimitsTest.javaWithHeap("-Xmx32m", main, args);
        String what = main + " " + String.join(" ", args) + " on -Xmx32m";
        assertEquals(CommandLine.OUT_OF_MEMORY, r.status(), what + "; stderr: " + r.err());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), what + " printed more than one line: " + r.err());
        String line = lines.get(0);
        assertTrue(line.startsWith("ParticleScalingReport: ran out of heap at the sizes given (--particles 20000000 "),
                line);
        assertTrue(line.matches(".*, with a maximum of [0-9]+ MiB .*"), what + " did not name the heap's maximum: " + line);
        assertTrue(line.contains("-Xmx") && line.contains("smaller sizes"), what + " did not name the fix: " + line);
        assertFalse(line.contains("Exception") || line.contains("OutOfMemoryError") || r.err().contains("\tat "), line);
    }
    @Test
    void shouldReportAWorkerThreadRunningOutOfHeapInTheSameLineAndEndTheRun() throws Exception {
        String main = WorkerOutOfHeapMain.class.getName();
        ReportMainsSizeLimitsTest.Run r = ReportMainsSizeLimitsTest.javaWithHeap("-Xmx32m", main, "--blocks", "9");
        String what = "a worker out of heap on -Xmx32m, the main thread waiting for it";
        assertEquals(CommandLine.OUT_OF_MEMORY, r.status(), what + "; stderr: " + r.err());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), what + " printed more than one line: " + r.err());
        String line = lines.get(0);
        assertTrue(line.startsWith("WorkerOutOfHeapMain: ran out of heap at the sizes given (--blocks 9), with a maximum "
                + "of "), line);
        assertTrue(line.contains("-Xmx") && line.contains("smaller sizes"), what + " did not name the fix: " + line);
        assertFalse(line.contains("Exception") || line.contains("OutOfMemoryError") || r.err().contains("\tat "), line);
    }
}
