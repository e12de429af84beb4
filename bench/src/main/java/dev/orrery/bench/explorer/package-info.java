/**
 * What the live explorer costs a tick: {@code ExplorerCostReport} times the same simulation
 * without the explorer, with it attached and no client, and with a client streaming.
 */
package dev.orrery.bench.explorer;
