package dev.orrery.bench;

/** A benchmark value component with one field, added and removed by the structural benchmark. */
public record Health(float hp) {
}
