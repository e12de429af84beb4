package dev.orrery.scheduler.graph;

import java.util.ArrayList;
import java.util.List;

/**
 * Renders a {@link SystemGraph} for people: Graphviz DOT ({@link SystemGraph#toDot()}) and
 * the indented text form ({@link SystemGraph#toText()}). Reads the graph only through its
 * public accessors.
 *
 * <p><b>Threading:</b> stateless; a graph is immutable, so any thread may render it.
 */
final class GraphText {
    private GraphText() {
    }

    /** See {@link SystemGraph#toDot()}. */
    static String dot(SystemGraph g) {
        StringBuilder sb = new StringBuilder("digraph schedule {\n  rankdir=LR;\n  compound=true;\n  node [shape=ellipse];\n");
        for (int p = 0; p < g.phases().size(); p++) {
            String rule = g.phaseRule(p).toString();
            String phase = g.phases().get(p).name();
            sb.append("  subgraph cluster_").append(p).append(" {\n    label=")
                    .append(quote(rule.isEmpty() ? phase : phase + " (" + rule + ")")).append(";\n");
            if (g.phaseStart(p) == g.phaseEnd(p)) {
                sb.append("    ").append(quote("phase:" + phase)).append(" [shape=point];\n");
            }
            for (int s = g.phaseStart(p); s < g.phaseEnd(p); s++) {
                SystemDeclaration d = g.system(s);
                sb.append("    ").append(quote(d.name()));
                String runIf = d.runIf() == null ? "" : "label=" + quote(d.name() + " (if " + d.runIf() + ")") + ", ";
                if (d.exclusive()) {
                    sb.append(" [").append(runIf).append("shape=box, style=bold]");
                } else if (d.syncBefore()) {
                    sb.append(" [").append(runIf).append("xlabel=\"sync before\", peripheries=2]");
                } else if (g.autoSyncBefore(s)) {
                    sb.append(" [").append(runIf).append("xlabel=").append(quote("auto sync before: " + g.syncReason(s)))
                            .append(", peripheries=2, style=dashed]");
                } else if (!runIf.isEmpty()) {
                    sb.append(" [").append(runIf, 0, runIf.length() - 2).append(", style=dotted]");
                }
                sb.append(";\n");
            }
            sb.append("  }\n");
        }
        for (int p = 0; p + 1 < g.phases().size(); p++) {
            sb.append("  ").append(quote(anchor(g, p, true))).append(" -> ").append(quote(anchor(g, p + 1, false)))
                    .append(" [style=dashed, label=\"sync\", ltail=cluster_").append(p).append(", lhead=cluster_")
                    .append(p + 1).append("];\n");
        }
        for (SystemGraph.Edge e : g.edges()) {
            sb.append("  ").append(quote(g.system(e.from()).name())).append(" -> ")
                    .append(quote(g.system(e.to()).name())).append(" [label=").append(quote(e.label())).append("];\n");
        }
        return sb.append("}\n").toString();
    }

    private static String anchor(SystemGraph g, int phase, boolean last) {
        if (g.phaseStart(phase) == g.phaseEnd(phase)) {
            return "phase:" + g.phases().get(phase).name();
        }
        return g.system(last ? g.phaseEnd(phase) - 1 : g.phaseStart(phase)).name();
    }

    private static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    /** See {@link SystemGraph#toText()}. */
    static String text(SystemGraph g) {
        StringBuilder sb = new StringBuilder();
        List<List<SystemGraph.Edge>> into = new ArrayList<>();
        for (int i = 0; i < g.size(); i++) {
            into.add(new ArrayList<>());
        }
        for (SystemGraph.Edge e : g.edges()) {
            into.get(e.to()).add(e);
        }
        for (int p = 0; p < g.phases().size(); p++) {
            String rule = g.phaseRule(p).toString();
            sb.append("phase ").append(g.phases().get(p).name()).append(" (sync point at end")
                    .append(rule.isEmpty() ? "" : "; " + rule).append(")\n");
            for (int s = g.phaseStart(p); s < g.phaseEnd(p); s++) {
                SystemDeclaration d = g.system(s);
                if (d.syncBefore()) {
                    sb.append("  -- sync point: command buffers applied --\n");
                } else if (g.autoSyncBefore(s)) {
                    sb.append("  -- auto sync point: command buffers applied (").append(g.syncReason(s)).append(") --\n");
                }
                sb.append("  ").append(s).append(". ").append(d.name()).append(": ").append(d.access()).append('\n');
                if (d.runIf() != null) {
                    sb.append("       runs if ").append(d.runIf()).append('\n');
                }
                for (SystemGraph.Edge e : into.get(s)) {
                    sb.append("       after ").append(g.system(e.from()).name()).append(" (").append(e.label())
                            .append(")\n");
                }
            }
        }
        return sb.toString();
    }
}
