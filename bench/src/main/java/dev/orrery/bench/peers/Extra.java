package dev.orrery.bench.peers;

/** The component the add/remove workload toggles on Orrery entities: one {@code int}. */
public record Extra(int v) {
}
