package dev.orrery.demo.run;

import dev.orrery.demo.arena.Arena;
import dev.orrery.demo.arena.InputCodec;
import dev.orrery.demo.net.ClientCommand;
import dev.orrery.demo.net.ClientCommandSink;
import dev.orrery.demo.net.ClientReplies;
import dev.orrery.engine.input.InputPipeline;
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
 * <p><b>Threading:</b> {@link #offer} is called by the server's selector thread only (so
 * the encoding buffer has one user); {@link #answerGets} by the tick thread;
 * {@link #acceptedCount} by any thread. The GET queue is lock-free and its adding
 * happens-before the tick thread's poll.
 */
public final class CommandInputs implements ClientCommandSink {
    /** The most {@code GET}s waiting at once; more are answered {@code BUSY}. */
    public static final int MAX_PENDING_GETS = 4096;

    private final InputPipeline pipeline;
    private final byte[] buffer = new byte[InputCodec.MAX_PAYLOAD];
    private final ConcurrentLinkedQueue<ClientCommand.GetProperty> gets = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pendingGets = new AtomicInteger();
    private final AtomicLong accepted = new AtomicLong();

    /** A sink feeding {@code pipeline}. */
    public CommandInputs(InputPipeline pipeline) {
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
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
