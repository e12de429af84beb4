package dev.orrery.ecs;

/**
 * What happens to the pairs {@code (R, t)} when their target {@code t} is despawned, per
 * relation {@code R}. Applied inside the despawn (a direct call or a command buffer's, at its
 * place in playback order), so no pair ever names a dead target.
 */
public enum Cleanup {
    /** The pair is removed from each holder, which lives on (Flecs' {@code OnDeleteTarget, Remove}). */
    REMOVE_PAIR,
    /**
     * Each holder is despawned too, and so on down (Flecs' {@code OnDeleteTarget, Delete};
     * {@code ChildOf}'s rule: despawning a parent despawns its descendants).
     */
    DESPAWN_HOLDER
}
