package dev.orrery.bench;

/** A benchmark value component: a velocity, three {@code float} fields. */
public record Velocity(float x, float y, float z) {
}
