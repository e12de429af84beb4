package dev.orrery.testkit;

/**
 * What a diagnosis of a difference found, for a {@link DeterminismFailure}: the system it
 * names ({@code null} when it could not tell), the report's line that says how, and the likely
 * cause when the diagnosis found one that replaces the line the failing run's kind gives
 * ({@code null}: that line stands, see {@link LikelyCause}).
 */
record Diagnosis(String system, String text, String cause) {
    /** A diagnosis that leaves the likely cause to the kind of run that differed. */
    Diagnosis(String system, String text) {
        this(system, text, null);
    }
}
