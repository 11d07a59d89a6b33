/**
 * The PostgreSQL storage: one schema per component in one database, holding its records, outbox and
 * inbox, each commit one transaction. See the module's README for its design and costs.
 */
package io.toa4j.storage.postgres;
