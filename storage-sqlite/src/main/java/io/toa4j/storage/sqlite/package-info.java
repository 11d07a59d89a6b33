/**
 * The embedded storage: one SQLite file per component under the context's {@code .toa/storage/}
 * folder, in WAL mode with {@code synchronous=FULL}, so a commit that answered is on disk and
 * survives both a killed process and a power loss (given a disk that honours fsync).
 */
package io.toa4j.storage.sqlite;
