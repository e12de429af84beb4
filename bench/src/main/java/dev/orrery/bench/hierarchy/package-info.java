/**
 * Relationships (issue 15): transform propagation over a 100 000-entity {@code ChildOf}
 * forest, and the pair layout choice. {@link dev.orrery.bench.hierarchy.Propagation} has five
 * implementations over the same {@link dev.orrery.bench.hierarchy.Forest}: Orrery's level
 * system reading and writing by id (1 and 2 workers), Orrery in slot space (gather into
 * arrays indexed by hierarchy slot, the level walk on them, scatter back; 1 and 2 workers),
 * Orrery's exclusive system walking the {@code Hierarchy} serially, and a hand-written
 * recursive walk over flat arrays; they reach the same checksum. {@code TransformWorld}
 * (Orrery's non-fragmenting pairs) and {@code FragmentingWorld} (one archetype per parent's
 * children, emulated) compare a query pass, reparenting and memory.
 * {@link dev.orrery.bench.hierarchy.HierarchyReport} prints the figures of one run;
 * {@code HierarchyBenchmark} is the JMH form of the same scenarios.
 */
package dev.orrery.bench.hierarchy;
