package io.toa4j.manifest;

import java.io.CharArrayReader;
import java.io.InputStream;
import java.io.Reader;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.io.IOContext;
import tools.jackson.dataformat.yaml.UTF8Reader;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLFactoryBuilder;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * A YAML factory whose parsers resolve aliases and merge keys ({@link AliasingYamlParser}). A
 * copied or rebuilt factory stays one: the library's own {@code build()}, {@code copy()} and {@code
 * rebuild()} make a plain {@code YAMLFactory}.
 */
final class AliasingYamlFactory extends YAMLFactory {
  private static final long serialVersionUID = 1L;

  private AliasingYamlFactory(Builder builder) {
    super(builder);
  }

  private AliasingYamlFactory(AliasingYamlFactory source) {
    super(source);
  }

  /** A builder whose {@code build()} makes this factory. */
  static YAMLFactoryBuilder aliasingBuilder() {
    return new Builder();
  }

  @Override
  public YAMLFactoryBuilder rebuild() {
    return new Builder(this);
  }

  @Override
  public AliasingYamlFactory copy() {
    return new AliasingYamlFactory(this);
  }

  @Override
  protected Object readResolve() {
    return new AliasingYamlFactory(this);
  }

  @Override
  protected YAMLParser _createParser(
      ObjectReadContext readContext, IOContext ioContext, InputStream in) {
    Reader reader =
        _createReader(in, null, ioContext, readContext.getStreamReadFeatures(_streamReadFeatures));
    return parser(readContext, ioContext, reader, reader instanceof UTF8Reader);
  }

  @Override
  protected YAMLParser _createParser(
      ObjectReadContext readContext, IOContext ioContext, Reader reader) {
    return parser(
        readContext, ioContext, reader, false); // the caller's reader: the caller closes it
  }

  @Override
  protected YAMLParser _createParser(
      ObjectReadContext readContext,
      IOContext ioContext,
      char[] data,
      int offset,
      int length,
      boolean recyclable) {
    return parser(readContext, ioContext, new CharArrayReader(data, offset, length), true);
  }

  @Override
  protected YAMLParser _createParser(
      ObjectReadContext readContext, IOContext ioContext, byte[] data, int offset, int length) {
    return parser(
        readContext, ioContext, _createReader(data, offset, length, null, ioContext), true);
  }

  /** A parser as the library's own factory makes it; {@code owns}: whether it closes the reader. */
  private YAMLParser parser(
      ObjectReadContext readContext, IOContext ioContext, Reader reader, boolean owns) {
    return new AliasingYamlParser(
        readContext,
        ioContext,
        _getBufferRecycler(),
        readContext.getStreamReadFeatures(_streamReadFeatures),
        readContext.getFormatReadFeatures(_formatReadFeatures),
        _loadSettings,
        reader,
        owns);
  }

  private static final class Builder extends YAMLFactoryBuilder {
    Builder() {}

    Builder(AliasingYamlFactory base) {
      super(base);
    }

    @Override
    public AliasingYamlFactory build() {
      return new AliasingYamlFactory(this);
    }
  }
}
