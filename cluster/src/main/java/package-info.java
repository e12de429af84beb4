/*
 * The source root of the orrery-cluster module. The unnamed package holds no types (Java allows no
 * package declaration here, so this is a plain comment, and the build leaves it out of
 * compilation); module-info.java beside it carries the Javadoc and the export list.
 *
 * What it holds: worlds across machines. dev.orrery.cluster is the node (ClusterNode,
 * NodeSettings, WorldClient); cluster.protocol the replies a world sends a client;
 * cluster.world a world's incarnation (claim, restore, replay, durable ticks, the resources a
 * move leaves out); cluster.store the snapshots, journals and epochs behind WorldStore; and,
 * not exported, cluster.sharding the world entity actor, its commands and the protocol's
 * serializer (the only place Pekko's types show in a public signature).
 *
 * Neighbours: it depends on orrery-engine and Apache Pekko (Cluster Sharding, typed); the demo
 * runs it with --cluster.
 */
