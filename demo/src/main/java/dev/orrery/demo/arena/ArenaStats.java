package dev.orrery.demo.arena;

/**
 * Running totals for the {@code STATE} summary: hits, misses and kills since the start of
 * this process (not carried in snapshots; they describe the run, not the world).
 *
 * <p><b>Threading:</b> written by exclusive systems on the tick thread and read on the tick
 * thread between ticks.
 */
public final class ArenaStats {
    long hits;
    long misses;
    long kills;
    long deaths;
    long spawnedByClients;

    /** Projectiles that hit an agent. */
    public long hits() {
        return hits;
    }

    /** Projectiles that landed with no enemy near. */
    public long misses() {
        return misses;
    }

    /** Agents killed (each replaced by a fresh one). */
    public long kills() {
        return kills;
    }

    /**
     * Agents that left the world, counted by an observer on {@code Agent} despawns (fired at
     * the sync point that applies reap's despawns). Without client writes to health it
     * equals {@link #kills()} after every tick.
     */
    public long deaths() {
        return deaths;
    }

    /** Agents added by clients' {@code SPAWN} commands. */
    public long spawnedByClients() {
        return spawnedByClients;
    }

    /** The totals in one line (the explorer shows it as the resource's value). */
    @Override
    public String toString() {
        return "hits=" + hits + " misses=" + misses + " kills=" + kills + " deaths=" + deaths + " spawnedByClients="
                + spawnedByClients;
    }
}
