/**
 * The compiled source of the usage examples in the public Javadoc of the exported packages
 * ({@code ecs}, {@code ecs.component}, {@code scheduler}, {@code engine}, {@code engine.host},
 * {@code explorer}), one class per package: {@code JavadocExamplesTest} fails when a
 * {@code <pre>} example in a public type's Javadoc does not occur, whitespace aside, in a class
 * here, so every example compiles as written. The book's blocks are in
 * {@code dev.orrery.examples.book}.
 */
package dev.orrery.examples.javadoc;
