package io.toa4j.testkit.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Virtual hosts made and removed in batches, on the tests' broker. */
@Needs({Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class VirtualHostsTest {
  @Test
  void taken_existFreshWithTheGuestsPermissions_andABatchReleasedIsRemoved() throws Exception {
    List<String> taken = new ArrayList<>();
    for (int i = 0; i < VirtualHosts.BATCH; i++) taken.add(VirtualHosts.take());
    assertThat(taken).doesNotHaveDuplicates().allMatch(name -> name.matches("toa_[0-9a-f]{16}"));
    assertThat(existing()).containsAll(taken);
    for (String name : taken) {
      assertThat(VirtualHosts.rabbitmqctl("list_permissions", "-p", name, "--quiet"))
          .as("the guest's permissions on %s", name)
          .containsPattern("guest\\s+\\.\\*\\s+\\.\\*\\s+\\.\\*");
    }

    for (String name : taken) VirtualHosts.release(name);
    assertThat(existing()).doesNotContainAnyElementsOf(taken);
  }

  private static List<String> existing() throws Exception {
    return VirtualHosts.rabbitmqctl("list_vhosts", "--quiet", "--no-table-headers")
        .lines()
        .map(String::strip)
        .toList();
  }
}
