package dev.orrery.ecs.structure;

import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.archetype.StructureLock;
import dev.orrery.ecs.prototype.NamedInstances;
import dev.orrery.ecs.storage.EntityTable;
import dev.orrery.ecs.storage.JobsRunning;
import dev.orrery.ecs.storage.ScheduleRunClaim;

/**
 * The parts of a world that only Orrery's own modules touch: the archetypes and their
 * chunks, the entity location table, the prototype index of instance names and the
 * structure lock. {@code World.storage()} hands it out; its package is exported only to
 * the scheduler and the engine, so user code (on the module path) cannot reach a chunk's
 * raw arrays round the declared-access checks of {@code ChunkView}, nor lock a world's
 * structure. Command playback and world snapshots use it from inside this module.
 *
 * <p><b>Threading:</b> as the world: used by the thread that owns the world. The scheduler
 * locks the structure on its calling thread before workers read chunks and unlocks it
 * after they have all finished.
 */
public final class WorldStorage {
    private final Archetypes archetypes;
    private final EntityTable entities;
    private final NamedInstances names;
    private final StructureLock lock;
    private final JobsRunning jobsRunning;
    private final SparseColumns sparse;
    private final ScheduleRunClaim scheduleRun = new ScheduleRunClaim();

    /** Groups the world's storage parts; called once by the world's constructor. */
    public WorldStorage(Archetypes archetypes, EntityTable entities, NamedInstances names, StructureLock lock,
            JobsRunning jobsRunning, SparseColumns sparse) {
        this.sparse = sparse;
        this.archetypes = archetypes;
        this.entities = entities;
        this.names = names;
        this.lock = lock;
        this.jobsRunning = jobsRunning;
    }

    /** The archetypes, the archetype graph and the component index. */
    public Archetypes archetypes() {
        return archetypes;
    }

    /** The entity location table (read-only use outside the world). */
    public EntityTable entityTable() {
        return entities;
    }

    /** The prototype index of instance names, kept current by every structural change (read-only use). */
    public NamedInstances namedInstances() {
        return names;
    }

    /** The sparse columns' sets (values of columns registered with {@code Storage.SPARSE}). */
    public SparseColumns sparse() {
        return sparse;
    }

    /** The structure lock that query iteration and the scheduler hold while chunks are read. */
    public StructureLock structureLock() {
        return lock;
    }

    /** The marker the scheduler sets while jobs run; the world's by-id writes refuse while it is set. */
    public JobsRunning jobsRunning() {
        return jobsRunning;
    }

    /**
     * The claim of the schedule run in progress over this world: an executor takes it at the
     * start of each run, so a second executor run on another thread at the same time is refused.
     * Unlike the rest of the storage, any thread may try it (see {@link ScheduleRunClaim}).
     */
    public ScheduleRunClaim scheduleRun() {
        return scheduleRun;
    }

    /**
     * Refuses structural changes until the matching {@link #unlockStructure}. Locks nest.
     * Called by query iteration and by the scheduler around parallel jobs.
     */
    public void lockStructure(String reason) {
        lock.lock(reason);
    }

    /**
     * Releases one {@link #lockStructure}.
     *
     * @throws IllegalStateException without a matching lock
     */
    public void unlockStructure() {
        lock.unlock();
    }
}
