/**
 * The scheduler's facade: {@link dev.orrery.scheduler.Schedule} declares systems (name,
 * query, reads, writes, phase, order) and turns them into a dependency graph and an
 * executor. This package also holds what a user implements to write a system and what it
 * receives (the bodies, {@link dev.orrery.scheduler.JobContext}, sync points, observers),
 * the store of resource values ({@link dev.orrery.scheduler.Resources}, with
 * {@link dev.orrery.scheduler.LongSum}, a count parallel jobs add to) that jobs reach under
 * their declared access, events, run conditions, fixed steps and states. Underneath, exported
 * only to Orrery's own modules: {@code access} holds what a system touches, {@code graph} the
 * order maths, {@code executor} the threads that run chunk-parallel jobs, {@code event} and
 * {@code flow} the machinery of events and run rules, {@code check} the checked mode (on
 * under {@code -ea}) that verifies declared access at run time, and {@code internal} the door
 * into this package's package-private state. It knows nothing of ticks; the engine drives
 * it.
 *
 * <h2>One system, three stages</h2>
 * A system has a different name at each stage, each holding only what that stage needs:
 * <ol>
 *   <li>{@link dev.orrery.scheduler.graph.SystemDeclaration} (package {@code graph}): name,
 *       declared access, phase and explicit order: what the dependency graph is built from.
 *       Immutable.</li>
 *   <li>{@link dev.orrery.scheduler.executor.ScheduledSystem} (package {@code executor}):
 *       the declaration plus what runs (a query and a chunk body, a count and a range body,
 *       a forest relation and a level body, or an exclusive body), at its graph position in the
 *       {@link dev.orrery.scheduler.executor.ExecutionPlan}. Immutable; built by
 *       {@code Schedule.Builder.build()}.</li>
 *   <li>{@code SystemRun} (package-private in {@code executor}): one executor's mutable
 *       run-time state for the system: this run's matching chunks (or index or slot count), their
 *       split into jobs, and how many jobs are still out.</li>
 * </ol>
 */
package dev.orrery.scheduler;
