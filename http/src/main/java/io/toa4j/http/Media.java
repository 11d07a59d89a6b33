package io.toa4j.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.Locale;

/** The body formats: JSON and YAML, read by {@code content-type}, written by {@code accept}. */
enum Media {
  JSON("application/json", JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build()),
  YAML(
      "application/yaml",
      YAMLMapper.builder(YAMLFactory.builder().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES).build())
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .build());

  final String type;
  private final ObjectMapper mapper;

  Media(String type, ObjectMapper mapper) {
    this.type = type;
    this.mapper = mapper;
  }

  /** The format of a body by its {@code content-type}; 415 for any other. */
  static Media ofContent(String contentType) {
    String bare = contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
    switch (bare) {
      case "application/json":
        return JSON;
      case "application/yaml":
      case "application/x-yaml":
      case "text/yaml":
        return YAML;
      default:
        throw new Problem(415, "UNSUPPORTED_MEDIA_TYPE", "content-type " + bare + " is not accepted; send application/json or application/yaml");
    }
  }

  /** The format of the answer by {@code accept}, in the order it lists; JSON when absent; 406 when none fits. */
  static Media ofAccept(String accept) {
    if (accept == null || accept.isBlank()) return JSON;
    for (String part : accept.split(",")) {
      String bare = part.split(";")[0].trim().toLowerCase(Locale.ROOT);
      if (bare.equals("application/json") || bare.equals("*/*") || bare.equals("application/*")) return JSON;
      if (bare.equals("application/yaml") || bare.equals("application/x-yaml") || bare.equals("text/yaml")) return YAML;
    }
    throw new Problem(406, "NOT_ACCEPTABLE", "accept " + accept + " names nothing this gateway writes; accept application/json or application/yaml");
  }

  JsonNode read(byte[] body) {
    try {
      JsonNode tree = mapper.readTree(body);
      return tree == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : tree;
    } catch (JsonProcessingException e) {
      String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
      throw new Problem(400, "MALFORMED", "the body is not " + name() + where + ": " + e.getOriginalMessage());
    } catch (java.io.IOException e) {
      throw new Problem(400, "MALFORMED", "the body cannot be read: " + e.getMessage());
    }
  }

  String write(Object value) {
    try {
      return mapper.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("An answer cannot be written as " + name(), e);
    }
  }
}
