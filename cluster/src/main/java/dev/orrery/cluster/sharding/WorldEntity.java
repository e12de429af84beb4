package dev.orrery.cluster.sharding;

import dev.orrery.cluster.protocol.InputReply;
import dev.orrery.cluster.protocol.WorldStatus;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.cluster.world.FencedException;
import dev.orrery.cluster.world.RecoveryReport;
import dev.orrery.cluster.world.ReplayedTickFailure;
import dev.orrery.cluster.world.ResourcesLeftOut;
import dev.orrery.cluster.world.WorldBlueprint;
import dev.orrery.cluster.world.WorldRuntime;
import dev.orrery.cluster.world.WorldSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.PreRestart;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;

/**
 * The actor that runs one world on the node where Cluster Sharding placed it. On start it
 * opens the world ({@link WorldRuntime#open}: claim, restore, replay) and ticks it at a fixed
 * rate; inputs are offered to the world ({@link WorldRuntime#offer}) and answered in the
 * protocol's three words: accepted at tick N once that tick is durable (at once for a retry
 * of an input already applied), refused when it never will apply, unknown when the world
 * cannot say (it is moving, failed a tick, or is busy). The sharding stop message
 * ({@link #handOff()}) closes the world with a snapshot. When the actor stops any other way
 * (its node's actor system terminating, as in a crash) it abandons the world: the next node
 * restores the last periodic snapshot and replays the journal after it. A failure (the store
 * unreachable, a journal write failing) answers the waiting inputs unknown and restarts the
 * actor with back-off, which opens the world again; a start that fails after the world opened
 * (the log sink throwing) lets that incarnation go before the retry.
 *
 * <p>What it tells a person, through the node's log sink: where a world opened (fresh, or
 * restored from which snapshot with how many ticks replayed in how long), when it was handed
 * off, fenced, or failed. A world whose system fails in the replay of the tick that failed
 * under {@code FailurePolicy.STOP} fails so on every retry, on every node: its line names the
 * system, the tick and the fixes (the blueprint's system, or {@code SKIP_TICK}), not the store.
 *
 * <p><b>Threading:</b> an actor; see the package description. The log sink is called on
 * the actor's dispatcher thread.
 */
public final class WorldEntity extends AbstractBehavior<WorldCommand> {
    /** The sharded entity type of worlds. */
    public static final EntityTypeKey<WorldCommand> TYPE_KEY = EntityTypeKey.create(WorldCommand.class, "orrery-world");

    /** Local-only messages: never sent across nodes, so never serialized. */
    private enum Local implements WorldCommand {
        TICK, HAND_OFF
    }

    private static final System.Logger LOG = System.getLogger(WorldEntity.class.getName());

    private record Waiter(long clientId, long sequence, ActorRef<InputReply> replyTo) {
    }

    private final String worldId;
    private final WorldRuntime runtime;
    private final String node;
    private final long resumedAtMillis;
    private final Consumer<String> log;
    private final List<Waiter> waiting = new ArrayList<>();
    private boolean held;

    private WorldEntity(ActorContext<WorldCommand> context, WorldRuntime runtime, Consumer<String> log) {
        super(context);
        this.worldId = runtime.worldId();
        this.runtime = runtime;
        this.log = log;
        this.node = context.getSystem().address().toString();
        this.resumedAtMillis = System.currentTimeMillis();
        RecoveryReport r = runtime.recovery();
        if (r.snapshotTick() < 0 && r.ticksReplayed() == 0) {
            log.accept("world " + worldId + " started fresh here (epoch " + r.epoch() + ")");
        } else {
            List<String> rebuilt = r.snapshotTick() < 0 ? List.of() : ResourcesLeftOut.described(runtime.simulation());
            log.accept(String.format("world %s restored here at tick %d (epoch %d): %s, replayed %d journaled ticks; "
                    + "open took %.0f ms%s", worldId, r.resumeTick(), r.epoch(),
                    r.snapshotTick() < 0 ? "no snapshot" : "snapshot of tick " + r.snapshotTick(), r.ticksReplayed(),
                    r.openMillis(), rebuilt.isEmpty() ? "" : "; resources without a codec that systems write, rebuilt "
                    + "from the blueprint, not the snapshot: " + String.join(", ", rebuilt) + " (state a system keeps "
                    + "in one across ticks is lost on a move: give it a codec; one rebuilt every tick needs none)"));
        }
    }

