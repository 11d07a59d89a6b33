/**
 * The MariaDB storage: each component's records, outbox and inbox in tables of its own, prefixed
 * with its label, in one database; each commit one transaction. See the module's README for its
 * design and costs.
 */
package io.toa4j.storage.mariadb;
