package dev.orrery.scheduler;

import java.util.Objects;

/**
 * A named stage of a schedule. Phases run one after another in the order the schedule
 * lists them; every system of one phase finishes before any system of the next starts, and
 * the end of each phase is a sync point where deferred structural changes can be applied.
 * Phases compare by identity.
 *
 * <p><b>Threading:</b> immutable; safe to share.
 */
public final class Phase {
    /** Input gathering and anything that must see the world before simulation. */
    public static final Phase PRE_UPDATE = new Phase("PreUpdate");
    /** The simulation proper; systems land here unless they name a phase. */
    public static final Phase UPDATE = new Phase("Update");
    /** Reactions to the update: bookkeeping, output, clean-up. */
    public static final Phase POST_UPDATE = new Phase("PostUpdate");

    private final String name;

    private Phase(String name) {
        this.name = Objects.requireNonNull(name, "phase name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a phase needs a non-blank name");
        }
    }

    /**
     * A new phase named {@code name}, to be listed in a schedule's phases.
     *
     * @param name the phase's name, not blank; graph output and traces show it
     * @return a new phase, equal only to itself: keep it in a constant
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public static Phase named(String name) {
        return new Phase(name);
    }

    /**
     * The phase's name.
     *
     * @return the name given to {@link #named}
     */
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }
}
