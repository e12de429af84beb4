package dev.orrery.bench.hierarchy;

/**
 * A transform in world space: the parent's world transform composed with the local one (a
 * root's is its local one). Written only by the propagation.
 *
 * @param x position along the world's x axis
 * @param y position along the world's y axis
 * @param cos cosine of the rotation in the world
 * @param sin sine of the rotation in the world
 */
public record WorldTransform(float x, float y, float cos, float sin) {
}
