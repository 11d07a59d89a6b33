package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The publisher renders an entry committed here from the engine's tree instead of the committed
 * text ({@link Binding#reread}): so that the change reads the same either way, the copy is the tree
 * the text reads back as, node for node and number type for number type, or nothing. And a tree
 * turned into plain values by the runtime's own walk ({@link Binding#plain}) is what Jackson's
 * conversion makes of it, value for value and class for class.
 */
class RereadPropertyTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  @Property(tries = 300)
  void reread_ofATreeOfPlainValues_isWhatItsTextReadsBackAs(@ForAll("trees") JsonNode tree) {
    JsonNode copy = Binding.reread(tree);

    // equals compares number nodes by type as well as value: an int is not a long of the same value
    assertThat(copy).isEqualTo(Binding.tree(Binding.json(tree)));
    if (tree.isContainer()) assertThat(copy).as("a copy, not the caller's tree").isNotSameAs(tree);
  }

  @Property(tries = 100)
  void reread_ofATreeHoldingAValueWhoseTextReadsBackOtherwise_isNothing(
      @ForAll("trees") JsonNode tree, @ForAll("otherwise") JsonNode odd) {
    ObjectNode holder = NODES.objectNode();
    holder.set("plain", tree);
    holder.set("odd", NODES.arrayNode().add(odd));

    assertThat(Binding.reread(holder)).isNull();
  }

  @Property(tries = 300)
  void plain_ofAnyTree_isWhatJacksonConvertsItTo_aWholeNumberBeyondALongABigInteger(
      @ForAll("trees") JsonNode tree, @ForAll("otherwise") JsonNode odd) {
    ObjectNode holder = NODES.objectNode();
    holder.set("tree", tree);
    holder.set("odd", NODES.arrayNode().add(odd));

    for (JsonNode node : List.of(tree, holder)) {
      assertSame(Binding.plain(node), converted(node));
    }
  }

  /**
   * What Jackson converts a tree to, node by node where it holds a whole number beyond a long
   * (which USE_LONG_FOR_INTS refuses), such a number being a BigInteger.
   */
  private static Object converted(JsonNode node) {
    try {
      return Binding.VALUES.convertValue(node, Object.class);
    } catch (RuntimeException refused) {
      if (node.isBigInteger() && !node.canConvertToLong()) return node.bigIntegerValue();
      if (node.isObject()) {
        java.util.Map<String, Object> values = new java.util.LinkedHashMap<>();
        node.properties()
            .forEach(property -> values.put(property.getKey(), converted(property.getValue())));
        return values;
      }
      if (node.isArray()) {
        List<Object> values = new java.util.ArrayList<>();
        node.forEach(element -> values.add(converted(element)));
        return values;
      }
      throw refused;
    }
  }

  /**
   * The same value, of the same class, all the way down: equals alone lets a HashMap equal a
   * LinkedHashMap.
   */
  private static void assertSame(Object actual, Object expected) {
    if (expected == null) {
      assertThat(actual).isNull();
      return;
    }
    assertThat(actual).hasSameClassAs(expected);
    if (expected instanceof java.util.Map<?, ?> map) {
      assertThat(List.copyOf(((java.util.Map<?, ?>) actual).keySet()))
          .isEqualTo(List.copyOf(map.keySet()));
      map.forEach((key, value) -> assertSame(((java.util.Map<?, ?>) actual).get(key), value));
    } else if (expected instanceof List<?> list) {
      assertThat((List<?>) actual).hasSameSizeAs(list);
      for (int i = 0; i < list.size(); i++) assertSame(((List<?>) actual).get(i), list.get(i));
    } else if (expected instanceof byte[] bytes) {
      assertThat((byte[]) actual).isEqualTo(bytes);
    } else {
      assertThat(actual).isEqualTo(expected);
    }
  }

  @Provide
  Arbitrary<JsonNode> trees() {
    return tree(3);
  }

  @Provide
  Arbitrary<JsonNode> otherwise() {
    return Arbitraries.of(
        NODES.numberNode(new BigDecimal("1.50")),
        NODES.numberNode(0.1f),
        NODES.numberNode(Double.NaN),
        NODES.numberNode(Double.POSITIVE_INFINITY),
        NODES.binaryNode(new byte[] {1, 2, 3}),
        NODES.pojoNode(List.of(1, 2)),
        tools.jackson.databind.node.MissingNode.getInstance());
  }

  private static Arbitrary<JsonNode> tree(int depth) {
    Arbitrary<JsonNode> leaf =
        Arbitraries.oneOf(
            Arbitraries.integers().map(i -> (JsonNode) NODES.numberNode(i)),
            Arbitraries.longs()
                .map(
                    l ->
                        (JsonNode)
                            NODES.numberNode(
                                l)), // small ones too: a long node that reads back as an int
            Arbitraries.integers()
                .between(-1000, 1000)
                .map(i -> (JsonNode) NODES.numberNode((long) i)),
            Arbitraries.shorts().map(s -> (JsonNode) NODES.numberNode(s)),
            Arbitraries.bigIntegers()
                .between(BigInteger.TWO.pow(70).negate(), BigInteger.TWO.pow(70))
                .map(b -> (JsonNode) NODES.numberNode(b)),
            Arbitraries.doubles().map(d -> (JsonNode) NODES.numberNode(d)),
            Arbitraries.strings().ofMaxLength(12).map(s -> (JsonNode) NODES.stringNode(s)),
            Arbitraries.of(NODES.booleanNode(true), NODES.booleanNode(false), NODES.nullNode()));
    if (depth == 0) return leaf;
    Arbitrary<JsonNode> inner = tree(depth - 1);
    Arbitrary<JsonNode> array =
        inner
            .list()
            .ofMaxSize(4)
            .map(
                values -> {
                  var node = NODES.arrayNode();
                  values.forEach(node::add);
                  return node;
                });
    Arbitrary<JsonNode> object =
        Arbitraries.maps(Arbitraries.strings().alpha().ofMaxLength(6), inner)
            .ofMaxSize(4)
            .map(
                values -> {
                  ObjectNode node = NODES.objectNode();
                  values.forEach(node::set);
                  return node;
                });
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, leaf),
        net.jqwik.api.Tuple.of(1, array),
        net.jqwik.api.Tuple.of(2, object));
  }
}
