/**
 * The scheduler's checked mode: run-time checks of declared access that cost work per job,
 * on when assertions are enabled ({@code -ea}, so in every test) or with
 * {@code -Dorrery.checked=true}, and folded away by the JIT otherwise.
 * {@link dev.orrery.scheduler.check.CheckedMode} holds the switch and the per-thread access
 * of the running job's system, which the resource store ({@code Resources}) checks resource
 * reads and writes against; {@link dev.orrery.scheduler.check.ReadOnlyColumns} fingerprints the
 * columns a job declared read-only, which the executor ({@code scheduler.executor}) compares
 * before and after each job. Violations are reported as {@code UndeclaredAccessException}
 * (components, from {@code dev.orrery.ecs}) or
 * {@link dev.orrery.scheduler.UndeclaredResourceAccessException} (resources).
 *
 * <p>Not for users: only the scheduler's own packages call it (the module descriptor exports
 * it to no module). Memory ordering: the running access is thread-confined (a
 * {@code ThreadLocal} each job's thread sets and clears itself); the fingerprints are taken
 * by the job's own thread over chunks no other thread writes meanwhile.
 */
package dev.orrery.scheduler.check;
