package dev.orrery.examples.newcomer.forge;

import dev.orrery.engine.Simulation;

/** The forge for tests outside its package: a simulation per call, and its hook counts. */
public final class ForgeAccess {
    private final ForgeGame game = new ForgeGame();

    /**
     * A forge simulation.
     *
     * @param workers its workers
     * @param populate whether to spawn the ingots
     * @return the simulation
     */
    public Simulation create(int workers, boolean populate) {
        return game.create(workers, populate);
    }

    /** @return the hook counts of the last simulation made, as text */
    public String hooks() {
        return game.hooks.toString();
    }

    /**
     * {@code later - earlier}, count by count.
     *
     * @param later counts as {@link #hooks()} gives them
     * @param earlier counts as {@link #hooks()} gave them before
     * @return the difference, in the same form
     */
    public static String minus(String later, String earlier) {
        String[] l = later.split(" "), e = earlier.split(" ");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < l.length; i++) {
            String[] kl = l[i].split("="), ke = e[i].split("=");
            sb.append(i == 0 ? "" : " ").append(kl[0]).append('=').append(Long.parseLong(kl[1]) - Long.parseLong(ke[1]));
        }
        return sb.toString();
    }
}