    /**
     * The behaviour of world {@code worldId}: opens it from {@code store} with
     * {@code blueprint}, ticks every {@code tickPeriod}, snapshots and de-duplicates as
     * {@code settings} say, and tells {@code log} what a person running the node needs to
     * know; restarted with back-off on failure.
     *
     * @param worldId the world's id, the sharding entity id
     * @param store where the world's snapshots and journal live
     * @param blueprint builds the world's simulation
     * @param tickPeriod the time between ticks, at a fixed rate
     * @param settings how the world snapshots and de-duplicates
     * @param log receives the node's lines about this world; not null
     * @return the supervised behaviour, for Cluster Sharding's entity factory
     * @throws NullPointerException if {@code log} is null
     */
    public static Behavior<WorldCommand> create(String worldId, WorldStore store, WorldBlueprint blueprint,
            Duration tickPeriod, WorldSettings settings, Consumer<String> log) {
        Objects.requireNonNull(log, "log");
        Behavior<WorldCommand> open = Behaviors.setup(ctx -> Behaviors.withTimers((TimerScheduler<WorldCommand> timers) -> {
            WorldRuntime runtime;
            try {
                runtime = WorldRuntime.open(worldId, store, blueprint, settings);
            } catch (IOException | RuntimeException e) {
                log.accept(openFailure(worldId, e));
                LOG.log(System.Logger.Level.DEBUG, "world '" + worldId + "' failed to open", e);
                throw e;
            }
            try {
                timers.startTimerAtFixedRate(Local.TICK, Local.TICK, tickPeriod);
                return new WorldEntity(ctx, runtime, log);
            } catch (RuntimeException | Error e) { // no behaviour yet to get PostStop or PreRestart: let the world go
                runtime.abandon();
                throw e;
            }
        }));
        return Behaviors.supervise(open).onFailure(Exception.class,
                SupervisorStrategy.restartWithBackoff(Duration.ofMillis(100), Duration.ofSeconds(5), 0.2));
    }

    /**
     * The node's line for a world that failed to open. A system that fails in the replay of a
     * journaled tick fails so on every retry; the line names the system, the tick and the fix
     * (the store and the blueprint are not the trouble when the tick is the one that failed
     * under {@code STOP}), rather than sending the person to the store.
     */
    static String openFailure(String worldId, Throwable e) {
        Optional<String> replay = ReplayedTickFailure.explain(e);
        if (replay.isEmpty()) {
            return "world " + worldId + " failed to open here (" + e.getMessage() + "); it is retried with back-off; "
                    + "if it keeps failing, check the store and that every node runs the same blueprint";
        }
        Optional<ReplayedTickFailure> where = ReplayedTickFailure.in(e);
        if (where.isPresent() && !where.get().lastJournaled()) {
            return "world " + worldId + " failed to open here: " + replay.get() + "; it is retried with back-off and "
                    + "fails so on every retry until then";
        }
        return "world " + worldId + " cannot open here: " + replay.get() + "; until then it is retried with back-off "
                + "and fails the same way each time";
    }

    /**
     * The message Cluster Sharding sends a world it hands off (configure it as the entity's stop message).
     *
     * @return the same message on every call
     */
    public static WorldCommand handOff() {
        return Local.HAND_OFF;
    }

    @Override
    public Receive<WorldCommand> createReceive() {
        return newReceiveBuilder()
                .onMessageEquals(Local.TICK, this::onTick)
                .onMessage(SubmitInput.class, this::onInput)
                .onMessage(GetStatus.class, m -> reply(m.replyTo()))
                .onMessage(Hold.class, this::onHold)
                .onMessageEquals(Local.HAND_OFF, this::onHandOff)
                .onSignal(PostStop.class, s -> abandon())
                .onSignal(PreRestart.class, s -> abandon())
                .build();
    }

