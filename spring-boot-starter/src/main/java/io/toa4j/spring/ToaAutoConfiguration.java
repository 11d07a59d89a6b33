package io.toa4j.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.toa4j.http.Gateway;
import io.toa4j.http.GatewaySettings;
import io.toa4j.idempotency.IdempotentCalls;
import io.toa4j.runtime.Toa;
import io.toa4j.runtime.ToaBuilder;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * A Toa context inside a Spring Boot application, built with the builder from the {@code toa.*}
 * properties ({@link ToaProperties}), the application's {@link MeterRegistry} and, when it defines
 * one, its {@link OpenTelemetry} (else the context records its spans with {@code
 * GlobalOpenTelemetry}, where an agent or an SDK installed globally finds them). It provides:
 *
 * <ul>
 *   <li>the {@link Toa} bean, to call operations from the application's code under an identity
 *       ({@code toa.call(endpoint, request, identity)}), and its {@code admin()} face;
 *   <li>closing in Spring's lifecycle, once the requests in flight are answered and the web server
 *       has stopped, which drains the context;
 *   <li>the health contributor {@code toa}, when Actuator's health is on the class path;
 *   <li>{@link IdempotentCall} parameters and problem answers in a Spring MVC application;
 *   <li>the HTTP gateway on an address of its own, when {@code toa.gateway.enabled} is true and
 *       {@code toa4j-http} is on the class path.
 * </ul>
 *
 * Each bean backs off when the application defines its own.
 */
@AutoConfiguration
@EnableConfigurationProperties(ToaProperties.class)
public class ToaAutoConfiguration {

  /** Closed by {@link #toaClosing}, in the lifecycle, not when the bean is destroyed. */
  @Bean(destroyMethod = "")
  @ConditionalOnMissingBean
  Toa toa(
      ToaProperties properties,
      Environment environment,
      ObjectProvider<MeterRegistry> registry,
      ObjectProvider<OpenTelemetry> openTelemetry) {
    JacksonCheck.require(ToaAutoConfiguration.class.getClassLoader());
    ToaPropertyNames.refuseWhatCannotApply(environment);
    ToaBuilder builder =
        ToaContexts.builder(
            properties, Binder.get(environment), Optional.ofNullable(registry.getIfUnique()));
    openTelemetry.ifUnique(builder::openTelemetry);
    return builder.build();
  }

  @Bean
  static Closing toaClosing(Toa toa) {
    return new Closing(toa, Closing.CONTEXT_PHASE);
  }

  /** The {@code toa} health contributor. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  static class Health {
    @Bean
    @ConditionalOnMissingBean(name = "toaHealthIndicator")
    HealthIndicator toaHealthIndicator(Toa toa) {
      return new ToaHealthIndicator(toa);
    }
  }

  /**
   * The {@code Idempotency-Key} contract for controllers, and problem answers for what a call
   * throws.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  @ConditionalOnClass(WebMvcConfigurer.class)
  static class Mvc {
    /** One per application, so that its in-flight keys cover every request it serves. */
    @Bean
    @ConditionalOnMissingBean
    IdempotentCalls toaIdempotentCalls(Toa toa, ToaProperties properties) {
      return new IdempotentCalls(toa, properties.idempotency().attach());
    }

    @Bean
    WebMvcConfigurer toaIdempotentCallResolver(IdempotentCalls calls) {
      return new WebMvcConfigurer() {
        @Override
        public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
          resolvers.add(new IdempotentCallResolver(calls));
        }
      };
    }

    @Bean
    ToaProblems toaProblems() {
      return new ToaProblems();
    }

    /** Lets the requests in flight finish before the web server stops and the context closes. */
    @Bean
    RequestsInFlight toaRequestsInFlight() {
      return new RequestsInFlight();
    }
  }

  /** The HTTP gateway, on its own address: off by default. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(Gateway.class)
  @ConditionalOnBooleanProperty(name = "toa.gateway.enabled")
  static class HttpGateway {
    @Bean(destroyMethod = "")
    @ConditionalOnMissingBean
    Gateway toaGateway(Toa toa, ToaProperties properties) {
      return Gateway.start(
          toa,
          properties.gateway().socketAddress(),
          GatewaySettings.defaults()
              .withAttach(properties.idempotency().attach())
              .withOperatorRole(properties.gateway().operatorRole()));
    }

    @Bean
    static Closing toaGatewayClosing(Gateway gateway) {
      return new Closing(gateway, Closing.GATEWAY_PHASE);
    }
  }
}
