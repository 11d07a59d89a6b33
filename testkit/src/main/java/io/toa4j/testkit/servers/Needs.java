package io.toa4j.testkit.servers;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The servers a test class, or one test, needs: when one of them does not answer, it is not run and
 * says why, loudly, rather than failing on a machine that lacks the server; with {@code
 * TOA_REQUIRE_SERVERS} set it fails instead, naming the server. Put it on the tests that need the
 * server and on no others, so that everything else runs without it. A test that controls a server
 * as well as using it names that too, such as {@link Server#RABBITMQ_CONTROL} for rabbitmqctl, and
 * is not run when the server is on another machine.
 *
 * <pre>{@code
 * @Needs({Server.POSTGRES, Server.RABBITMQ})
 * class DistributedFlowTest { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(ServerCondition.class)
public @interface Needs {
  Server[] value();
}
