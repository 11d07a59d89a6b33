package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.api.Request;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class YamlTextTest {
  private static final String ID = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";

  @Test
  void request_flowStyle_readsQueryAndInput() throws Exception {
    Request request =
        YamlText.request("{ query: { id: " + ID + " }, input: { amount: 5000, ref: order-1 } }");

    assertThat(request.query()).contains(Query.id(ID));
    assertThat(request.input())
        .contains(JsonMapper.builder().build().readTree("{\"amount\":5000,\"ref\":\"order-1\"}"));
  }

  @Test
  void request_blockStyle_readsTheSame() {
    assertThat(YamlText.request("query:\n  id: " + ID + "\n")).isEqualTo(Request.id(ID));
  }

  @Test
  void request_blank_isTheEmptyRequest() {
    assertThat(YamlText.request("")).isEqualTo(Request.empty());
    assertThat(YamlText.request("  \n")).isEqualTo(Request.empty());
  }

  @Test
  void request_notYaml_failsWithContractNamingLineAndColumn() {
    assertThatThrownBy(() -> YamlText.request("{ query: { id: 8d1f"))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
        .hasMessageStartingWith("the request is not YAML: ")
        .hasMessageContaining("line 1, column 20")
        .hasMessageNotContaining("\n");
  }

  @Test
  void request_textWithALoneSurrogateEscape_failsWithContractSayingWhatAndWhere() {
    assertThatThrownBy(() -> YamlText.request("{ input: { ref: \"x\\udc00y\" } }"))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
        .hasMessage(
            "the request is refused: a text holds \\udc00 as its character 2, a lone surrogate: half of a UTF-16 pair, which"
                + " stands for no character at line 1, column 17; send the character itself, or escape both halves of its UTF-16 pair"
                + " (\\ud83d\\ude00 for U+1F600)");
  }

  @Test
  void request_idOfDigitsUnquoted_failsWithAHintToQuoteIt() {
    assertThatThrownBy(
            () -> YamlText.request("{ query: { id: 12345678901234567890123456789012 } }"))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
        .hasMessageContaining("YAML read 12345678901234567890123456789012 as a number")
        .hasMessageContaining("quote the id")
        .hasMessageContaining("{ query: { id: \"12345678901234567890123456789012\" } }");
    assertThat(YamlText.request("{ query: { id: \"12345678901234567890123456789012\" } }"))
        .isEqualTo(Request.id("12345678901234567890123456789012"));
  }

  @Test
  void request_idYamlReadsAsAFloat_failsWithAHintToQuoteIt() {
    assertThatThrownBy(() -> YamlText.request("{ query: { id: 1234e5 } }"))
        .isInstanceOf(Failure.class)
        .hasMessageContaining("as a number")
        .hasMessageContaining("quote the id as you typed it");
  }

  @Test
  void request_isYaml12_noIsAStringAndALeadingZeroIsDecimal() throws Exception {
    Request request =
        YamlText.request(
            "{ query: { id: "
                + ID
                + " }, input: { ref: no, mode: 0777, octal: 0o17, flag: ~, on: True } }");

    assertThat(request.input())
        .contains(
            JsonMapper.builder()
                .build()
                .readTree("{\"ref\":\"no\",\"mode\":777,\"octal\":15,\"flag\":null,\"on\":true}"));
  }

  @Test
  void print_stringsThatYaml12ReadsAsOtherValues_readBackAsStrings() {
    List<String> texts =
        List.of(
            "no", "yes", "0777", "0o17", "0x1F", "~", "null", "True", "FALSE", ".inf", "-.5", "+12",
            "1e3");
    Map<String, Object> value = new LinkedHashMap<>();
    for (int i = 0; i < texts.size(); i++) value.put("k" + i, texts.get(i));

    var tree = YamlText.tree(YamlText.print(Optional.of(value)));

    for (int i = 0; i < texts.size(); i++) {
      assertThat(tree.get("k" + i).isString())
          .as("%s printed and read again", texts.get(i))
          .isTrue();
      assertThat(tree.get("k" + i).asString()).isEqualTo(texts.get(i));
    }
  }

  @Test
  void request_repeatedKey_failsNamingTheKey() {
    assertThatThrownBy(() -> YamlText.request("{ input: { amount: 1, amount: 2 } }"))
        .isInstanceOf(Failure.class)
        .hasMessageContaining("not YAML")
        .hasMessageContaining("amount");
  }

  @Test
  void request_aliasAndMergeKey_readAsTheValuesTheyStandFor() throws Exception {
    Request request =
        YamlText.request(
            """
        query: { id: &id %s }
        input:
          owner: *id
          <<: { amount: 1, ref: order-1 }
          amount: 5000
        """
                .formatted(ID));

    assertThat(request.query()).contains(Query.id(ID));
    assertThat(request.input())
        .contains(
            JsonMapper.builder()
                .build()
                .readTree("{\"owner\":\"%s\",\"amount\":5000,\"ref\":\"order-1\"}".formatted(ID)));
  }

  @Test
  void request_aliasesExpandingPastTheBound_failWithContractNamingTheBoundAndLine() {
    StringBuilder text = new StringBuilder("input:\n  l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int level = 1; level < 9; level++) {
      text.append("  l")
          .append(level)
          .append(": &l")
          .append(level)
          .append(" [")
          .append(String.join(", ", java.util.Collections.nCopies(10, "*l" + (level - 1))))
          .append("]\n");
    }

    assertThatThrownBy(() -> YamlText.request(text.toString()))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
        .hasMessageStartingWith(
            "the request is refused: the document expands past 100000 values through its aliases at line 6, column ")
        .hasMessageContaining("use fewer aliases")
        .hasMessageNotContaining("\n");
  }

  @Test
  void request_aliasToNoAnchor_failsWithContractNamingItAndItsLine() {
    assertThatThrownBy(() -> YamlText.request("input:\n  amount: *amount\n"))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
        .hasMessage(
            "the request is refused: the alias *amount names no anchor above it at line 2, column 11;"
                + " put &amount on the value it stands for, before the alias");
  }

  @Test
  void request_twoDocuments_fails() {
    assertThatThrownBy(() -> YamlText.request("input: 1\n---\ninput: 2\n"))
        .isInstanceOf(Failure.class)
        .hasMessageContaining("more than one YAML document");
  }

  @Test
  void request_aList_failsWithTheRequestShape() {
    assertThatThrownBy(() -> YamlText.request("[1, 2]"))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
        .hasMessageContaining("query and input");
  }

  @Test
  void request_badId_failsNamingTheField() {
    assertThatThrownBy(() -> YamlText.request("{ query: { id: nope } }"))
        .isInstanceOf(Failure.class)
        .hasMessageContaining("query.id");
  }

  @Test
  void print_record_isBlockYamlWithoutDocumentMarkerOrNeedlessQuotes() {
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("id", ID);
    record.put("balance", 5000);
    record.put("paid", Map.of());
    record.put("VERSION", 1);

    assertThat(YamlText.print(Optional.of(record)))
        .isEqualTo("id: " + ID + "\nbalance: 5000\npaid: {}\nVERSION: 1\n");
  }

  @Test
  void print_emptyOutput_isNull() {
    assertThat(YamlText.print(Optional.empty())).isEqualTo("null\n");
  }

  @Test
  void print_stringsThatReadAsOtherTypes_areQuotedSoTheyReadBackAsStrings() {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("digits", "12345678901234567890123456789012");
    value.put("flag", "true");

    String yaml = YamlText.print(Optional.of(value));

    assertThat(yaml).isEqualTo("digits: \"12345678901234567890123456789012\"\nflag: \"true\"\n");
    assertThat(YamlText.tree(yaml).get("digits").isString()).isTrue();
    assertThat(YamlText.tree(yaml).get("flag").isString()).isTrue();
  }

  @Test
  void print_thenRead_givesTheSameValues() {
    Map<String, Object> value =
        Map.of("list", List.of(1, "two words", "a: b"), "text", "line one\nline two");

    String yaml = YamlText.print(Optional.of(value));

    assertThat(YamlText.tree(yaml).get("list").toString()).isEqualTo("[1,\"two words\",\"a: b\"]");
    assertThat(YamlText.tree(yaml).get("text").asString()).isEqualTo("line one\nline two");
  }
}
