package dev.orrery.surface;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.module.FindException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * One test body for every Orrery library module: what it exports to everyone and to whom it
 * exports the rest, that no exported member names a type its users cannot see, and that the
 * whole public surface matches the module's {@code public-api.txt}, that no exported member names
 * a library's type outside the packages kept on purpose, and that every type and member of that
 * surface has a doc comment in the sources.
 *
 * <p>A module's test extends this and names a class of its main code, its packages and its
 * qualified exports. Changing any of them, or adding, removing or retyping a public member,
 * must be a deliberate change: the pinned surface is rewritten by running the module's tests
 * with {@code -Dorrery.api.update=true}, and the difference is reviewed with the change.
 */
public abstract class ModuleSurfaceContract {
    /** The property that rewrites {@code public-api.txt} from the compiled classes instead of comparing. */
    public static final String UPDATE_PROPERTY = "orrery.api.update";

    /** A class of the module's main code. */
    protected abstract Class<?> anchor();

    /** The packages the module exports to everyone. */
    protected abstract Set<String> exportedToAll();

    /** The packages the module exports only to named modules, with those modules. */
    protected abstract Map<String, Set<String>> qualifiedExports();

    /**
     * The exported packages whose public signatures name a library's types on purpose (an
     * extension point where users deliberately work with the library), each with the reason in
     * its {@code package-info}; none by default. Everywhere else an Orrery or JDK type serves.
     */
    protected Set<String> packagesNamingLibraryTypesOnPurpose() {
        return Set.of();
    }

    @Test
    void shouldExportOnlyTheFacadeToEveryone() {
        ExportedSurface s = ExportedSurface.of(anchor());
        assertEquals(new TreeSet<>(exportedToAll()), s.exportedToAll(), s.name() + ": packages exported to everyone");
        assertEquals(new TreeMap<>(qualifiedExports()), s.qualifiedExports(),
                s.name() + ": internal packages and the Orrery modules they are exported to");
    }

    /**
     * The module's classes folder is itself a module: what an IDE, or a build that puts
     * another module's build output on the module path, reads. A class in the unnamed package
     * (even a {@code package-info.class} compiled from a comment-only source-root file) makes
     * the JDK refuse it ("unnamed package not allowed in module").
     */
    @Test
    void shouldBeReadableAsAModuleFromItsClassesFolder() {
        ExportedSurface s = ExportedSurface.of(anchor());
        Set<ModuleReference> found;
        try {
            found = ModuleFinder.of(s.classes()).findAll();
        } catch (FindException e) {
            throw new AssertionError(s.name() + ": " + s.classes() + " is not readable as a module: " + e.getMessage()
                    + (e.getCause() == null ? "" : " (" + e.getCause().getMessage() + ")"), e);
        }
        assertEquals(List.of(s.name()), found.stream().map(r -> r.descriptor().name()).collect(Collectors.toList()),
                s.classes() + " read as a module");
    }

    @Test
    void shouldNameOnlyTypesItsUsersCanSee() {
        ExportedSurface s = ExportedSurface.of(anchor());
        List<String> leaks = s.leaks();
        if (!leaks.isEmpty()) {
            fail(s.name() + ": " + leaks.size() + " public members of exported types name types a user of the module "
                    + "cannot see; make the member package-private, move it to an internal type, or export the type:\n  "
                    + String.join("\n  ", leaks));
        }
    }

    /**
     * No exported public signature names a library's type (Pekko's {@code Done} or
     * {@code ActorRef}, a Scala or config type) outside the packages kept on purpose, and each
     * package kept on purpose still names one (else it is dropped from the list).
     */
    @Test
    void shouldNameLibraryTypesOnlyInThePackagesKeptOnPurpose() {
        ExportedSurface s = ExportedSurface.of(anchor());
        Set<String> kept = packagesNamingLibraryTypesOnPurpose();
        Map<String, List<String>> named = s.libraryTypesByPackage();
        List<String> unexpected = new ArrayList<>();
        named.forEach((pkg, lines) -> {
            if (!kept.contains(pkg)) {
                unexpected.addAll(lines);
            }
        });
        if (!unexpected.isEmpty()) {
            fail(s.name() + ": " + unexpected.size() + " public members of exported types name a library's types, which "
                    + "ties the module's users to that library; use an Orrery or JDK type (CompletionStage<Void> for a "
                    + "stage of Pekko's Done), make the member non-public, stop exporting a package users never need, or "
                    + "keep it on purpose: name the package in packagesNamingLibraryTypesOnPurpose() and say why in its "
                    + "package-info:\n  " + String.join("\n  ", unexpected));
        }
        Set<String> stale = new TreeSet<>(kept);
        stale.removeAll(named.keySet());
        assertEquals(Set.of(), stale, s.name() + ": packages kept on purpose that name no library type (or are not "
                + "exported): drop them from packagesNamingLibraryTypesOnPurpose()");
    }

    /**
     * Every type and member the module's users see in its Javadoc has a comment there (the
     * project's rule), read from the sources of the exported packages; see {@link DocComments}
     * for what counts. About a second per module.
     */
    @Test
    void shouldDocumentEveryTypeAndMemberItsUsersSee() throws IOException {
        ExportedSurface s = ExportedSurface.of(anchor());
        Path sources = Path.of("src", "main", "java");
        List<String> missing = DocComments.missing(sources, s.exportedToAll());
        if (!missing.isEmpty()) {
            fail(s.name() + ": " + missing.size() + (missing.size() == 1 ? " thing its users see in the Javadoc has"
                    : " things its users see in the Javadoc have") + " no doc comment; write one that says "
                    + "what it is for (units, nulls, threads, what it throws) in " + sources.toAbsolutePath() + ":\n  "
                    + String.join("\n  ", missing));
        }
    }

    @Test
    void shouldMatchThePinnedPublicSurface() throws IOException {
        ExportedSurface s = ExportedSurface.of(anchor());
        List<String> actual = new ArrayList<>();
        actual.add("# The public surface of module " + s.name() + ": every public type of its exported packages");
        actual.add("# and every public or protected member. Written by ModuleSurfaceTest with -D" + UPDATE_PROPERTY + "=true;");
        actual.add("# a change here is a change of the API users compile against.");
        actual.addAll(s.lines());
        Path pinned = Path.of("public-api.txt");
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            Files.write(pinned, actual);
            return;
        }
        List<String> expected = Files.exists(pinned) ? Files.readAllLines(pinned) : List.of();
        if (!expected.equals(actual)) {
            List<String> added = new ArrayList<>(actual);
            added.removeAll(expected);
            List<String> removed = new ArrayList<>(expected);
            removed.removeAll(actual);
            fail(s.name() + ": the public surface differs from " + pinned.toAbsolutePath() + " (" + added.size()
                    + " lines only in the classes, " + removed.size() + " only in the file). If the change is meant, run "
                    + "this module's tests with -D" + UPDATE_PROPERTY + "=true and review the file's diff.\n  new: "
                    + String.join("\n  new: ", added) + "\n  gone: " + String.join("\n  gone: ", removed));
        }
    }
}
