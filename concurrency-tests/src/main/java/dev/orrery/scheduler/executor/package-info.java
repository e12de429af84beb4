/**
 * jcstress tests of the parallel executor's hand-offs: a job and its command buffer through
 * the real job and completion queues, and the workers' park/unpark handshake. Same package
 * as the executor so they use its package-private queue and parker classes.
 */
package dev.orrery.scheduler.executor;
