package dev.orrery.surface;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Finds what a user of a module sees in its Javadoc with no doc comment: in the packages it
 * exports to everyone, each public type, each public or protected member (interface members
 * unless private, enum constants), each implicit default constructor, each record component
 * without an {@code @param} in its record's comment, and each package without a comment in
 * its {@code package-info.java}. These are the "no comment" findings of the JDK's doclint
 * ({@code -Xdoclint:missing}), without its {@code @param}/{@code @return} findings on prose
 * comments, which this project's style allows.
 *
 * <p>It only parses the sources, with the JDK's compiler tree API (no attribution, no class
 * path), so a module's run takes about a second. A method annotated {@code @Override} inherits
 * its comment, as in the Javadoc, and needs none; an override without the annotation does.
 *
 * <p>The tree API ({@code com.sun.source}, module {@code jdk.compiler}) is called reflectively:
 * the test sources are compiled into the module under test, which does not read
 * {@code jdk.compiler}, and the build adds no {@code --add-reads} for it. Tests run on the
 * class path, where the API's exported interfaces are reachable. Single-threaded; for tests only.
 */
public final class DocComments {
    private static final String TREE = "com.sun.source.tree.";
    private static final String DOC = "com.sun.source.doctree.";
    private static final Map<String, Method> METHODS = new HashMap<>();

    private final Object trees;
    private final Object unit;
    private final Path file;
    private final List<String> missing;

    private DocComments(Object trees, Object unit, Path file, List<String> missing) {
        this.trees = trees;
        this.unit = unit;
        this.file = file;
        this.missing = missing;
    }

    /**
     * What has no doc comment in {@code packages} under {@code sources}, one line each
     * ({@code "dev/orrery/ecs/World.java:120: method remove has no doc comment"}): the missing
     * {@code package-info.java} files first, then by file name, and in each file in the order of
     * its declarations. Empty when everything is documented.
     *
     * @param sources  the module's main source folder ({@code src/main/java})
     * @param packages the packages exported to everyone, by name
     * @return the findings, paths relative to {@code sources}
     * @throws IOException if a package's folder cannot be listed or a file read
     * @throws IllegalStateException if the JVM has no Java compiler (a JRE), or a source does
     *     not parse
     */
    public static List<String> missing(Path sources, Set<String> packages) throws IOException {
        Path root = sources.toAbsolutePath();
        List<Path> files = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String p : new TreeSet<>(packages)) {
            Path dir = root.resolve(p.replace('.', '/'));
            if (!Files.isRegularFile(dir.resolve("package-info.java"))) {
                missing.add(root.relativize(dir) + ": package " + p + " has no package-info.java with a comment");
            }
            try (Stream<Path> list = Files.list(dir)) {
                files.addAll(list.filter(f -> f.toString().endsWith(".java")).sorted().collect(Collectors.toList()));
            }
        }
        Object compiler = call("javax.tools.ToolProvider", "getSystemJavaCompiler", null);
        if (compiler == null) {
            throw new IllegalStateException("no Java compiler in this JVM (" + System.getProperty("java.home")
                    + "); run the tests on a JDK, not a JRE");
        }
        try (AutoCloseable fm = (AutoCloseable) call("javax.tools.JavaCompiler", "getStandardFileManager", compiler,
                null, null, StandardCharsets.UTF_8)) {
            Object sourceFiles = call("javax.tools.StandardJavaFileManager", "getJavaFileObjectsFromFiles", fm,
                    files.stream().map(Path::toFile).collect(Collectors.toList()));
            StringWriter errors = new StringWriter();
            Object task = call("javax.tools.JavaCompiler", "getTask", compiler, errors, fm, null, List.of("-proc:none"),
                    null, sourceFiles);
            Object trees = call("com.sun.source.util.DocTrees", "instance", null, task);
            List<Object> units = new ArrayList<>();
            for (Object u : (Iterable<?>) call("com.sun.source.util.JavacTask", "parse", task)) {
                units.add(u);
            }
            if (!errors.toString().isEmpty()) {
                throw new IllegalStateException("the sources under " + root + " do not parse:\n" + errors);
            }
            for (Object u : units) {
                URI uri = (URI) call("javax.tools.FileObject", "toUri", call(TREE + "CompilationUnitTree", "getSourceFile", u));
                new DocComments(trees, u, root.relativize(Path.of(uri)), missing).unit();
            }
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
        return missing;
    }

