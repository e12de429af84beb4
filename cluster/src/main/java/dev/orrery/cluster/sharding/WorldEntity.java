package dev.orrery.cluster.sharding;

import dev.orrery.cluster.protocol.GetStatus;
import dev.orrery.cluster.protocol.Hold;
import dev.orrery.cluster.protocol.InputReply;
import dev.orrery.cluster.protocol.SubmitInput;
import dev.orrery.cluster.protocol.WorldCommand;
import dev.orrery.cluster.protocol.WorldStatus;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.cluster.world.FencedException;
import dev.orrery.cluster.world.RecoveryReport;
import dev.orrery.cluster.world.WorldBlueprint;
import dev.orrery.cluster.world.WorldRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * rate; inputs go into the next tick and are answered after the tick is durable; the
 * sharding stop message ({@link #handOff()}) closes the world with a snapshot. When the
 * actor stops any other way (its node's actor system terminating, as in a crash) it
 * abandons the world: the next node restores the last periodic snapshot and replays the
 * journal after it. A failure (the store unreachable, a journal write failing) refuses the
 * waiting inputs and restarts the actor with back-off, which opens the world again.
 *
 * <p><b>Threading:</b> an actor; see the package description.
 */
public final class WorldEntity extends AbstractBehavior<WorldCommand> {
    /** The sharded entity type of worlds. */
    public static final EntityTypeKey<WorldCommand> TYPE_KEY = EntityTypeKey.create(WorldCommand.class, "orrery-world");

    /** Local-only messages: never sent across nodes, so never serialized. */
    private enum Local implements WorldCommand {
        TICK, HAND_OFF
    }

    private static final System.Logger LOG = System.getLogger(WorldEntity.class.getName());

    private record Waiter(ActorRef<InputReply> replyTo) {
    }

    private final String worldId;
    private final WorldRuntime runtime;
    private final String node;
    private final long resumedAtMillis;
    private final List<Waiter> waiting = new ArrayList<>();
    private boolean held;

    private WorldEntity(ActorContext<WorldCommand> context, WorldRuntime runtime) {
        super(context);
        this.worldId = runtime.worldId();
        this.runtime = runtime;
        this.node = context.getSystem().address().toString();
        this.resumedAtMillis = System.currentTimeMillis();
        RecoveryReport r = runtime.recovery();
        LOG.log(System.Logger.Level.DEBUG, () -> "world " + worldId + " epoch " + r.epoch() + " opened on " + node
                + " at tick " + r.resumeTick() + " from snapshot " + r.snapshotTick() + " after replaying "
                + r.ticksReplayed() + " ticks in " + r.openMillis() + " ms");
    }

    /**
     * The behaviour of world {@code worldId}: opens it from {@code store} with
     * {@code blueprint}, ticks every {@code tickPeriod}, snapshots every
     * {@code snapshotEvery} ticks; restarted with back-off on failure.
     */
    public static Behavior<WorldCommand> create(String worldId, WorldStore store, WorldBlueprint blueprint,
            Duration tickPeriod, int snapshotEvery) {
        Behavior<WorldCommand> open = Behaviors.setup(ctx -> Behaviors.withTimers((TimerScheduler<WorldCommand> timers) -> {
            WorldRuntime runtime;
            try {
                runtime = WorldRuntime.open(worldId, store, blueprint, snapshotEvery);
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "world '" + worldId + "' failed to open on "
                        + ctx.getSystem().address() + " (it is retried with back-off): " + e, e);
                throw e;
            }
            timers.startTimerAtFixedRate(Local.TICK, Local.TICK, tickPeriod);
            return new WorldEntity(ctx, runtime);
        }));
        return Behaviors.supervise(open).onFailure(Exception.class,
                SupervisorStrategy.restartWithBackoff(Duration.ofMillis(100), Duration.ofSeconds(5), 0.2));
    }

    /** The message Cluster Sharding sends a world it hands off (configure it as the entity's stop message). */
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
        runtime.offer(m.client(), m.type(), m.payload());
        waiting.add(new Waiter(m.replyTo()));
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
            LOG.log(System.Logger.Level.WARNING, "world '" + worldId + "' failed a tick on " + node + ": " + e, e);
            refuseAll("world '" + worldId + "' failed on " + node + " (" + e + "); send the input again");
            throw e;
        } catch (FencedException e) {
            refuseAll(e.getMessage());
            LOG.log(System.Logger.Level.WARNING, e.getMessage());
            runtime.abandon();
            return Behaviors.stopped();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "world '" + worldId + "' failed to journal a tick on " + node + ": " + e, e);
            refuseAll("world '" + worldId + "' failed to journal a tick on " + node + " (" + e.getMessage()
                    + "); it restarts, send the input again");
            throw new UncheckedIOException(e);
        }
        for (int i = 0; i < waiting.size(); i++) {
            waiting.get(i).replyTo().tell(InputReply.accepted(worldId, tick, i, runtime.epoch()));
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
        refuseAll("world '" + worldId + "' is moving off " + node + "; send the input again");
        try {
            runtime.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "world '" + worldId + "' could not hand over cleanly (" + e.getMessage()
                    + "); its next node replays its journal from the last snapshot");
            runtime.abandon();
        }
        return Behaviors.stopped();
    }

    private Behavior<WorldCommand> abandon() {
        refuseAll("world '" + worldId + "' stopped on " + node + "; send the input again");
        runtime.abandon();
        return this;
    }

    private void refuseAll(String why) {
        for (Waiter w : waiting) {
            w.replyTo().tell(InputReply.refused(worldId, runtime.epoch(), why));
        }
        waiting.clear();
    }
}
