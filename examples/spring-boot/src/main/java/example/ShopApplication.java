package example;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The shop's billing inside a Spring Boot web application: {@code billing.topups} and {@code
 * billing.wallets} run on the embedded engine, built by toa4j's starter from {@code
 * application.properties}; {@link Billing} serves them.
 */
@SpringBootApplication
public class ShopApplication {
  public static void main(String[] args) {
    SpringApplication.run(ShopApplication.class, args);
  }
}
