package dev.orrery.surface;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What one Orrery library module shows its users, read from its compiled classes: the packages
 * its {@code module-info} exports to everyone, every public type in them, and every public or
 * protected member of those types.
 *
 * <p>Three questions are asked of that surface. {@link #leaks()}: which members name a type a
 * user of the module cannot see (a package not exported to everyone, a non-public type, or a
 * library the module does not {@code requires transitive}). {@link #libraryTypesByPackage()}:
 * which members name a library's type at all (Pekko's, say), visible or not. {@link #lines()}: the whole
 * surface, one line per type and member, in a stable order, so that a test can pin it to a
 * file and any new public member becomes a deliberate, reviewed change.
 *
 * <p>Tests run on the class path, where module descriptors are not enforced; this reads each
 * module's {@code module-info.class} beside its classes, and names a jar without one by its
 * automatic module name. Single-threaded; for tests only.
 */
public final class ExportedSurface {
    private final Path classes;
    private final ModuleDescriptor module;
    private final Set<String> transitiveModules;
    private final Map<Path, ModuleDescriptor> descriptors = new HashMap<>();

    private ExportedSurface(Path classes, ModuleDescriptor module) {
        this.classes = classes;
        this.module = module;
        this.transitiveModules = transitiveClosure(module);
    }

    /** The surface of the module whose main classes hold {@code anchor}. */
    public static ExportedSurface of(Class<?> anchor) {
        Path location = location(anchor);
        ModuleDescriptor d = descriptorAt(location)
                .orElseThrow(() -> new IllegalStateException("no module-info.class beside " + anchor.getName() + " in " + location));
        return new ExportedSurface(location, d);
    }

    /** The folder (or jar) holding the module's main classes. */
    public Path classes() {
        return classes;
    }

    /** The module's name. */
    public String name() {
        return module.name();
    }

    /** The packages exported to everyone. */
    public Set<String> exportedToAll() {
        return module.exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The packages exported only to named modules, with those modules. */
    public Map<String, Set<String>> qualifiedExports() {
        Map<String, Set<String>> out = new TreeMap<>();
        for (ModuleDescriptor.Exports e : module.exports()) {
            if (e.isQualified()) {
                out.put(e.source(), new TreeSet<>(e.targets()));
            }
        }
        return out;
    }

    /** Every public type of the exported packages, nested public types included, by name. */
    public List<Class<?>> types() {
        Set<String> exported = exportedToAll();
        List<Class<?>> out = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(classes)) {
            List<Path> files = walk.filter(p -> p.toString().endsWith(".class")).sorted().collect(Collectors.toList());
            for (Path f : files) {
                String rel = classes.relativize(f).toString().replace('\\', '/');
                if (rel.endsWith("module-info.class") || rel.endsWith("package-info.class")) {
                    continue;
                }
                String name = rel.substring(0, rel.length() - ".class".length()).replace('/', '.');
                String pkg = name.substring(0, Math.max(0, name.lastIndexOf('.')));
                if (!exported.contains(pkg)) {
                    continue;
                }
                Class<?> c = Class.forName(name, false, ExportedSurface.class.getClassLoader());
                if (!c.isAnonymousClass() && !c.isLocalClass() && !c.isSynthetic() && publicChain(c)) {
                    out.add(c);
                }
            }
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("cannot read the classes of " + module.name() + " in " + classes, e);
        }
        out.sort((a, b) -> a.getName().compareTo(b.getName()));
        return out;
    }

    /**
     * Each member of an exported type that names a type its users cannot see, as
     * {@code "Owner.member names hidden.Type (why)"}; empty when the surface is sealed.
     */
    public List<String> leaks() {
        List<String> out = new ArrayList<>();
        for (Class<?> c : types()) {
            out.addAll(leaksOf(c));
        }
        return out;
    }

    /** The leaks of one type, exported or not: what {@link #leaks()} reports for it. */
    List<String> leaksOf(Class<?> c) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Set<Class<?>>> e : namedIn(c)) {
            report(e.getKey(), e.getValue(), out);
        }
        return out;
    }

    /**
     * Each member of an exported type that names a public type of a library (a type from
     * neither the JDK nor an Orrery module: Pekko's, Scala's, a config library's), grouped by
     * the package of the exported type, as {@code "Owner.member names lib.Type (library module
     * m)"}. Whether the module's users can see such a type is {@link #leaks()}'s question; this
     * one is whether its public signatures tie users to a library at all, where an Orrery or JDK
     * type would serve. Empty when no exported signature names a library's type.
     */
    public Map<String, List<String>> libraryTypesByPackage() {
        Map<String, List<String>> out = new TreeMap<>();
        for (Class<?> c : types()) {
            List<String> named = libraryTypesOf(c);
            if (!named.isEmpty()) {
                out.computeIfAbsent(c.getPackageName(), p -> new ArrayList<>()).addAll(named);
            }
        }
        return out;
    }

    /** The library types one type names, exported or not: what {@link #libraryTypesByPackage()} reports for it. */
    List<String> libraryTypesOf(Class<?> c) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Set<Class<?>>> e : namedIn(c)) {
            for (Class<?> t : e.getValue()) {
                String library = libraryOf(t);
                if (library != null) {
                    out.add(e.getKey() + " names " + t.getName() + " (" + library + ")");
                }
            }
        }
        return out;
    }

    /**
     * The library {@code t} comes from ({@code "library module m"}), or null when it is the
     * JDK's, an Orrery module's, primitive, or not public (a hidden type is a leak, which
     * {@link #leaks()} reports).
     */
    String libraryOf(Class<?> t) {
        while (t.isArray()) {
            t = t.getComponentType();
        }
        if (t.isPrimitive() || !publicChain(t) || t.getModule().isNamed()) { // named at run time: a JDK module
            return null;
        }
        Path where = location(t);
        String name = descriptorAt(where).map(ModuleDescriptor::name).orElse(null);
        if (name == null) {
            return "library at " + where + ", no module descriptor";
        }
        return name.startsWith("dev.orrery.") ? null : "library module " + name;
    }

    /**
     * The types each part of {@code c}'s public face names: its supertypes and type parameters
     * (under {@code "Owner (its supertypes)"}), then each public or protected member
     * ({@code "Owner.member"}, once per overload), in declaration order.
     */
    private static List<Map.Entry<String, Set<Class<?>>>> namedIn(Class<?> c) {
        List<Map.Entry<String, Set<Class<?>>>> out = new ArrayList<>();
        Set<Class<?>> named = new LinkedHashSet<>();
        if (c.getGenericSuperclass() != null) {
            collect(c.getGenericSuperclass(), named, new HashSet<>());
        }
        for (Type t : c.getGenericInterfaces()) {
            collect(t, named, new HashSet<>());
        }
        for (TypeVariable<?> v : c.getTypeParameters()) {
            collect(v, named, new HashSet<>());
        }
        out.add(Map.entry(c.getName() + " (its supertypes)", named));
        for (Member m : members(c)) {
            out.add(Map.entry(c.getName() + "." + memberName(m), namedBy(m)));
        }
        return out;
    }

    /**
     * The whole surface, one line per exported type (its kind and supertypes) and per public
     * or protected member (its generic signature), sorted within each type.
     */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        for (Class<?> c : types()) {
            out.add(typeLine(c));
            List<String> ms = new ArrayList<>();
            for (Member m : members(c)) {
                ms.add("    " + memberLine(m));
            }
            Collections.sort(ms);
            out.addAll(ms);
        }
        return out;
    }

    private void report(String where, Set<Class<?>> named, List<String> out) {
        for (Class<?> t : named) {
            String why = hiddenBecause(t);
            if (why != null) {
                out.add(where + " names " + t.getName() + " (" + why + ")");
            }
        }
    }

    /** Why a user of this module cannot see {@code t}, or null when they can. */
    String hiddenBecause(Class<?> t) {
        while (t.isArray()) {
            t = t.getComponentType();
        }
        if (t.isPrimitive()) {
            return null;
        }
        if (!publicChain(t)) {
            return "not public";
        }
        String pkg = t.getPackageName();
        Module m = t.getModule();
        if (m.isNamed()) { // a JDK module
            if (!"java.base".equals(m.getName()) && !transitiveModules.contains(m.getName())) {
                return "module " + m.getName() + " is not required transitively";
            }
            return m.getDescriptor().exports().stream().anyMatch(e -> !e.isQualified() && e.source().equals(pkg))
                    ? null : "package not exported by " + m.getName();
        }
        Path where = location(t);
        Optional<ModuleDescriptor> d = descriptorAt(where);
        String name = d.map(ModuleDescriptor::name).orElse("?");
        if (d.isEmpty()) {
            return "no module descriptor for " + where;
        }
        if (name.startsWith("dev.orrery.")) {
            if (!name.equals(module.name()) && !transitiveModules.contains(name)) {
                return "module " + name + " is not required transitively";
            }
            boolean exported = d.get().exports().stream().anyMatch(e -> !e.isQualified() && e.source().equals(pkg));
            return exported ? null : "package " + pkg + " is not exported to everyone by " + name;
        }
        return transitiveModules.contains(name) ? null : "library module " + name + " is not required transitively";
    }

    private Set<String> transitiveClosure(ModuleDescriptor root) {
        Set<String> out = new TreeSet<>();
        List<ModuleDescriptor> todo = new ArrayList<>(List.of(root));
        while (!todo.isEmpty()) {
            ModuleDescriptor d = todo.remove(todo.size() - 1);
            for (ModuleDescriptor.Requires r : d.requires()) {
                if (r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE) && out.add(r.name())) {
                    orreryDescriptor(r.name()).ifPresent(todo::add);
                    ModuleLayer.boot().findModule(r.name()).ifPresent(m -> todo.add(m.getDescriptor()));
                }
            }
        }
        return out;
    }

    /** The descriptor of an Orrery module on the class path, found through a class of its facade. */
    private Optional<ModuleDescriptor> orreryDescriptor(String name) {
        String anchor = switch (name) {
            case "dev.orrery.ecs" -> "dev.orrery.ecs.World";
            case "dev.orrery.scheduler" -> "dev.orrery.scheduler.Schedule";
            case "dev.orrery.engine" -> "dev.orrery.engine.Simulation";
            default -> null;
        };
        if (anchor == null) {
            return Optional.empty();
        }
        try {
            return descriptorAt(location(Class.forName(anchor, false, ExportedSurface.class.getClassLoader())));
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        }
    }

    private static Optional<ModuleDescriptor> descriptorAt(Path location) {
        Path info = location.resolve("module-info.class");
        if (Files.isDirectory(location)) {
            if (!Files.exists(info)) {
                return Optional.empty();
            }
            try (InputStream in = Files.newInputStream(info)) {
                return Optional.of(ModuleDescriptor.read(in));
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + info, e);
            }
        }
        return ModuleFinder.of(location).findAll().stream().findFirst().map(ModuleReference::descriptor);
    }

    private static Path location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("no code source for " + c.getName(), e);
        }
    }

    private static boolean publicChain(Class<?> c) {
        for (Class<?> o = c; o != null; o = o.getDeclaringClass()) {
            if (!Modifier.isPublic(o.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    /** The public members, and the protected ones of a class a user may extend. */
    private static List<Member> members(Class<?> c) {
        boolean extendable = !Modifier.isFinal(c.getModifiers()) && !c.isEnum() && !c.isRecord() && !c.isInterface()
                && Stream.of(c.getDeclaredConstructors()).anyMatch(k -> !Modifier.isPrivate(k.getModifiers()));
        List<Member> out = new ArrayList<>();
        List<Member> all = new ArrayList<>();
        all.addAll(List.of(c.getDeclaredConstructors()));
        all.addAll(List.of(c.getDeclaredMethods()));
        all.addAll(List.of(c.getDeclaredFields()));
        for (Member m : all) {
            int mod = m.getModifiers();
            if (m.isSynthetic() || (m instanceof Method mm && mm.isBridge())) {
                continue;
            }
            if (Modifier.isPublic(mod) || (Modifier.isProtected(mod) && extendable)) {
                out.add(m);
            }
        }
        return out;
    }

    private static Set<Class<?>> namedBy(Member m) {
        Set<Class<?>> out = new LinkedHashSet<>();
        Set<TypeVariable<?>> seen = new HashSet<>();
        if (m instanceof Executable e) {
            for (TypeVariable<?> v : e.getTypeParameters()) {
                collect(v, out, seen);
            }
            for (Type t : e.getGenericParameterTypes()) {
                collect(t, out, seen);
            }
            for (Type t : e.getGenericExceptionTypes()) {
                collect(t, out, seen);
            }
            if (e instanceof Method mm) {
                collect(mm.getGenericReturnType(), out, seen);
            }
        } else if (m instanceof Field f) {
            collect(f.getGenericType(), out, seen);
        }
        return out;
    }

    private static void collect(Type t, Set<Class<?>> out, Set<TypeVariable<?>> seen) {
        if (t instanceof Class<?> c) {
            out.add(c);
        } else if (t instanceof ParameterizedType p) {
            collect(p.getRawType(), out, seen);
            if (p.getOwnerType() != null) {
                collect(p.getOwnerType(), out, seen);
            }
            for (Type a : p.getActualTypeArguments()) {
                collect(a, out, seen);
            }
        } else if (t instanceof GenericArrayType g) {
            collect(g.getGenericComponentType(), out, seen);
        } else if (t instanceof WildcardType w) {
            for (Type b : w.getUpperBounds()) {
                collect(b, out, seen);
            }
            for (Type b : w.getLowerBounds()) {
                collect(b, out, seen);
            }
        } else if (t instanceof TypeVariable<?> v && seen.add(v)) {
            for (Type b : v.getBounds()) {
                collect(b, out, seen);
            }
        }
    }

    private static String memberName(Member m) {
        return m instanceof Constructor<?> ? "<init>" : m.getName();
    }

    private static String typeLine(Class<?> c) {
        StringBuilder b = new StringBuilder();
        b.append(c.isAnnotation() ? "@interface " : c.isInterface() ? "interface " : c.isEnum() ? "enum " : c.isRecord() ? "record " : "class ");
        b.append(c.getName().replace('$', '.'));
        if (!c.isInterface() && Modifier.isFinal(c.getModifiers()) && !c.isEnum() && !c.isRecord()) {
            b.append(" (final)");
        } else if (!c.isInterface() && Modifier.isAbstract(c.getModifiers())) {
            b.append(" (abstract)");
        }
        Type sup = c.getGenericSuperclass();
        if (sup != null && sup != Object.class && !c.isEnum() && !c.isRecord()) {
            b.append(" extends ").append(sup.getTypeName());
        }
        Type[] in = c.getGenericInterfaces();
        if (in.length > 0) {
            b.append(c.isInterface() ? " extends " : " implements ");
            b.append(Stream.of(in).map(Type::getTypeName).collect(Collectors.joining(", ")));
        }
        return b.toString().replace('$', '.');
    }

    private static String memberLine(Member m) {
        String s;
        if (m instanceof Method mm) {
            s = mm.toGenericString();
        } else if (m instanceof Constructor<?> k) {
            s = k.toGenericString();
        } else {
            Field f = (Field) m;
            s = f.toGenericString();
        }
        // Drop the declaring type's name before the member name: the type line above says it.
        String owner = m.getDeclaringClass().getName();
        s = s.replace(owner + ".", "");
        return s.replace('$', '.');
    }
}
