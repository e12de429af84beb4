package dev.orrery.ecs.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Finds a facade package's package-private members for the internal classes that forward to
 * them ({@link EcsInternals}, {@link Playback}, and the scheduler's and engine's own), through a
 * private lookup into that package.
 *
 * <p>Why a lookup and not a public method: Java's package-private is the one seal that holds on
 * the class path as well as on the module path, and an internal package may only reach what
 * the facade keeps package-private this way without the facade importing it back (which would
 * close a circle in the package graph). The lookup is made by the caller in its own module
 * ({@link #into}), where every package is open to it, so it needs no {@code opens}. Every
 * handle is found once, in a static initializer: a renamed member fails there, in any test,
 * never on a hot path; a constant handle is inlined by the JIT.
 */
public final class FacadeLookup {
    private final MethodHandles.Lookup lookup;
    private final String packageName;

    private FacadeLookup(MethodHandles.Lookup lookup, String packageName) {
        this.lookup = lookup;
        this.packageName = packageName;
    }

    /**
     * A lookup into the package of {@code anchor}, made with the caller's own {@code caller}
     * lookup (it must be of the same module).
     *
     * @throws ExceptionInInitializerError if the caller may not look into that package
     */
    public static FacadeLookup into(Class<?> anchor, MethodHandles.Lookup caller) {
        try {
            return new FacadeLookup(MethodHandles.privateLookupIn(anchor, caller), anchor.getPackageName());
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A class of the facade package by simple name (the package-private ones cannot be named elsewhere). */
    public Class<?> type(String simpleName) {
        try {
            return Class.forName(packageName + "." + simpleName, false, lookup.lookupClass().getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** An instance method of {@code owner}; parameter and return types as declared. */
    public MethodHandle method(Class<?> owner, String name, Class<?> returns, Class<?>... params) {
        try {
            return lookup.findVirtual(owner, name, MethodType.methodType(returns, params));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A static method of {@code owner}. */
    public MethodHandle staticMethod(Class<?> owner, String name, Class<?> returns, Class<?>... params) {
        try {
            return lookup.findStatic(owner, name, MethodType.methodType(returns, params));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A constructor of {@code owner}. */
    public MethodHandle constructor(Class<?> owner, Class<?>... params) {
        try {
            return lookup.findConstructor(owner, MethodType.methodType(void.class, params));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The value of a static final field of {@code owner}. */
    public Object constant(Class<?> owner, String name, Class<?> type) {
        try {
            return lookup.findStaticGetter(owner, name, type).invoke();
        } catch (Throwable t) {
            throw new ExceptionInInitializerError(t);
        }
    }

    /**
     * Rethrows what a handle threw: unchecked exceptions and errors as they are (the facade's
     * messages reach the caller unchanged), a checked one wrapped.
     */
    public static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }
}
