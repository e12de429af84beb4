package dev.orrery.testkit;

/**
 * What a diagnosis of a difference found, for a {@link DeterminismFailure}: the system it
 * names ({@code null} when it could not tell) and the report's line that says how.
 */
record Diagnosis(String system, String text) {
}
