package dev.orrery.bench;

/** A benchmark value component: a position in space, three {@code float} fields. */
public record Position(float x, float y, float z) {
}
