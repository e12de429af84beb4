/*
 * The source root of the orrery-cluster module (the unnamed package holds no types: Java
 * allows no package declaration here, so this is a plain comment; module-info.java beside it
 * carries the Javadoc and the export list).
 *
 * What it holds: worlds across machines. cluster is the node (ClusterNode, NodeSettings);
 * cluster.sharding the world entity actor; cluster.protocol its messages and serializer;
 * cluster.world a world's incarnation (open: claim, restore, replay; durable ticks; the
 * history rules); cluster.store the snapshots, journals and epochs behind WorldStore.
 *
 * Neighbours: it depends on orrery-engine and Apache Pekko (Cluster Sharding, typed); the
 * demo runs it with --cluster.
 */
