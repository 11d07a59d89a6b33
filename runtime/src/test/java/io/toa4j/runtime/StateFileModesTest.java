package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Request;
import io.toa4j.spi.OwnerOnly;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Everything a running context writes under {@code .toa/} is its owner's alone. */
class StateFileModesTest {
  @TempDir Path directory;

  @Test
  void bootedShop_afterACall_everyFolderUnderToaIs0700_andEveryFileIs0600() throws Exception {
    Path context = Shop.copyTo(directory);
    try (Toa shop = Toa.builder().directory(context).build()) {
      shop.call("billing.wallets.credit", Request.of(Shop.WALLET, Shop.credit(5, "x")));

      Map<Path, Set<PosixFilePermission>> modes = modes(context.resolve(".toa"));
      assertThat(modes.keySet())
          .as("what the state folder holds")
          .anyMatch(p -> p.toString().endsWith(".class"))
          .anyMatch(p -> p.toString().endsWith("classes.index"))
          .anyMatch(p -> p.toString().endsWith(".db-wal"))
          .anyMatch(p -> p.toString().endsWith("bus.db"));
      modes.forEach(
          (path, mode) ->
              assertThat(mode)
                  .as(path.toString())
                  .isEqualTo(Files.isDirectory(path) ? OwnerOnly.FOLDER : OwnerOnly.FILE));
    }
  }

  private static Map<Path, Set<PosixFilePermission>> modes(Path root) throws Exception {
    Map<Path, Set<PosixFilePermission>> modes = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths::iterator)
        modes.put(path, Files.getPosixFilePermissions(path));
    }
    return modes;
  }
}
