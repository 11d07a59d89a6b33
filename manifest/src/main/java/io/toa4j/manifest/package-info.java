/**
 * The application as declared: {@code context.toa.yaml} and each component's {@code
 * manifest.toa.yaml}, parsed, validated and frozen at start-up.
 *
 * <p>Everything here is immutable. A declaration that does not fit is refused with a {@link
 * ManifestException} naming the file, the YAML path, what is wrong and what would be right; nothing
 * is validated lazily later.
 */
package io.toa4j.manifest;