    private Behavior<WorldCommand> onInput(SubmitInput m) {
        WorldRuntime.Offer offer = runtime.offer(m.clientId(), m.sequence(), m.client(), m.type(), m.payload());
        switch (offer.verdict()) {
            case QUEUED -> waiting.add(new Waiter(m.clientId(), m.sequence(), m.replyTo()));
            case APPLIED -> m.replyTo().tell(InputReply.accepted(worldId, m.clientId(), m.sequence(), offer.tick(),
                    runtime.epoch()));
            case REFUSED -> m.replyTo().tell(InputReply.refused(worldId, m.clientId(), m.sequence(), runtime.epoch(),
                    offer.reason()));
            case BUSY -> m.replyTo().tell(InputReply.unknown(worldId, m.clientId(), m.sequence(), runtime.epoch(),
                    offer.reason()));
        }
        return this;
    }

    private Behavior<WorldCommand> onTick() {
        if (held) {
            return this;
        }
        long tick;
        try {
            tick = runtime.tick();
        } catch (RuntimeException | Error e) {
            log.accept("world " + worldId + " failed a tick here (" + e + "); it reopens from the store");
            LOG.log(System.Logger.Level.WARNING, "world '" + worldId + "' failed a tick on " + node, e);
            unknownAll("world '" + worldId + "' failed a tick on " + node + " (" + e + ") and reopens");
            throw e;
        } catch (FencedException e) {
            log.accept("world " + worldId + ": " + e.getMessage());
            unknownAll(e.getMessage());
            runtime.abandon();
            return Behaviors.stopped();
        } catch (IOException e) {
            log.accept("world " + worldId + " failed to store a tick here (" + e.getMessage() + "); it reopens from "
                    + "the store; check that the store is reachable and has room");
            unknownAll("world '" + worldId + "' failed to store a tick on " + node + " (" + e.getMessage()
                    + ") and reopens");
            throw new UncheckedIOException(e);
        }
        for (Waiter w : waiting) {
            w.replyTo().tell(InputReply.accepted(worldId, w.clientId(), w.sequence(), tick, runtime.epoch()));
        }
        waiting.clear();
        return this;
    }

    private Behavior<WorldCommand> onHold(Hold m) {
        held = m.hold();
        return reply(m.replyTo());
    }

    private Behavior<WorldCommand> reply(ActorRef<WorldStatus> to) {
        RecoveryReport r = runtime.recovery();
        to.tell(new WorldStatus(worldId, node, runtime.epoch(), runtime.currentTick(), runtime.stateHash(), held,
                r.snapshotTick(), r.ticksReplayed(), r.openMillis(), resumedAtMillis));
        return this;
    }

    private Behavior<WorldCommand> onHandOff() {
        unknownAll("world '" + worldId + "' is moving off " + node);
        long tick = runtime.currentTick();
        try {
            runtime.close();
            log.accept("world " + worldId + " handed off from here at tick " + tick + " with a snapshot (a rebalance "
                    + "or this node leaving); whichever node opens it next replays nothing");
        } catch (IOException | RuntimeException e) { // a fenced holder, a store or a codec failing: not a restart here
            log.accept("world " + worldId + " could not hand over cleanly (" + e.getMessage() + "); its next node "
                    + "replays its journal from the last snapshot");
            runtime.abandon();
        }
        return Behaviors.stopped();
    }

    private Behavior<WorldCommand> abandon() {
        unknownAll("world '" + worldId + "' stopped on " + node);
        runtime.abandon();
        return this;
    }

    /** Answers every waiting input unknown: it was not acknowledged, and a retry with its sequence resolves it. */
    private void unknownAll(String why) {
        for (Waiter w : waiting) {
            w.replyTo().tell(InputReply.unknown(worldId, w.clientId(), w.sequence(), runtime.epoch(), why));
        }
        waiting.clear();
    }
}