    private void unit() {
        Object root = path(null, unit);
        Object pkg = call(TREE + "CompilationUnitTree", "getPackage", unit);
        if (file.getFileName().toString().equals("package-info.java")) {
            if (pkg == null || docOf(path(root, pkg)) == null) {
                missing.add(file + ": package " + (pkg == null ? "?" : call(TREE + "CompilationUnitTree",
                        "getPackageName", unit)) + " has no doc comment");
            }
            return;
        }
        for (Object t : (List<?>) call(TREE + "CompilationUnitTree", "getTypeDecls", unit)) {
            if (isType(t) && flags(t).contains("public")) {
                type(path(root, t), t);
            }
        }
    }

    /** A visible type: its comment, its implicit constructor, its record components, its visible members. */
    private void type(Object path, Object c) {
        String kind = kind(c);
        String name = call(TREE + "ClassTree", "getSimpleName", c).toString();
        Object doc = require(path, kind.toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " " + name);
        boolean iface = kind.equals("INTERFACE") || kind.equals("ANNOTATION_TYPE");
        List<?> members = (List<?>) call(TREE + "ClassTree", "getMembers", c);
        if (kind.equals("CLASS") && members.stream().noneMatch(m -> kind(m).equals("METHOD") && isConstructor(m))) {
            missing.add(line(path) + ": class " + name + " has an implicit default constructor, which has no doc "
                    + "comment; declare it with one (or make it private)");
        }
        Set<String> params = params(doc);
        for (Object m : members) {
            Object mp = path(path, m);
            Set<String> flags = isType(m) || kind(m).equals("METHOD") || kind(m).equals("VARIABLE") ? flags(m) : Set.of();
            boolean visible = flags.contains("public") || flags.contains("protected") || (iface && !flags.contains("private"));
            if (isType(m)) {
                if (visible) {
                    type(mp, m);
                }
            } else if (kind(m).equals("METHOD")) {
                if (visible && !overrides(m)) {
                    require(mp, isConstructor(m) ? "constructor " + name
                            : "method " + call(TREE + "MethodTree", "getName", m));
                }
            } else if (kind(m).equals("VARIABLE")) {
                String field = name + "." + call(TREE + "VariableTree", "getName", m);
                if (kind.equals("RECORD") && !flags.contains("static")) {
                    // a record declares no instance field of its own: this is a component
                    if (doc != null && !params.contains(call(TREE + "VariableTree", "getName", m).toString())) {
                        missing.add(line(path) + ": record component " + field + " has no @param in the record's comment");
                    }
                } else if (visible) {
                    require(mp, (kind.equals("ENUM") && isEnumConstant(m, name) ? "enum constant " : "field ") + field);
                }
            }
        }
    }

    private Object require(Object path, String what) {
        Object doc = docOf(path);
        if (doc == null || (((List<?>) call(DOC + "DocCommentTree", "getFullBody", doc)).isEmpty()
                && ((List<?>) call(DOC + "DocCommentTree", "getBlockTags", doc)).isEmpty())) {
            missing.add(line(path) + ": " + what + " has no doc comment");
        }
        return doc;
    }

    private Object docOf(Object path) {
        return call("com.sun.source.util.DocTrees", "getDocCommentTree", trees, path);
    }

    /** The names the {@code @param} tags of {@code doc} give, type parameters left out. */
    private static Set<String> params(Object doc) {
        Set<String> names = new HashSet<>();
        if (doc != null) {
            for (Object tag : (List<?>) call(DOC + "DocCommentTree", "getBlockTags", doc)) {
                if (call(DOC + "DocTree", "getKind", tag).toString().equals("PARAM")
                        && !(Boolean) call(DOC + "ParamTree", "isTypeParameter", tag)) {
                    names.add(call(DOC + "IdentifierTree", "getName", call(DOC + "ParamTree", "getName", tag)).toString());
                }
            }
        }
        return names;
    }

