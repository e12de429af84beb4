/**
 * Orrery's determinism test kit, for a game's own tests: {@link dev.orrery.testkit.DeterminismCheck}
 * proves a simulation gives the same state on every tick whatever the worker count, the batch
 * size, a snapshot restored mid-run or a recording replayed;
 * {@link dev.orrery.testkit.GoldenRecording} pins its behaviour to a committed recording; and
 * {@link dev.orrery.testkit.CompareRecordings} compares two recordings from the command line.
 * Every failure is a {@link dev.orrery.testkit.DeterminismFailure} naming the tick, the system
 * and the entities and fields that differ.
 */
package dev.orrery.testkit;
