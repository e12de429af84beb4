/*
 * The source root of the orrery-cluster module. The unnamed package holds no types (Java allows no
 * package declaration here, so this is a plain comment, and the build leaves it out of
 * compilation); module-info.java beside it carries the Javadoc and the export list.
 *
 * What it holds: worlds across machines. dev.orrery.cluster is the node (ClusterNode,
 * NodeSettings, WorldClient); cluster.sharding the world entity actor; cluster.protocol its
 * messages and serializer; cluster.world a world's incarnation (claim, restore, replay, durable
 * ticks, the resources a move leaves out); cluster.store the snapshots, journals and epochs
 * behind WorldStore.
 *
 * Neighbours: it depends on orrery-engine and Apache Pekko (Cluster Sharding, typed); the demo
 * runs it with --cluster.
 */
