package dev.orrery.scheduler;

import java.util.List;

/**
 * Thrown when explicit before/after constraints form a cycle, so no order satisfies them.
 * The message spells the cycle out by system names ({@code a -> b -> c -> a}).
 */
public final class OrderCycleException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient List<String> cycle;

    /**
     * A cycle of explicit order constraints among the systems of {@code phase}; the schedule's
     * graph throws it while building, user code has no need to.
     *
     * @param phase the phase whose systems' constraints form the cycle
     * @param cycle the system names along the cycle, the first repeated at the end
     *     ({@code [a, b, a]}; {@code [a, a]} for a system ordered against itself); copied
     * @throws NullPointerException if {@code cycle} is null or holds a null
     */
    public OrderCycleException(Phase phase, List<String> cycle) {
        super("explicit order in phase " + phase + " forms a cycle: " + String.join(" -> ", cycle)
                + "; remove or reverse one of these before/after constraints");
        this.cycle = List.copyOf(cycle);
    }

    /**
     * The system names along the cycle; the first name is repeated at the end.
     *
     * @return an unmodifiable list ({@code [a, b, a]}), or {@code null} once the exception has been
     *     deserialized (the field is transient)
     */
    public List<String> cycle() {
        return cycle;
    }
}
