package io.toa4j.manifest;

import java.io.IOException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.PatternSyntaxException;

/**
 * Finds a context's component folders: every folder matched by one of the {@code components} glob
 * patterns, relative to the context's folder. Hidden folders (a name starting with '.') are neither
 * matched nor searched, and a matched folder is not searched for more components.
 */
final class ComponentFinder {
  private ComponentFinder() {}

  /** The matched folders, sorted, each with the pattern that first matched it. */
  static Map<Path, Declared> find(Path contextFolder, List<Declared> patterns) {
    Map<Path, Declared> found = new TreeMap<>();
    for (Declared pattern : patterns) {
      for (Path folder : matches(contextFolder, pattern)) {
        found.putIfAbsent(folder, pattern);
      }
    }
    return found;
  }

  private static List<Path> matches(Path root, Declared pattern) {
    String glob = glob(pattern);
    PathMatcher matcher = matcher(root, pattern, glob);
    int depth = glob.contains("**") ? Integer.MAX_VALUE : glob.split("/").length;
    List<Path> found = new ArrayList<>();
    try {
      Files.walkFileTree(
          root, EnumSet.of(FileVisitOption.FOLLOW_LINKS), depth, new Visitor(root, matcher, found));
    } catch (IOException e) {
      throw new ManifestException(
          pattern.location(),
          "cannot search " + root + " (" + e + "); check that its folders are readable",
          e);
    }
    return found;
  }

  private static String glob(Declared pattern) {
    String fix = "write a pattern relative to the context's folder, such as components/*";
    String glob = pattern.text(fix);
    if (glob.isBlank() || glob.startsWith("/") || Path.of(glob).isAbsolute()) {
      throw pattern.refuse("'" + glob + "' is not a relative pattern; " + fix);
    }
    if (List.of(glob.split("/")).contains("..")) {
      throw pattern.refuse("'" + glob + "' reaches outside the context's folder; " + fix);
    }
    return glob;
  }

  private static PathMatcher matcher(Path root, Declared pattern, String glob) {
    try {
      return root.getFileSystem().getPathMatcher("glob:" + glob);
    } catch (PatternSyntaxException e) {
      throw pattern.refuse(
          "'"
              + glob
              + "' is not a glob pattern ("
              + e.getDescription()
              + "); write a pattern such as components/* or services/*/components/*");
    }
  }

  private static final class Visitor extends SimpleFileVisitor<Path> {
    private final Path root;
    private final PathMatcher matcher;
    private final List<Path> found;

    Visitor(Path root, PathMatcher matcher, List<Path> found) {
      this.root = root;
      this.matcher = matcher;
      this.found = found;
    }

    @Override
    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
      if (dir.equals(root)) {
        return FileVisitResult.CONTINUE;
      }
      if (hidden(dir)) {
        return FileVisitResult.SKIP_SUBTREE;
      }
      if (matcher.matches(root.relativize(dir))) {
        found.add(dir);
        return FileVisitResult.SKIP_SUBTREE;
      }
      return FileVisitResult.CONTINUE;
    }

    /** Folders at the depth limit arrive here rather than in {@link #preVisitDirectory}. */
    @Override
    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
      if (attrs.isDirectory() && !hidden(file) && matcher.matches(root.relativize(file))) {
        found.add(file);
      }
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
      if (e instanceof FileSystemLoopException) {
        return FileVisitResult.CONTINUE;
      }
      throw e;
    }

    private static boolean hidden(Path path) {
      return path.getFileName().toString().startsWith(".");
    }
  }
}
