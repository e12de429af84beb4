package dev.orrery.bench.entityindex;

import dev.orrery.ecs.hash.NameHash;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The synthetic composition set of the Stingray entity-index test: 75 compositions of 1 to
 * 11 named component instances drawn from 20 names over 11 component types, several names
 * sharing a type (Fog, Vignette and Bloom are all RenderData). As in the article, the
 * index is told each instance's name and its component manager (the type), so Fog and
 * Vignette share a manager and differ by name. Each composition lists its names in one
 * fixed global order, as an entity resource would, so compositions share chain prefixes.
 */
final class EntityIndexWorkload {
    /** Instance names and the index of their component type in {@link #TYPES}. */
    static final String[] NAMES = {
        "Transform", "Mesh", "Lod", "Fog", "Vignette", "Bloom", "Body", "Collider", "Footsteps", "Voice",
        "Key", "Fill", "Anim", "OnHit", "OnSpawn", "Smoke", "Sparks", "Sync", "Brain", "Trigger"};
    static final String[] TYPES = {
        "Transform", "Mesh", "RenderData", "Physics", "Audio", "Light", "Animation", "Script", "Particle", "Network",
        "AI"};
    static final int[] TYPE_OF = {0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 7, 8, 8, 9, 10, 3};
    static final int COMPOSITIONS = 75;

    /** The manager (component type index) of each name. */
    final int[] nameColumns = new int[NAMES.length];
    /** Name hashes, one per name. */
    final int[] nameHashes = new int[NAMES.length];
    /** Per composition, the managers in registration order. */
    final int[][] columns = new int[COMPOSITIONS][];
    /** Per composition, the name hashes in registration order. */
    final int[][] names = new int[COMPOSITIONS][];

    EntityIndexWorkload(long seed) {
        for (int i = 0; i < NAMES.length; i++) {
            nameColumns[i] = TYPE_OF[i];
            nameHashes[i] = NameHash.of(NAMES[i]);
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int c = 0; c < COMPOSITIONS; c++) {
            int size = 1 + c % 11;
            boolean[] pick = new boolean[NAMES.length];
            pick[0] = rnd.nextInt(4) != 0; // most entities start with a Transform
            int picked = pick[0] ? 1 : 0;
            while (picked < size) {
                int n = 1 + rnd.nextInt(NAMES.length - 1);
                if (!pick[n]) {
                    pick[n] = true;
                    picked++;
                }
            }
            List<Integer> order = new ArrayList<>();
            for (int n = 0; n < NAMES.length; n++) {
                if (pick[n]) {
                    order.add(n);
                }
            }
            columns[c] = new int[size];
            names[c] = new int[size];
            for (int k = 0; k < size; k++) {
                columns[c][k] = nameColumns[order.get(k)];
                names[c][k] = nameHashes[order.get(k)];
            }
        }
    }

    /** Number of distinct non-empty chain prefixes over all compositions: the prototypes they need. */
    int distinctPrefixes() {
        java.util.Set<List<Integer>> prefixes = new java.util.HashSet<>();
        for (int c = 0; c < COMPOSITIONS; c++) {
            List<Integer> p = new ArrayList<>();
            for (int k = 0; k < names[c].length; k++) {
                p.add(columns[c][k]);
                p.add(names[c][k]);
                prefixes.add(new ArrayList<>(p));
            }
        }
        return prefixes.size();
    }
}
