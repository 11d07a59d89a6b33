package io.toa4j.storage.postgres;

import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;

/**
 * Opens the PostgreSQL storage: {@code storage: postgres} in a context.
 *
 * <p>Options: {@code url}, a JDBC URL such as {@code jdbc:postgresql://127.0.0.1:5432/test}; {@code
 * user} and {@code password}, both optional; {@code pool-size} (10 connections); {@code
 * statement-timeout-seconds} (8: the server cancels a statement that runs longer, and a connection
 * quiet for 2 s more is taken as lost, see {@link Timeouts}). Without a {@code url} option the
 * environment variable {@code TOA_POSTGRES_URL} is used, else {@code
 * jdbc:postgresql://127.0.0.1:5432/test} as user {@code postgres}. Each component gets a schema of
 * its own ({@code billing.wallets} in {@code billing_wallets}), created and migrated when the
 * component first asks for its store.
 *
 * <p>Opening fails at once, naming the URL (never the password), when the server cannot be reached.
 * The storage it opens is thread-safe and owns one connection pool, closed with it. Stateless and
 * thread-safe itself.
 */
public final class PostgresStorageProvider implements StorageProvider {
  @Override
  public String name() {
    return "postgres";
  }

  @Override
  public Storage open(StorageSettings settings) {
    return PostgresStorage.open(Server.from(settings.options(), System.getenv()));
  }
}
