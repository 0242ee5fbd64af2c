package dev.idempotency.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Finds where a module's public API names an internal type: public constructors and methods of public types outside
 * {@code dev.idempotency.internal} whose parameters or result are in it. Users must never have to name an internal
 * type; the factories build what needs them.
 */
public final class PublicApi {

    private static final Path CLASSES = Path.of("target/classes");
    private static final String INTERNAL = "dev.idempotency.internal.";

    private PublicApi() {}

    /** The public API types of the module under test (its {@code target/classes}), internal packages left out. */
    public static List<Class<?>> types() {
        try (Stream<Path> files = Files.walk(CLASSES.resolve("dev/idempotency"))) {
            return files.map(file -> CLASSES.relativize(file).toString())
                    .filter(file -> file.endsWith(".class") && !file.endsWith("package-info.class"))
                    .map(file ->
                            file.substring(0, file.length() - ".class".length()).replace('/', '.'))
                    .filter(name -> !name.startsWith(INTERNAL))
                    .map(PublicApi::load)
                    .filter(type -> Modifier.isPublic(type.getModifiers()))
                    .toList();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Each public constructor or method of {@code types} that names an internal type, as {@code Type.member[params]};
     * {@code allowed} lists {@code Type.member} names documented as internal where they are declared.
     */
    public static List<String> internalTypeLeaks(List<Class<?>> types, Set<String> allowed) {
        return types.stream()
                .flatMap(type -> Stream.concat(
                        Arrays.stream(type.getDeclaredConstructors()), Arrays.stream(type.getDeclaredMethods())))
                .filter(member -> Modifier.isPublic(member.getModifiers()))
                .filter(member -> !allowed.contains(name(member)))
                .filter(PublicApi::namesAnInternalType)
                .map(member -> name(member) + Arrays.toString(member.getParameterTypes()))
                .toList();
    }

    private static boolean namesAnInternalType(Executable member) {
        Stream<Class<?>> types = Arrays.stream(member.getParameterTypes());
        if (member instanceof Method method) {
            types = Stream.concat(types, Stream.of(method.getReturnType()));
        }
        return types.anyMatch(type -> type.getName().startsWith(INTERNAL));
    }

    private static String name(Executable member) {
        String owner = member.getDeclaringClass().getSimpleName();
        return member instanceof Constructor<?> ? owner + ".<init>" : owner + "." + member.getName();
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, PublicApi.class.getClassLoader());
        } catch (ClassNotFoundException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
