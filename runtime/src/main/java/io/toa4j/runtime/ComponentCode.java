package io.toa4j.runtime;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.JavacTask;
import io.toa4j.api.Transition;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.spi.OwnerOnly;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.ForwardingJavaFileObject;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A component's classes: compiled from the {@code .java} files under its folder, or, when it has
 * none, found on the class path under the conventional package.
 *
 * <p>Compiled output is cached under {@code .toa/classes/<label>/<hash>/}, where the hash covers
 * every source's path and content and the compiler's version, so an edit recompiles and an
 * unchanged component starts without compiling. Each component gets a class loader of its own,
 * closed with the context ({@link #close()}). Every folder of the cache is made 0700 and every file
 * in it 0600, with that mode from the start ({@link OwnerOnly}): the compiled code is the context's
 * own, and so is what it reveals.
 */
final class ComponentCode implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ComponentCode.class);
  private final ComponentManifest manifest;
  private final ClassLoader loader;

  /** Source-relative path without extension ({@code operations/Credit}) to binary class name. */
  private final Map<String, String> classes;

  private ComponentCode(
      ComponentManifest manifest, ClassLoader loader, Map<String, String> classes) {
    this.manifest = manifest;
    this.loader = loader;
    this.classes = classes;
  }

  /**
   * Closes the component's own class loader, if it has one (a precompiled component's classes are
   * the class path's): its open class files are released, and no class is loaded from it again.
   * Classes already loaded stay usable.
   */
  @Override
  public void close() {
    if (loader instanceof URLClassLoader own) {
      try {
        own.close();
      } catch (IOException e) {
        LOG.warn(
            "The class loader of component {} did not close: {}", manifest.label(), e.toString());
      }
    }
  }

  /** The conventional package of precompiled component classes: {@code billing.wallets}. */
  static String conventionalPackage(ComponentManifest manifest) {
    String name = manifest.name().toLowerCase(Locale.ROOT);
    return manifest.namespace().equals("default")
        ? name
        : manifest.namespace().toLowerCase(Locale.ROOT) + "." + name;
  }

  static ComponentCode load(ComponentManifest manifest, Path cacheRoot) {
    List<Path> sources = sources(manifest.directory());
    ClassLoader parent = ComponentCode.class.getClassLoader();
    if (sources.isEmpty()) return new ComponentCode(manifest, parent, Map.of());
    Path output = cacheRoot.resolve(manifest.label()).resolve(hash(manifest.directory(), sources));
    Map<String, String> classes = compile(manifest, sources, output);
    try {
      URLClassLoader loader =
          new URLClassLoader(
              "component " + manifest.label(), new URL[] {output.toUri().toURL()}, parent);
      return new ComponentCode(manifest, loader, classes);
    } catch (MalformedURLException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The class compiled from {@code <folder>/<Simple>.java}, or, for a precompiled component, the
   * class {@code <package>.<folder>.<Simple>}; empty when there is none.
   */
  Optional<Class<?>> find(String folder, String simpleName) {
    String relative = folder + "/" + simpleName;
    String binary =
        classes.isEmpty()
            ? conventionalPackage(manifest) + "." + folder + "." + simpleName
            : classes.get(relative);
    if (binary == null) return Optional.empty();
    try {
      return Optional.of(Class.forName(binary, true, loader));
    } catch (ClassNotFoundException e) {
      return Optional.empty();
    }
  }

  /** Every class this component's sources define under a folder, by simple name. */
  List<String> simpleNamesIn(String folder) {
    return classes.keySet().stream()
        .filter(k -> k.startsWith(folder + "/") && k.indexOf('/', folder.length() + 1) < 0)
        .map(k -> k.substring(folder.length() + 1))
        .sorted()
        .collect(Collectors.toList());
  }

  private static List<Path> sources(Path directory) {
    if (!Files.isDirectory(directory)) return List.of(); // declared in code or on the class path
    try (Stream<Path> files = Files.walk(directory)) {
      return files
          .filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
          .filter(p -> !hidden(directory.relativize(p)))
          .sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the sources of " + directory, e);
    }
  }

  private static boolean hidden(Path relative) {
    for (Path part : relative) {
      String s = part.toString();
      if (s.startsWith(".") || s.equals("target")) return true;
    }
    return false;
  }

  private static String hash(Path directory, List<Path> sources) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(Runtime.version().toString().getBytes(StandardCharsets.UTF_8));
      sha.update(apiLocation().getBytes(StandardCharsets.UTF_8));
      for (Path source : sources) {
        sha.update(directory.relativize(source).toString().getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(Files.readAllBytes(source));
        sha.update((byte) 0);
      }
      return HexFormat.of().formatHex(sha.digest(), 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the sources of " + directory, e);
    }
  }

  private static Map<String, String> compile(
      ComponentManifest manifest, List<Path> sources, Path output) {
    Path index = output.resolve("classes.index");
    Path cacheRoot = output.getParent().getParent();
    if (cacheRoot.getParent() != null)
      OwnerOnly.folder(cacheRoot.getParent(), LOG::warn); // .toa/ itself
    OwnerOnly.folder(cacheRoot, LOG::warn);
    OwnerOnly.folder(output.getParent(), LOG::warn);
    if (Files.isRegularFile(index)) {
      OwnerOnly.check(output, LOG::warn);
      return readIndex(index);
    }
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    if (compiler == null) {
      throw new StartupException(
          "Component "
              + manifest.label()
              + " has Java sources, but this Java runtime has no compiler; run toa with a JDK, not a JRE");
    }
    Path staging;
    try {
      staging =
          Files.createTempDirectory(
              output.getParent(), ".compiling-", OwnerOnly.folderAttributes(output));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create the class cache under " + output.getParent(), e);
    }
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Map<String, String> classes = new LinkedHashMap<>();
    try (StandardJavaFileManager standard =
            compiler.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8);
        OwnerOnlyOutput files = new OwnerOnlyOutput(standard)) {
      List<String> options =
          List.of(
              "-d",
              staging.toString(),
              "-classpath",
              classPath(),
              "--release",
              "17",
              "-parameters",
              "-proc:none",
              "-implicit:none");
      JavacTask task =
          (JavacTask)
              compiler.getTask(
                  null,
                  files,
                  diagnostics,
                  options,
                  null,
                  standard.getJavaFileObjectsFromPaths(sources));
      boolean ok = true;
      for (CompilationUnitTree unit : task.parse()) {
        String pkg = unit.getPackageName() == null ? "" : unit.getPackageName().toString();
        Path source = Path.of(unit.getSourceFile().toUri());
        String relative =
            manifest.directory().relativize(source).toString().replace(File.separatorChar, '/');
        String withoutExtension = relative.substring(0, relative.length() - ".java".length());
        String simple = withoutExtension.substring(withoutExtension.lastIndexOf('/') + 1);
        classes.put(withoutExtension, pkg.isEmpty() ? simple : pkg + "." + simple);
      }
      if (hasErrors(diagnostics)) ok = false;
      if (ok) {
        task.generate();
        ok = !hasErrors(diagnostics);
      }
      if (!ok) throw new StartupException(describe(manifest, diagnostics));
      writeIndex(staging.resolve("classes.index"), classes);
      publish(staging, output);
      return classes;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot compile component " + manifest.label(), e);
    } finally {
      deleteQuietly(staging);
    }
  }

  private static boolean hasErrors(DiagnosticCollector<JavaFileObject> diagnostics) {
    return diagnostics.getDiagnostics().stream()
        .anyMatch(d -> d.getKind() == Diagnostic.Kind.ERROR);
  }

  private static String describe(
      ComponentManifest manifest, DiagnosticCollector<JavaFileObject> diagnostics) {
    StringBuilder message =
        new StringBuilder("Component " + manifest.label() + " does not compile:");
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() != Diagnostic.Kind.ERROR) continue;
      String file = d.getSource() == null ? "?" : Path.of(d.getSource().toUri()).toString();
      message
          .append(System.lineSeparator())
          .append("  ")
          .append(file)
          .append(':')
          .append(d.getLineNumber())
          .append(": ")
          .append(d.getMessage(Locale.ROOT));
    }
    return message.toString();
  }

  /** Moves a finished compilation into place; a concurrent twin that got there first wins. */
  private static void publish(Path staging, Path output) throws IOException {
    try {
      Files.move(staging, output, StandardCopyOption.ATOMIC_MOVE);
    } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
      if (!Files.isRegularFile(output.resolve("classes.index"))) throw e;
    } catch (IOException e) {
      if (!Files.isRegularFile(output.resolve("classes.index"))) throw e;
    }
  }

  private static void writeIndex(Path index, Map<String, String> classes) throws IOException {
    StringBuilder text = new StringBuilder();
    classes.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    Files.writeString(
        Files.createFile(index, OwnerOnly.fileAttributes(index)), text, StandardCharsets.UTF_8);
  }

  private static Map<String, String> readIndex(Path index) {
    try {
      Map<String, String> classes = new LinkedHashMap<>();
      for (String line : Files.readAllLines(index, StandardCharsets.UTF_8)) {
        int eq = line.indexOf('=');
        if (eq > 0) classes.put(line.substring(0, eq), line.substring(eq + 1));
      }
      return classes;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the class cache index " + index, e);
    }
  }

  private static String classPath() {
    List<String> entries = new ArrayList<>();
    entries.add(apiLocation());
    String own = System.getProperty("java.class.path", "");
    if (!own.isEmpty()) entries.add(own);
    return String.join(File.pathSeparator, entries);
  }

  private static String apiLocation() {
    try {
      return Path.of(Transition.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException("Cannot locate the toa4j API classes", e);
    }
  }

  private static void deleteQuietly(Path directory) {
    if (!Files.exists(directory)) return;
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // a leftover staging folder is harmless: it is never read
    }
  }

  /**
   * The compiler's file manager, writing each class file 0600 and each package folder 0700 from
   * their creation, where javac's own would leave them to the umask.
   */
  private static final class OwnerOnlyOutput extends ForwardingJavaFileManager<JavaFileManager> {
    OwnerOnlyOutput(JavaFileManager files) {
      super(files);
    }

    @Override
    public JavaFileObject getJavaFileForOutput(
        Location location, String className, JavaFileObject.Kind kind, FileObject sibling)
        throws IOException {
      JavaFileObject file = super.getJavaFileForOutput(location, className, kind, sibling);
      Path path = Path.of(file.toUri());
      return new ForwardingJavaFileObject<>(file) {
        @Override
        public OutputStream openOutputStream() throws IOException {
          Files.createDirectories(path.getParent(), OwnerOnly.folderAttributes(path));
          Set<StandardOpenOption> options =
              Set.of(
                  StandardOpenOption.CREATE,
                  StandardOpenOption.WRITE,
                  StandardOpenOption.TRUNCATE_EXISTING);
          return Channels.newOutputStream(
              Files.newByteChannel(path, options, OwnerOnly.fileAttributes(path)));
        }
      };
    }
  }
}