    private static Set<String> flags(Object member) {
        Object mods = call(TREE + (isType(member) ? "ClassTree" : kind(member).equals("METHOD") ? "MethodTree" : "VariableTree"),
                "getModifiers", member);
        return ((Set<?>) call(TREE + "ModifiersTree", "getFlags", mods)).stream().map(Object::toString)
                .collect(Collectors.toSet());
    }

    private static boolean overrides(Object method) {
        Object mods = call(TREE + "MethodTree", "getModifiers", method);
        for (Object a : (List<?>) call(TREE + "ModifiersTree", "getAnnotations", mods)) {
            String type = call(TREE + "AnnotationTree", "getAnnotationType", a).toString();
            if (type.equals("Override") || type.equals("java.lang.Override")) {
                return true;
            }
        }
        return false;
    }

    private static boolean isConstructor(Object method) {
        return call(TREE + "MethodTree", "getName", method).toString().equals("<init>");
    }

    private static boolean isEnumConstant(Object variable, String enumName) {
        Object init = call(TREE + "VariableTree", "getInitializer", variable);
        return init != null && kind(init).equals("NEW_CLASS")
                && call(TREE + "NewClassTree", "getIdentifier", init).toString().equals(enumName);
    }

    private static boolean isType(Object tree) {
        switch (kind(tree)) {
            case "CLASS":
            case "INTERFACE":
            case "ENUM":
            case "ANNOTATION_TYPE":
            case "RECORD":
                return true;
            default:
                return false;
        }
    }

    private static String kind(Object tree) {
        return call(TREE + "Tree", "getKind", tree).toString();
    }

    private static Object path(Object parent, Object tree) {
        try {
            Class<?> pathType = Class.forName("com.sun.source.util.TreePath");
            return parent == null
                    ? pathType.getConstructor(Class.forName(TREE + "CompilationUnitTree")).newInstance(tree)
                    : pathType.getConstructor(pathType, Class.forName(TREE + "Tree")).newInstance(parent, tree);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the JDK's compiler tree API is not reachable: " + e, e);
        }
    }

    private String line(Object path) {
        Object positions = call("com.sun.source.util.Trees", "getSourcePositions", trees);
        Object leaf = call("com.sun.source.util.TreePath", "getLeaf", path);
        long pos = (Long) call("com.sun.source.util.SourcePositions", "getStartPosition", positions, unit, leaf);
        Object lines = call(TREE + "CompilationUnitTree", "getLineMap", unit);
        return file + ":" + call(TREE + "LineMap", "getLineNumber", lines, pos);
    }

    /**
     * Calls the public method {@code name} of the JDK type {@code type} (an interface the
     * compiler's objects implement, or a class for a static method) that takes {@code args}.
     */
    private static Object call(String type, String name, Object target, Object... args) {
        StringBuilder key = new StringBuilder(type).append('#').append(name);
        for (Object a : args) {
            key.append(',').append(a == null ? "null" : a.getClass().getName());
        }
        Method m = METHODS.computeIfAbsent(key.toString(), k -> find(type, name, args));
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            throw new IllegalStateException(type + "." + name + " failed: " + cause, cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("the JDK's compiler tree API is not reachable: " + e, e);
        }
    }

    private static Method find(String type, String name, Object[] args) {
        try {
            for (Method m : Class.forName(type).getMethods()) {
                if (m.getName().equals(name) && m.getParameterCount() == args.length && accepts(m.getParameterTypes(), args)) {
                    return m;
                }
            }
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the JDK's compiler tree API is not reachable (" + type + "): run the "
                    + "tests on a JDK", e);
        }
        throw new IllegalStateException("no method " + name + " taking these " + args.length + " arguments in " + type);
    }

    private static boolean accepts(Class<?>[] parameters, Object[] args) {
        for (int i = 0; i < args.length; i++) {
            Class<?> p = parameters[i] == long.class ? Long.class : parameters[i];
            if (args[i] != null && !p.isInstance(args[i])) {
                return false;
            }
        }
        return true;
    }
}
