package dev.orrery.cluster;

import java.util.function.Consumer;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * Tells a node's log sink what happens to members, in words a person running the node can
 * act on (the system actor {@link ClusterNode#start} starts).
 *
 * <p><b>Threading:</b> an actor: its behaviour runs on Pekko's threads, one message at a time,
 * and calls the sink there.
 */
final class MemberLog {
    private MemberLog() {
    }

    static Behavior<ClusterEvent.ClusterDomainEvent> create(Consumer<String> log, NodeSettings s) {
        NodeSettings.Failover f = s.failover();
        return Behaviors.setup(ctx -> {
            Cluster cluster = Cluster.get(ctx.getSystem());
            cluster.subscriptions().tell(Subscribe.create(ctx.getSelf(), ClusterEvent.ClusterDomainEvent.class));
            Address self = cluster.selfMember().address();
            java.util.Set<Address> up = new java.util.HashSet<>();
            return Behaviors.receive(ClusterEvent.ClusterDomainEvent.class)
                    .onMessage(ClusterEvent.MemberUp.class, e -> {
                        up.add(e.member().address());
                        log.accept("member " + hostPort(e.member()) + " is up" + (e.member().address().equals(self)
                                ? " (this node)" : "") + "; " + up.size() + " up");
                        return Behaviors.same();
                    })
                    .onMessage(ClusterEvent.UnreachableMember.class, e -> {
                        log.accept("member " + hostPort(e.member()) + " is unreachable (no heartbeat for "
                                + f.acceptablePause().plus(f.heartbeatInterval()).toMillis() + " ms); if the cluster's view stays the same for "
                                + f.stableAfter().toMillis() + " ms the split-brain resolver downs it and its worlds "
                                + "reopen on the others; if it is alive, check its network and load");
                        return Behaviors.same();
                    })
                    .onMessage(ClusterEvent.ReachableMember.class, e -> {
                        log.accept("member " + hostPort(e.member()) + " is reachable again");
                        return Behaviors.same();
                    })
                    .onMessage(ClusterEvent.MemberDowned.class, e -> {
                        up.remove(e.member().address());
                        log.accept(e.member().address().equals(self)
                                ? "this node was downed (the others could not reach it): it stops, its worlds "
                                + "reopen on the others; restart it to rejoin"
                                : "member " + hostPort(e.member()) + " was downed: its worlds reopen on the "
                                + "others from their last snapshot and journal, after "
                                + f.removalMargin().toMillis() + " ms");
                        return Behaviors.same();
                    })
                    .onMessage(ClusterEvent.MemberLeft.class, e -> {
                        up.remove(e.member().address());
                        log.accept("member " + hostPort(e.member()) + " is leaving: its worlds are handed off "
                                + "with a snapshot");
                        return Behaviors.same();
                    })
                    .onMessage(ClusterEvent.MemberRemoved.class, e -> {
                        boolean leaving = !up.contains(self); // this node's own leave empties its view: no news
                        up.remove(e.member().address());
                        if (e.member().address().equals(self) || leaving) {
                            return Behaviors.same();
                        }
                        log.accept("member " + hostPort(e.member()) + " removed; " + up.size() + " up"
                                + (up.size() < 3 && up.contains(self) ? " (fewer than 3: with keep-majority one more "
                                + "crash may stop the cluster; start another node)" : ""));
                        return Behaviors.same();
                    })
                    .onAnyMessage(e -> Behaviors.same())
                    .build();
        });
    }

    private static String hostPort(Member m) {
        return m.address().getHost().orElse("?") + ":" + m.address().getPort().orElse(0);
    }
}
