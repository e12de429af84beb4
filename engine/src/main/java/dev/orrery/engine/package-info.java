/**
 * The engine: the simulation a typical user imports. It ties the world, the scheduler and
 * the command buffers into a fixed-step tick loop with resources, deterministic
 * randomness, an input pipeline, snapshots, and record and replay.
 */
package dev.orrery.engine;
