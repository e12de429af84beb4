package dev.orrery.cluster.protocol;

/**
 * Where a world runs and how far it is, with what its last move cost.
 *
 * @param worldId the world
 * @param node the address of the node holding it ({@code pekko://system@host:port})
 * @param epoch the epoch of this incarnation
 * @param tick the next tick to run
 * @param stateHash the world's state hash now
 * @param held whether ticking is stopped ({@link dev.orrery.cluster.ClusterNode#hold})
 * @param snapshotTick the tick of the snapshot this incarnation started from (-1: none)
 * @param ticksReplayed journaled ticks this incarnation replayed when it opened
 * @param openMillis how long opening (restore and replay) took
 * @param resumedAtMillis wall-clock time ({@code System.currentTimeMillis()}) when it began ticking live
 */
public record WorldStatus(String worldId, String node, long epoch, long tick, long stateHash, boolean held,
        long snapshotTick, long ticksReplayed, double openMillis, long resumedAtMillis) implements WorldMessage {
}
