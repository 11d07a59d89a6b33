package io.toa4j.storage.mariadb;

import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;

/**
 * Opens the MariaDB storage: {@code storage: mariadb} in a context.
 *
 * <p>Options: {@code url}, a JDBC URL naming a database, such as {@code
 * jdbc:mariadb://127.0.0.1:3306/test?user=root}; {@code user} and {@code password}, both optional;
 * {@code pool-size} (10 connections); {@code statement-timeout-seconds} (6: the server stops a
 * statement that runs longer, and a connection quiet for 2 s more is taken as lost, see {@link
 * Timeouts}). Without a {@code url} option the environment variable {@code TOA_MARIADB_URL} is
 * used, else {@code jdbc:mariadb://127.0.0.1:3306/test} as user {@code root}. Each component gets
 * tables of its own in that database ({@code billing.wallets} in {@code billing_wallets_records}
 * and its kin), created and migrated when the component first asks for its store.
 *
 * <p>Opening fails at once, naming the URL (never the password), when the server cannot be reached.
 * The storage it opens is thread-safe and owns one connection pool, closed with it. Stateless and
 * thread-safe itself.
 */
public final class MariadbStorageProvider implements StorageProvider {
  @Override
  public String name() {
    return "mariadb";
  }

  @Override
  public Storage open(StorageSettings settings) {
    return MariadbStorage.open(Server.from(settings.options(), System.getenv()));
  }
}
