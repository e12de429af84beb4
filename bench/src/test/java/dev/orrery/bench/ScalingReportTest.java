package dev.orrery.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/** Fast checks of the suite's kernel, the plain parallel loop, the model and the plot; no timing. */
class ScalingReportTest {
    @Test
    void shouldInvertAGeneralMatrix() {
        float[] g = {2, 1, 0, 3, 1, 3, 1, 0, 0, 2, 4, 1, 1, 0, 1, 5};
        float[][] m = new float[16][1];
        for (int f = 0; f < 16; f++) {
            m[f][0] = g[f];
        }
        EcsSuite.invertAndTransform(m, new float[1], new float[1], new float[1], 0, 1, 1);
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                double s = 0;
                for (int k = 0; k < 4; k++) {
                    s += g[4 * i + k] * m[4 * k + j][0];
                }
                assertEquals(i == j ? 1 : 0, s, 1e-5, "(M * inverse)[" + i + "][" + j + "]");
            }
        }
    }

    @Test
    void shouldCoverEveryRowOnceWithAnyThreadCount() {
        for (int threads = 1; threads <= 3; threads++) {
            AtomicIntegerArray hits = new AtomicIntegerArray(1001);
            try (PlainParallelLoop loop = new PlainParallelLoop(threads)) {
                for (int run = 0; run < 3; run++) {
                    loop.run((t, from, to) -> {
                        for (int i = from; i < to; i++) {
                            hits.incrementAndGet(i);
                        }
                    }, 1001);
                }
            }
            for (int i = 0; i < 1001; i++) {
                assertEquals(3, hits.get(i), "row " + i + " with " + threads + " threads");
            }
        }
    }

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
}
