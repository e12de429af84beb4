/**
 * jcstress tests of the engine's hand-offs between threads: the input ring's publish from any
 * thread and drain on the tick thread, through the real {@code InputPipeline} (an LMAX
 * Disruptor ring). In the engine's package so that they exercise the class users call; the
 * executor's hand-offs are tested beside them in {@code dev.orrery.scheduler.executor}.
 */
package dev.orrery.engine;
