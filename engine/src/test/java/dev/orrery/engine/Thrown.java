package dev.orrery.engine;

/** What a call threw, for tests that assert on a refusal and on what ran after it. */
final class Thrown {
    private Thrown() {
    }

    /** Runs {@code r} and returns what it threw, or null when it returned. */
    static Throwable caught(Runnable r) {
        try {
            r.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }
}
