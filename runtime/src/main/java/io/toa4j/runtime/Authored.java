package io.toa4j.runtime;

import io.toa4j.api.Failure;
import java.util.function.Supplier;

/**
 * Runs the author's code (an operation, a receiver's condition and request): whatever it throws
 * becomes a {@link Failure} that says where it came from, with a code that says whether trying
 * again can help. Stateless.
 *
 * <p>A {@link LinkageError} ({@code NoSuchMethodError}, {@code NoClassDefFoundError}, {@code
 * AbstractMethodError}, a class that failed to initialize) is {@link Failure.Code#LINKAGE},
 * permanent: the code was compiled against classes other than those it runs with, and every attempt
 * in this process fails alike. Any other exception, and an {@code AssertionError}, is {@link
 * Failure.Code#SYSTEM}, transient. Other errors pass as they are.
 */
final class Authored {
  private Authored() {}

  /** The author's code. */
  interface Code<T> {
    T run() throws Exception;
  }

  /**
   * What the code returned.
   *
   * @param where names the code in the failure's message, such as {@code billing.wallets.credit};
   *     asked only when it failed, since every call runs this
   * @throws Failure what it threw, as is when it threw a failure
   */
  static <T> T run(Supplier<String> where, Code<T> code) {
    try {
      return code.run();
    } catch (Failure f) {
      throw f;
    } catch (LinkageError e) {
      throw linkage(where.get(), e);
    } catch (Exception | AssertionError e) {
      throw new Failure(Failure.Code.SYSTEM, where.get() + " threw " + e, e);
    }
  }

  /** The failure for a class of the author's code that does not link. */
  static Failure linkage(String where, LinkageError e) {
    return new Failure(
        Failure.Code.LINKAGE,
        where
            + " cannot run: "
            + e
            + "; it was compiled against classes other than those it runs with (or one of them failed"
            + " to initialize), so every attempt fails alike; build it again against the classes it runs with",
        e);
  }
}
