package dev.orrery.bench.scaling;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Draws {@link ScalingReport}'s speed-up plot as a standalone SVG document, by plain text
 * generation: threads on the x axis, speed-up against one thread on the y axis, one line
 * with markers per workload (its plain-Java baseline, where measured, dotted in the same
 * colour), the ideal (linear) line dashed, grid, axis labels and a legend.
 * Any browser opens the file.
 */
final class ScalingPlot {
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
    private static final int W = 920;
    private static final int H = 480;
    private static final int LEFT = 70;
    private static final int RIGHT = 390;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;

    private ScalingPlot() {
    }

    static String svg(List<ScalingReport.Point> points, int maxThreads) {
        Map<String, List<ScalingReport.Point>> byWorkload = new LinkedHashMap<>();
        double maxSpeedup = maxThreads;
        for (ScalingReport.Point p : points) {
            byWorkload.computeIfAbsent(p.workload(), k -> new ArrayList<>()).add(p);
            maxSpeedup = Math.max(maxSpeedup, ScalingReport.speedup(points, p));
        }
        int xMax = Math.max(2, maxThreads);
        double yMax = Math.ceil(maxSpeedup * 1.1 * 2) / 2;
        double plotW = W - LEFT - RIGHT;
        double plotH = H - TOP - BOTTOM;
        StringBuilder b = new StringBuilder();
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        b.append(f("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"sans-serif\" font-size=\"13\">%n", W, H, W, H));
        b.append(f("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", W, H));
        b.append(f("<text x=\"%d\" y=\"28\" font-size=\"16\" font-weight=\"bold\">Orrery: speed-up against threads "
                + "(median ticks)</text>%n", LEFT));
        // grid and ticks
        int xStep = Math.max(1, xMax / 16);
        for (int t = 1; t <= xMax; t += xStep) {
            double x = LEFT + (t - 1) * plotW / (xMax - 1);
            b.append(f("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>%n", x, TOP, x, TOP + plotH));
            b.append(f("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>%n", x, TOP + plotH + 18, t));
        }
        double yStep = yMax <= 4 ? 0.5 : yMax <= 10 ? 1 : Math.ceil(yMax / 10);
        for (double s = 0; s <= yMax + 1e-9; s += yStep) {
            double y = TOP + plotH - s * plotH / yMax;
            b.append(f("<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>%n", LEFT, y, LEFT + plotW, y));
            b.append(f("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>%n", LEFT - 8, y + 4, s));
        }
        // axes and labels
        b.append(f("<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>%n", LEFT, TOP + plotH, LEFT + plotW, TOP + plotH));
        b.append(f("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\"/>%n", LEFT, TOP, LEFT, TOP + plotH));
        b.append(f("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">threads</text>%n", LEFT + plotW / 2, H - 15));
        b.append(f("<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 18 %.1f)\">speed-up against 1 thread"
                + "</text>%n", TOP + plotH / 2, TOP + plotH / 2));
        // ideal line
        b.append(f("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777\" stroke-width=\"1.5\" "
                + "stroke-dasharray=\"6 4\"/>%n", px(1, xMax, plotW), py(1, yMax, plotH), px(xMax, xMax, plotW),
                py(xMax, yMax, plotH)));
        // workloads
        int i = 0;
        double legendY = TOP + 10;
        double legendX = LEFT + plotW + 20;
        b.append(f("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777\" stroke-width=\"1.5\" "
                + "stroke-dasharray=\"6 4\"/>%n", legendX, legendY, legendX + 24, legendY));
        b.append(f("<text x=\"%.1f\" y=\"%.1f\">ideal (linear)</text>%n", legendX + 30, legendY + 4));
        Map<String, String> colours = new LinkedHashMap<>();
        for (Map.Entry<String, List<ScalingReport.Point>> e : byWorkload.entrySet()) {
            boolean plain = e.getKey().endsWith(ScalingReport.PLAIN);
            String base = plain ? e.getKey().substring(0, e.getKey().length() - ScalingReport.PLAIN.length()) : e.getKey();
            String c = colours.computeIfAbsent(base, k -> COLOURS[colours.size() % COLOURS.length]);
            String dash = plain ? " stroke-dasharray=\"2 4\"" : "";
            StringBuilder pts = new StringBuilder();
            for (ScalingReport.Point p : e.getValue()) {
                double s = ScalingReport.speedup(points, p);
                pts.append(f("%.1f,%.1f ", px(p.threads(), xMax, plotW), py(s, yMax, plotH)));
            }
            b.append(f("<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s/>%n",
                    pts.toString().trim(), c, plain ? "1.5" : "2.5", dash));
            for (ScalingReport.Point p : e.getValue()) {
                double s = ScalingReport.speedup(points, p);
                b.append(f("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s, %d threads: %.2fx</title></circle>%n",
                        px(p.threads(), xMax, plotW), py(s, yMax, plotH), c, e.getKey(), p.threads(), s));
            }
            double ly = legendY + 24 * (i + 1);
            ScalingReport.Point last = e.getValue().get(e.getValue().size() - 1);
            b.append(f("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%s\"%s/>%n",
                    legendX, ly, legendX + 24, ly, c, plain ? "1.5" : "2.5", dash));
            b.append(f("<text x=\"%.1f\" y=\"%.1f\">%s (%.2fx)</text>%n", legendX + 30, ly + 4, e.getKey(),
                    ScalingReport.speedup(points, last)));
            i++;
        }
        b.append("</svg>\n");
        return b.toString();
    }

    private static double px(double threads, int xMax, double plotW) {
        return LEFT + (threads - 1) * plotW / (xMax - 1);
    }

    private static double py(double speedup, double yMax, double plotH) {
        return TOP + plotH - speedup * plotH / yMax;
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
