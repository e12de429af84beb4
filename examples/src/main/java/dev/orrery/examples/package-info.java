/**
 * The runnable programs the README and the book point to, one concept each (a first world, the
 * particle game loop, change reactions, flow, hierarchy transforms, named instances, snapshots
 * and replay, many worlds, the explorer attached). Each has a {@code main} and a test that runs
 * it. They use only the public API, as a user would (checked by {@code ExamplesUsePublicApiTest});
 * the code blocks of the README and of {@code docs/} are compiled from {@code book} and
 * {@code javadoc} beside this package.
 */
package dev.orrery.examples;
