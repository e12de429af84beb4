package dev.orrery.bench.scaling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.bench.fixture.CommandLineTest;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/** Fast checks of the scaling report's model and plot; no timing. */
class ScalingReportTest {
    @Test
    void shouldCapAFixedSizeWorkloadAtItsChunkCount() {
        // 8 equal chunks, no serial part: linear to 8 threads, flat after
        assertEquals(8.0, 1000 / ScalingReport.modelTime(1000, 0, 0, 8, 0.125, 8), 1e-9);
        assertEquals(8.0, 1000 / ScalingReport.modelTime(1000, 0, 0, 8, 0.125, 64), 1e-9);
        assertEquals(9, ScalingReport.bend(1000, 0, 0, 8, 0.125));
        assertEquals(1 / (0.1 + 0.9 / 16), ScalingReport.amdahl(0.1, 16), 1e-12);
        assertEquals(16 - 0.1 * 15, ScalingReport.gustafson(0.1, 16), 1e-12);
    }

    @Test
    void shouldDrawAWellFormedPlotWithOneLinePerWorkload() throws Exception {
        List<ScalingReport.Point> points = List.of(
                new ScalingReport.Point("heavy_compute", 1, 100, 1, 1000),
                new ScalingReport.Point("heavy_compute", 2, 52, 2, 1000),
                new ScalingReport.Point("schedule", 1, 8, 1, 40000),
                new ScalingReport.Point("schedule", 2, 9, 2, 40000));
        String svg = ScalingPlot.svg(points, 2);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertEquals("svg", doc.getDocumentElement().getTagName());
        assertEquals(2, doc.getElementsByTagName("polyline").getLength());
        assertTrue(svg.contains("heavy_compute (1.92x)"), svg);
        assertTrue(svg.contains("ideal (linear)"));
    }

    @Test
    void shouldCheckItsOptionsBeforeMeasuring() throws Exception {
        ScalingReport.Options o = ScalingReport.parse(new String[] {"--threads", "4,2,4", "--workloads", "flops64",
            "--reps", "3"});
        assertArrayEquals(new int[] {1, 2, 4}, o.threads(), "sorted, repeats dropped, 1 added");
        assertEquals(List.of("flops64"), o.names());
        assertEquals(3, o.reps());
        for (String[] bad : new String[][] {{"--reps", "abc"}, {"--threads", "0"}, {"--workloads", "flops128"},
            {"--rep-ms"}, {"--bogus"}, {"--rep-ms", "9223372036855"}, {"--warmup-ms", "9223372036855"}}) {
            String err = CommandLineTest.run(ScalingReport.class, ScalingReport::parse, bad).assertRefused("ScalingReport")
                    .err();
            assertTrue(err.contains(bad[0]), err);
        }
    }

    @Test
    void shouldRefuseAReportPathUnderAFileBeforeMeasuring(@TempDir Path tmp) throws Exception {
        // Before, --md FILE/x.md was taken and the run ended, after measuring, in a FileAlreadyExistsException trace.
        Path file = Files.writeString(tmp.resolve("scaling.md"), "an earlier report");
        for (String option : new String[] {"--md", "--svg"}) {
            String err = CommandLineTest.run(ScalingReport.class, ScalingReport::parse, option,
                    file.resolve("x").toString()).assertRefused("ScalingReport").err();
            assertTrue(err.contains(option + " ") && err.contains(file + " is a file, not a folder"), err);
        }
    }
}
