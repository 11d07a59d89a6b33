package io.toa4j.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.ValueInstantiators;
import tools.jackson.databind.deser.std.StdValueInstantiator;
import tools.jackson.databind.introspect.AnnotatedConstructor;
import tools.jackson.databind.module.SimpleModule;

/**
 * Values made through their constructors (records, classes with a properties constructor) called
 * through a method handle that takes the arguments as an array. Jackson calls such a constructor
 * with {@code MethodHandle.invokeWithArguments}, which adapts the handle to the arguments' types on
 * every call: on Java 17 that was about 3 % of a host's CPU for a call whose input is a record. The
 * handle made here is adapted once, when Jackson first makes the value's deserializer; a
 * constructor that throws is reported as Jackson reports it. Everything else about reading the
 * value is Jackson's.
 */
final class Constructors extends SimpleModule {
  private static final long serialVersionUID = 1L;

  Constructors() {
    super("toa-constructors");
  }

  @Override
  public void setupModule(SetupContext context) {
    super.setupModule(context);
    context.addValueInstantiators(
        new ValueInstantiators() {
          @Override
          public ValueInstantiator findValueInstantiator(
              DeserializationConfig config, BeanDescription.Supplier description) {
            return null; // Jackson's own, modified below
          }

          @Override
          public ValueInstantiator modifyValueInstantiator(
              DeserializationConfig config,
              BeanDescription.Supplier description,
              ValueInstantiator found) {
            if (found.getClass() != StdValueInstantiator.class) return found;
            StdValueInstantiator standard = (StdValueInstantiator) found;
            if (!(standard.getWithArgsCreator() instanceof AnnotatedConstructor creator)
                || creator.getParameterCount() == 0) return found;
            MethodHandle spread = spreader(creator.getAnnotated());
            return spread == null ? found : new Spreading(standard, spread);
          }
        });
  }

  /**
   * The constructor as a handle from an array of its arguments to the value; null when it cannot
   * be.
   */
  private static MethodHandle spreader(Constructor<?> constructor) {
    try {
      if (!constructor.canAccess(null) && !constructor.trySetAccessible()) return null;
      MethodHandle handle = MethodHandles.lookup().unreflectConstructor(constructor);
      return handle
          .asType(handle.type().generic())
          .asSpreader(Object[].class, constructor.getParameterCount());
    } catch (IllegalAccessException | SecurityException e) {
      return null; // Jackson's way then
    }
  }

  /** Jackson's instantiator, but for the call of its constructor with the arguments it gathered. */
  private static final class Spreading extends StdValueInstantiator {
    private static final long serialVersionUID = 1L;
    private final transient MethodHandle spread;

    Spreading(StdValueInstantiator standard, MethodHandle spread) {
      super(standard);
      this.spread = spread;
    }

    @Override
    public Object createFromObjectWith(DeserializationContext context, Object[] arguments)
        throws JacksonException {
      try {
        return (Object) spread.invokeExact(arguments);
      } catch (Exception e) { // what StdValueInstantiator does with a constructor that throws
        return context.handleInstantiationProblem(
            _valueClass, arguments, rewrapCtorProblem(context, e));
      } catch (Error e) {
        throw e;
      } catch (
          Throwable
              e) { // neither an exception nor an error: no constructor written in Java throws one
        throw new IllegalStateException(e);
      }
    }
  }
}
