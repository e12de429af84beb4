/**
 * Resources in snapshots: a simulation's singleton values (clock, configuration, this tick's
 * inputs, a spatial index) live in the scheduler's one store,
 * {@link dev.orrery.scheduler.resource.Resources}, shared by the simulation and its schedule;
 * this package holds the {@link dev.orrery.engine.resource.ResourceCodec}s (registered in
 * {@link dev.orrery.engine.resource.ResourceCodecs}) that carry some of them through snapshots
 * and the {@link dev.orrery.engine.resource.ResourceSerializer} that writes and reads that
 * snapshot section.
 *
 * <p>The keys themselves, {@link dev.orrery.scheduler.access.ResourceKey}, live in the
 * scheduler's {@code access} package: systems declare {@code readsResource(key)} and
 * {@code writesResource(key)} there, and the scheduler orders conflicting systems by them
 * exactly as it does by components. Create keys with {@code ResourceKey.of(name, type)}.
 * The tick loop ({@code dev.orrery.engine.tick}) owns the store and puts its built-in
 * resources into it.
 *
 * <p><b>Memory ordering:</b> the store is plain (unsynchronised) memory. The tick thread
 * writes it between ticks; jobs read it during a tick, after the executor's job hand-off,
 * which is the happens-before edge. See {@link dev.orrery.scheduler.resource.Resources}.
 */
package dev.orrery.engine.resource;
