package dev.orrery.demo.arena;

import dev.orrery.engine.ResourceCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Running totals for the {@code STATE} summary: hits, misses and kills since the run began.
 * Carried in snapshots (by {@code Arena}'s codec for {@link Arena#STATS}), so a world restored
 * from one, or moved to another node of a cluster, goes on counting from where it was.
 *
 * <p><b>Threading:</b> written by exclusive systems on the tick thread and read on the tick
 * thread between ticks.
 */
public final class ArenaStats {
    /**
     * How {@link Arena#STATS} is written to and read from snapshots: {@code long hits | long misses |
     * long kills | long deaths | long spawnedByClients}. A restore puts a new value under the
     * key; the arena reads the totals through the key ({@link Arena#stats()}), never a copy kept aside.
     */
    static final ResourceCodec<ArenaStats> CODEC = new ResourceCodec<>() {
        @Override
        public void write(ArenaStats s, DataOutput out) throws IOException {
            out.writeLong(s.hits);
            out.writeLong(s.misses);
            out.writeLong(s.kills);
            out.writeLong(s.deaths);
            out.writeLong(s.spawnedByClients);
        }

        @Override
        public ArenaStats read(DataInput in) throws IOException {
            ArenaStats s = new ArenaStats();
            s.hits = in.readLong();
            s.misses = in.readLong();
            s.kills = in.readLong();
            s.deaths = in.readLong();
            s.spawnedByClients = in.readLong();
            return s;
        }
    };

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
