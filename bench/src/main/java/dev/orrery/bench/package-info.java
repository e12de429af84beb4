/**
 * JMH benchmarks and report mains. Build with {@code mvn -DskipTests package -pl bench -am};
 * run {@code java -jar bench/target/benchmarks.jar} for JMH, or a report main with
 * {@code java -cp bench/target/benchmarks.jar dev.orrery.bench.<Report>}.
 */
package dev.orrery.bench;
