/**
 * jcstress tests of the input ring: inputs published from other threads are drained by the
 * tick thread exactly once and whole. Same package as the engine's {@code InputPipeline}
 * so they exercise the real ring.
 */
package dev.orrery.engine.input;
