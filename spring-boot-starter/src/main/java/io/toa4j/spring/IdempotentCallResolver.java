package io.toa4j.spring;

import io.toa4j.idempotency.IdempotentCalls;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Gives a controller method its {@link IdempotentCall}: the request, its mapped route, and whether
 * a key is required.
 */
final class IdempotentCallResolver implements HandlerMethodArgumentResolver {
  private final IdempotentCalls calls;

  IdempotentCallResolver(IdempotentCalls calls) {
    this.calls = calls;
  }

  @Override
  public boolean supportsParameter(MethodParameter parameter) {
    return parameter.getParameterType() == IdempotentCall.class;
  }

  @Override
  public IdempotentCall resolveArgument(
      MethodParameter parameter,
      ModelAndViewContainer mav,
      NativeWebRequest web,
      WebDataBinderFactory binders) {
    HttpServletRequest request = web.getNativeRequest(HttpServletRequest.class);
    HttpServletResponse response = web.getNativeResponse(HttpServletResponse.class);
    if (request == null || response == null) {
      throw new IllegalStateException(
          "An IdempotentCall is made from a servlet request; "
              + parameter.getMethod()
              + " is not served by one");
    }
    Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
    String route = pattern == null ? request.getRequestURI() : pattern.toString();
    boolean required =
        parameter.hasParameterAnnotation(IdempotencyKeyRequired.class)
            || parameter.hasMethodAnnotation(IdempotencyKeyRequired.class);
    return new IdempotentCall(calls, request, response, route, required);
  }
}
