package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The prose of {@code README.md} and the book ({@code docs/*.md}, not {@code docs/design/},
 * which names internals on purpose) cannot name a call the library no longer has. SnippetTest
 * keeps the Java blocks compiled; this test reads the text around them: in every backticked
 * span outside a code block, each {@code Type.method(} whose type is an Orrery type must be a
 * member of that type (or of an Orrery type it extends), each {@code world.method(} (and the
 * book's other usual variable names, {@link #RECEIVERS}) a member of the variable's type, each {@code .method(} or
 * {@code method(} must be a method of some module's {@code public-api.txt}, and each
 * {@code new Type(} must name an Orrery type. A rename that leaves the prose behind fails here,
 * naming the file and line.
 *
 * <p>Only names are checked, not argument lists: prose abbreviates them ({@code spawn(values...)}).
 */
class ProseApiNamesTest {
    /** JDK types the prose names for contrast (the determinism rules); their calls are not Orrery's. */
    private static final Set<String> FOREIGN_TYPES = Set.of("Math", "StrictMath", "System", "Instant");
    /** Bare names that are not calls of Orrery: the rounding functions of the {@code @Range} rules. */
    private static final Set<String> FOREIGN_CALLS = Set.of("ceil", "floor");
    /**
     * What any type has without listing it (Object's methods), and what a type inherits from the
     * JDK supertypes public-api.txt names (AutoCloseable, the exceptions): accepted on any type.
     */
    private static final Set<String> INHERITED = Set.of("toString", "hashCode", "equals", "close", "getMessage",
            "getCause");
    /**
     * The book's usual variable names and their types, so that {@code world.foo(} is checked
     * against {@code World}, not only against every type; other receivers get the name check.
     */
    private static final Map<String, String> RECEIVERS = Map.ofEntries(Map.entry("world", "World"),
            Map.entry("sim", "Simulation"), Map.entry("job", "JobContext"), Map.entry("chunk", "ChunkView"),
            Map.entry("view", "ChunkView"), Map.entry("commands", "CommandBuffer"),
            Map.entry("executor", "ScheduleExecutor"), Map.entry("schedule", "Schedule"),
            Map.entry("relations", "Relations"), Map.entry("h", "Hierarchy"), Map.entry("shape", "Shape"),
            Map.entry("explorer", "Explorer"), Map.entry("node", "ClusterNode"), Map.entry("client", "WorldClient"),
            Map.entry("hostedWorld", "HostedWorld"), Map.entry("random", "CounterRandom"));

    private static final Path ROOT = Path.of("..");
    private static final Pattern SPAN = Pattern.compile("`([^`]+)`");
    private static final Pattern TYPE_CALL = Pattern.compile("(?<![\\w.])([A-Z]\\w*)\\.([a-z]\\w*)\\(");
    private static final Pattern CALL = Pattern.compile("(?<!\\w)([a-z]\\w*)\\(");
    private static final Pattern RECEIVER_CALL = Pattern.compile("(?<![\\w.])([a-z]\\w*)\\.([a-z]\\w*)\\(");
    private static final Pattern NEW = Pattern.compile("\\bnew ([A-Z]\\w*)\\(");
    private static final Pattern TYPE_LINE = Pattern.compile("\\b(dev\\.orrery\\.[\\w.$]+)");
    private static final Pattern MEMBER = Pattern.compile("([\\w$.]+)\\(");

    /** The public surface read from the public-api.txt files. */
    static final class Surface {
        /** Simple type name (nested: the innermost name) to its members' names. */
        final Map<String, Set<String>> members = new HashMap<>();
        /** Simple type name to the simple names of its Orrery supertypes. */
        final Map<String, Set<String>> supertypes = new HashMap<>();
        /** Every method and field name of every type. */
        final Set<String> names = new HashSet<>();

        void read(List<String> lines) {
            String type = null;
            for (String line : lines) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (!line.startsWith(" ")) {
                    type = declaredType(line);
                    members.computeIfAbsent(type, k -> new HashSet<>());
                    Set<String> sup = supertypes.computeIfAbsent(type, k -> new HashSet<>());
                    int ext = Math.max(line.indexOf(" extends "), line.indexOf(" implements "));
                    if (ext >= 0) {
                        for (String s : line.substring(ext).replaceAll("<[^>]*>", "")
                                .replace(" extends ", ",").replace(" implements ", ",").split(",")) {
                            String name = s.strip();
                            if (!name.isEmpty()) {
                                if (name.startsWith("dev.orrery.")) {
                                    sup.add(simple(name));
                                }
                            }
                        }
                    }
                    continue;
                }
                if (type == null) {
                    throw new IllegalStateException("a member before any type: " + line);
                }
                Matcher m = MEMBER.matcher(line);
                String[] words = line.strip().split(" ");
                String name = simple(m.find() ? m.group(1) : words[words.length - 1]);
                names.add(name);
                members.get(type).add(name);
            }
        }

        private static String declaredType(String line) {
            Matcher m = TYPE_LINE.matcher(line);
            if (!m.find()) {
                throw new IllegalStateException("no dev.orrery type on the line: " + line);
            }
            return simple(m.group(1));
        }

        /** dev.orrery.a.B$C -> C; a constructor dev.orrery.a.B -> B; a method name stays itself. */
        private static String simple(String qualified) {
            String s = qualified.substring(qualified.lastIndexOf('.') + 1);
            return s.substring(s.lastIndexOf('$') + 1);
        }

        /** Whether {@code type}, one of its Orrery supertypes or {@link #INHERITED} has {@code name}. */
        boolean hasMember(String type, String name, Set<String> seen) {
            if (INHERITED.contains(name) || members.getOrDefault(type, Set.of()).contains(name)) {
                return true;
            }
            if (!seen.add(type)) {
                return false;
            }
            for (String sup : supertypes.getOrDefault(type, Set.of())) {
                if (hasMember(sup, name, seen)) {
                    return true;
                }
            }
            return false;
        }
    }

    @Test
    void shouldNameOnlyCallsThePublicApiHas() throws IOException {
        Surface api = surface();
        List<String> problems = new ArrayList<>();
        int calls = 0;
        for (Path md : markdownFiles()) {
            List<String> lines = Files.readAllLines(md);
            boolean inBlock = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.strip().startsWith("```")) {
                    inBlock = !inBlock;
                    continue;
                }
                if (inBlock) {
                    continue;
                }
                String where = ROOT.relativize(md.normalize()) + ":" + (i + 1) + ": ";
                Matcher span = SPAN.matcher(line);
                while (span.find()) {
                    calls += check(api, span.group(1), where, problems);
                }
            }
        }
        assertTrue(calls > 200, "found only " + calls + " calls in the prose; is the pattern still right?");
        assertTrue(problems.isEmpty(), problems.size() + " name(s) in the prose that the public API does not have "
                + "(rename them in the prose, or, for a name that is not Orrery's, add it to FOREIGN_TYPES or "
                + "FOREIGN_CALLS with a reason):\n  " + String.join("\n  ", problems));
    }

    @Test
    void shouldReportARenamedCallAndAMemberOfTheWrongType() throws IOException {
        Surface api = surface();
        List<String> problems = new ArrayList<>();
        check(api, "world.spawnn(values...)", "a: ", problems);
        check(api, "World.hashEvery(n)", "b: ", problems);
        check(api, "new Wrld(chunkBytes)", "c: ", problems);
        check(api, "Math.random()", "d: ", problems);
        check(api, "world.spawn(values...)", "e: ", problems);
        check(api, "SimulationBuilder.hashEvery(n)", "f: ", problems);
        check(api, "DeterminismFailure.getMessage()", "g: ", problems);
        check(api, "sim.hashEvery(n)", "h: ", problems);
        check(api, "sim.tickDeadline(steps)", "i: ", problems);
        assertEquals(List.of("a: `world.spawnn(values...)`: world (World) has no member spawnn",
                "b: `World.hashEvery(n)`: World has no member hashEvery",
                "c: `new Wrld(chunkBytes)`: no public type Wrld",
                "h: `sim.hashEvery(n)`: sim (Simulation) has no member hashEvery"), problems);
    }

    private static int check(Surface api, String span, String where, List<String> problems) {
        int calls = 0;
        Matcher typed = TYPE_CALL.matcher(span);
        Set<Integer> foreign = new HashSet<>();
        while (typed.find()) {
            calls++;
            String type = typed.group(1);
            String name = typed.group(2);
            if (FOREIGN_TYPES.contains(type)) {
                foreign.add(typed.start(2));
            } else if (api.members.containsKey(type) && !api.hasMember(type, name, new HashSet<>())) {
                problems.add(where + "`" + span + "`: " + type + " has no member " + name);
                foreign.add(typed.start(2)); // reported once
            }
        }
        Matcher received = RECEIVER_CALL.matcher(span);
        while (received.find()) {
            String type = RECEIVERS.get(received.group(1));
            if (type != null && !api.hasMember(type, received.group(2), new HashSet<>())) {
                problems.add(where + "`" + span + "`: " + received.group(1) + " (" + type + ") has no member "
                        + received.group(2));
                foreign.add(received.start(2)); // reported once
            }
        }
        Matcher call = CALL.matcher(span);
        while (call.find()) {
            calls++;
            String name = call.group(1);
            if (!foreign.contains(call.start(1)) && !FOREIGN_CALLS.contains(name) && !INHERITED.contains(name)
                    && !api.names.contains(name)) {
                problems.add(where + "`" + span + "`: no public method " + name);
            }
        }
        Matcher created = NEW.matcher(span);
        while (created.find()) {
            calls++;
            if (!api.members.containsKey(created.group(1))) {
                problems.add(where + "`" + span + "`: no public type " + created.group(1));
            }
        }
        return calls;
    }

    private static Surface surface() throws IOException {
        Surface api = new Surface();
        List<Path> files;
        try (Stream<Path> dirs = Files.list(ROOT)) {
            files = dirs.map(d -> d.resolve("public-api.txt")).filter(Files::isRegularFile).sorted()
                    .collect(Collectors.toList());
        }
        assertTrue(files.size() >= 6, "found only " + files + " public-api.txt files under " + ROOT.toAbsolutePath());
        for (Path f : files) {
            api.read(Files.readAllLines(f));
        }
        return api;
    }

    private static List<Path> markdownFiles() throws IOException {
        List<Path> out = new ArrayList<>();
        out.add(ROOT.resolve("README.md"));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(out::add);
        }
        return out;
    }
}
