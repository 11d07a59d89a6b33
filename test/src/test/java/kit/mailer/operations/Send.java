package kit.mailer.operations;

import io.toa4j.api.Effect;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Mails a placed order: the receiver of kit.orders.created. An order of {@code poison} fails every
 * time; one of {@code slow} waits until a test {@linkplain #RELEASE releases} it.
 */
public class Send implements Effect<Send.Input> {
  /** Released by a test that has seen a slow mail pending. */
  public static volatile CountDownLatch RELEASE = new CountDownLatch(1);

  public record Input(String item) {}

  @Override
  public Object effect(Input input) {
    if ("poison".equals(input.item()))
      throw new IllegalStateException("the mail server refuses " + input.item());
    if ("slow".equals(input.item())) {
      try {
        if (!RELEASE.await(30, TimeUnit.SECONDS))
          throw new IllegalStateException("the slow mail was never released");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    return null;
  }
}
