package dev.orrery.engine;

import dev.orrery.ecs.SnapshotException;
import dev.orrery.ecs.SnapshotInput;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The snapshot section ({@value #NAME}) naming the systems of the schedule that took it, so
 * that a restore into a simulation with other systems is refused rather than run.
 *
 * <p>A snapshot carries state per system, by the system's name: the world's change section
 * holds each system's last-run tick (what its {@code changed} and {@code added} filters compare
 * against) and each event channel holds the position of every system reading it. Restored into
 * a schedule where a system has another name, or that has a system the snapshot does not, that
 * system finds no state of its own: it sees every chunk as changed and reads the channels'
 * events again, and the restored run diverges from the uninterrupted one without a word. The
 * state of a system the restoring schedule lacks is carried for nothing. So the restore checks
 * that both schedules have the same systems, by name (their order is the schedule's own, which
 * the code that builds it decides; a different order of the same systems carries every state).
 *
 * <p><b>Layout</b> (big-endian, part of the simulation snapshot format): {@code int count}, then
 * {@code count} UTF names in the schedule's graph order, none twice. Snapshots written before
 * this section existed have none; they restore unchecked, as they did.
 *
 * <p><b>Threading:</b> stateless; used on the tick thread between ticks.
 */
final class SystemsSection {
    /** The section's name among the snapshot's extras. */
    static final String NAME = "orrery.systems";
    /** How many names of each side a refusal lists. */
    private static final int SHOWN = 10;

    private SystemsSection() {
    }

    /** The section naming {@code systems}. */
    static byte[] write(List<String> systems) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(systems.size());
            for (String s : systems) {
                out.writeUTF(s);
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array stream does not fail
        }
    }

    /**
     * Checks that {@code section} (null: a snapshot written before the section existed, let
     * through) names the same systems as {@code own}, the restoring schedule's.
     *
     * @throws SnapshotException for a section that does not parse (naming the offset), or whose
     *     systems are not these, naming the systems each side lacks and the fix
     */
    static void check(byte[] section, List<String> own) {
        if (section == null) {
            return;
        }
        SnapshotInput in = SnapshotInput.of(NAME, section);
        Set<String> taken = new LinkedHashSet<>();
        try {
            int n = in.readCount("system", 2, Integer.MAX_VALUE);
            for (int i = 0; i < n; i++) {
                int at = in.position();
                String name = in.readUTF();
                if (!taken.add(name)) {
                    throw in.corruptAt(at, "system " + SnapshotInput.quote(name) + " is named twice");
                }
            }
            in.requireEnd();
        } catch (IOException e) {
            throw new SnapshotException(e.getMessage(), e); // the input's own: names the section and the offset
        }
        Set<String> ours = new HashSet<>(own);
        List<String> notHere = new ArrayList<>();
        for (String s : taken) {
            if (!ours.contains(s)) {
                notHere.add(s);
            }
        }
        List<String> notThere = new ArrayList<>();
        for (String s : own) {
            if (!taken.contains(s)) {
                notThere.add(s);
            }
        }
        if (notHere.isEmpty() && notThere.isEmpty()) {
            return;
        }
        List<String> sides = new ArrayList<>();
        if (!notHere.isEmpty()) {
            sides.add("this simulation has no " + systems(notHere) + " of the snapshot's");
        }
        if (!notThere.isEmpty()) {
            sides.add("the snapshot has no " + systems(notThere) + " of this simulation's");
        }
        throw in.refuseAt(0, "the snapshot was taken by a simulation with other systems: " + String.join(", and ", sides)
                + ". A snapshot carries each system's state by its name (the tick it last ran, which its changed "
                + "and added filters compare against, and how far it has read each event channel), so a restored "
                + "run would lose it and diverge without a word. Restore into a simulation built with the same "
                + "systems as the one that took it; a renamed, added or removed system makes a new version of the "
                + "simulation, whose runs start afresh or from snapshots it took itself (snapshots of the old version "
                + "are not migrated)");
    }

    /** "system 'a'" or "systems 'a', 'b'", at most {@value #SHOWN} names and how many more. */
    private static String systems(List<String> names) {
        StringBuilder b = new StringBuilder(names.size() == 1 ? "system " : "systems ");
        for (int i = 0; i < Math.min(names.size(), SHOWN); i++) {
            b.append(i > 0 ? ", " : "").append(SnapshotInput.quote(names.get(i)));
        }
        if (names.size() > SHOWN) {
            b.append(" and ").append(names.size() - SHOWN).append(" more");
        }
        return b.toString();
    }
}
