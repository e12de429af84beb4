package dev.orrery.bench.hierarchy;

/**
 * A transform relative to the parent: offset {@code (x, y)} and rotation as the unit vector
 * {@code (cos, sin)}, so composing two is multiplies and adds only (bitwise the same on every
 * thread and in every implementation, unlike {@code Math.sin}).
 *
 * @param x offset along the parent's x axis
 * @param y offset along the parent's y axis
 * @param cos cosine of the rotation relative to the parent
 * @param sin sine of the rotation relative to the parent
 */
public record LocalTransform(float x, float y, float cos, float sin) {
}
