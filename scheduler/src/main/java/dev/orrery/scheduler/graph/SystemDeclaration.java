package dev.orrery.scheduler.graph;

import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.access.SystemAccess;
import java.util.List;
import java.util.Objects;

/**
 * What the graph needs to know about one system: its name (unique in a schedule), its
 * access, its phase and the systems it must run before or after. What the system does and
 * which entities it visits live with the executor.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param name the system's unique name, used in graph output and errors
 * @param access its declared reads and writes
 * @param phase the phase it runs in
 * @param before names of systems (same or later phase) this one must precede
 * @param after names of systems (same or earlier phase) this one must follow
 * @param runIf the condition under which it runs ({@code .runIf(...)}), or {@code null}: always
 */
public record SystemDeclaration(String name, SystemAccess access, Phase phase, List<String> before,
        List<String> after, RunCondition runIf) {
    /** Checks the parts and copies the lists. */
    public SystemDeclaration {
        Objects.requireNonNull(name, "system name");
        Objects.requireNonNull(access, "access of system " + name);
        Objects.requireNonNull(phase, "phase of system " + name);
        before = List.copyOf(namesIn(before, name, "before"));
        after = List.copyOf(namesIn(after, name, "after"));
        if (!access.owner().equals(name)) {
            throw new IllegalArgumentException("access owner '" + access.owner() + "' differs from system name '"
                    + name + "'; build the access with SystemAccess.builder(\"" + name + "\")");
        }
        if (runIf != null) {
            for (var key : runIf.reads()) {
                if (!access.canReadResource(key)) {
                    throw new IllegalArgumentException("system '" + name + "' runs if " + runIf + ", which reads "
                            + "resource '" + key.name() + "', but its access declares no read of it; declare "
                            + ".readsResource(" + key.name() + ") (Schedule's runIf does it for you)");
                }
            }
        }
    }

    /** {@code names}, checked to hold no null, which {@code List.copyOf} would refuse without a word. */
    private static List<String> namesIn(List<String> names, String system, String order) {
        Objects.requireNonNull(names, () -> order + " of system " + system);
        for (String n : names) {
            Objects.requireNonNull(n, () -> "system name in " + order + "(...) of system '" + system + "'");
        }
        return names;
    }

    /** A declaration of a system that always runs. */
    public SystemDeclaration(String name, SystemAccess access, Phase phase, List<String> before, List<String> after) {
        this(name, access, phase, before, after, null);
    }

    /** True for a system that needs the whole world and runs alone. */
    public boolean exclusive() {
        return access.exclusive();
    }

    /**
     * True for a system that declared {@code afterStructuralChanges()}: a sync point before
     * it whatever the graph finds. The graph may place one before other systems too; ask
     * {@link SystemGraph#syncBefore(int)} for the decision the executors act on.
     */
    public boolean syncBefore() {
        return access.syncBefore();
    }
}
