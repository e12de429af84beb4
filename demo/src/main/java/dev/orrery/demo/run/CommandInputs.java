package dev.orrery.demo.run;

import dev.orrery.demo.arena.Arena;
import dev.orrery.demo.arena.ClientWrites;
import dev.orrery.demo.arena.InputCodec;
import dev.orrery.demo.net.ClientCommand;
import dev.orrery.demo.net.ClientCommandSink;
import dev.orrery.demo.net.ClientReplies;
import dev.orrery.demo.net.ErrorCode;
import dev.orrery.demo.net.Refusal;
import dev.orrery.engine.InputPipeline;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bridge from the network to the simulation. Commands that change the world
 * ({@code MOVE}, {@code SPAWN}, {@code SET}) are encoded by {@link InputCodec} into the
 * engine's {@link InputPipeline}, so a recording journals them and a replay feeds them
 * back; a full ring refuses the command and the server answers {@code BUSY}. {@code GET}s
 * change nothing: they wait in a bounded queue and the tick thread answers them between
 * ticks ({@link #answerGets}).
 *
 * <p>It is also the boundary's check ({@link #check}): a {@code SET} of a field the arena's
 * {@link ClientWrites} does not allow is refused before it takes room in the ring or the
 * journal (its value is checked by the simulation against the world's field rules); a {@code SPAWN} that would take the world past its
 * entity cap is refused {@code QUOTA}. The cap counts the entities alive after the last tick
 * plus the agents of every {@code SPAWN} taken and not yet applied, so an {@code OK} is never
 * followed by a dropped wave.
 *
 * <p><b>Threading:</b> {@link #check} and {@link #offer} are called by the server's
 * selector thread only (so the encoding buffer and the spawn reservations have one writer);
 * {@link #answerGets} and {@link #ticked} by the tick thread; {@link #acceptedCount} by any
 * thread. The GET queue is lock-free and its adding happens-before the tick thread's poll.
 * {@link #ticked} publishes the entity count before the applied spawns (both volatile) and
 * {@link #check} reads them in the other order, so a check never counts a wave twice as
 * applied and over-counts at worst.
 */
public final class CommandInputs implements ClientCommandSink {
    /** The most {@code GET}s waiting at once; more are answered {@code BUSY}. */
    public static final int MAX_PENDING_GETS = 4096;

    private final InputPipeline pipeline;
    private final byte[] buffer = new byte[InputCodec.MAX_PAYLOAD];
    private final ConcurrentLinkedQueue<ClientCommand.GetProperty> gets = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pendingGets = new AtomicInteger();
    private final AtomicLong accepted = new AtomicLong();
    private final ClientWrites writes;
    private final long maxEntities;
    /** Agents of every SPAWN taken; selector thread. */
    private long spawnsTaken;
    /** Agents of client SPAWNs applied so far and entities alive, as of the last tick; tick thread writes. */
    private volatile long spawnsApplied;
    private volatile long entities;

    /**
     * A sink feeding {@code pipeline}.
     *
     * @param writes      the fields clients may {@code SET}
     * @param entities    entities alive now (before the first tick)
     * @param maxEntities the world's entity cap: a {@code SPAWN} that could pass it is refused
     */
    public CommandInputs(InputPipeline pipeline, ClientWrites writes, long entities, long maxEntities) {
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        this.writes = Objects.requireNonNull(writes, "writes");
        this.entities = entities;
        this.maxEntities = maxEntities;
    }

    @Override
    public Refusal check(ClientCommand command) {
        if (command instanceof ClientCommand.SetProperty set) {
            return writes.check(set.component(), set.field());
        }
        if (command instanceof ClientCommand.SpawnWave spawn) {
            long queued = spawnsTaken - spawnsApplied; // read applied first: see the class comment
            long expected = entities + queued;
            if (expected + spawn.count() > maxEntities) {
                return new Refusal(ErrorCode.QUOTA, "the world holds about " + expected + " entities and its cap is "
                        + maxEntities + "; a wave of " + spawn.count()
                        + " does not fit, so spawn fewer or ask the operator to raise --max-entities");
            }
        }
        return null;
    }

    /**
     * Tells the boundary where the world stands after a tick: the entities alive and the
     * agents client {@code SPAWN}s have added so far. Tick thread, between ticks.
     */
    public void ticked(long entitiesAlive, long clientSpawnsApplied) {
        entities = entitiesAlive;
        spawnsApplied = clientSpawnsApplied;
    }

    @Override
    public boolean offer(ClientCommand command) {
        if (command instanceof ClientCommand.GetProperty get) {
            if (pendingGets.incrementAndGet() > MAX_PENDING_GETS) {
                pendingGets.decrementAndGet();
                return false;
            }
            gets.add(get);
            accepted.incrementAndGet();
            return true;
        }
        int length = InputCodec.encode(command, buffer);
        boolean ok = pipeline.tryPublish((int) command.clientId(), InputCodec.typeOf(command), buffer, 0, length);
        if (ok) {
            accepted.incrementAndGet();
            if (command instanceof ClientCommand.SpawnWave spawn) {
                spawnsTaken += spawn.count();
            }
        }
        return ok;
    }

    /** Answers every waiting {@code GET} from the arena's current world. Tick thread, between ticks. */
    public void answerGets(Arena arena, ClientReplies replies) {
        ClientCommand.GetProperty get;
        while ((get = gets.poll()) != null) {
            pendingGets.decrementAndGet();
            arena.answer(get, replies);
        }
    }

    /** Commands taken so far (all kinds). */
    public long acceptedCount() {
        return accepted.get();
    }
}
