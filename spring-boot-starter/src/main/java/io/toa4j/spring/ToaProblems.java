package io.toa4j.spring;

import io.toa4j.api.Failure;
import io.toa4j.idempotency.IdempotencyRefusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers what a controller's call to the context throws as the gateway answers it: an RFC 9457
 * problem ({@code application/problem+json}) with toa4j's stable {@code code}. A refusal of the
 * {@code Idempotency-Key} contract takes its status (400, 409, 422); a failure its code's (a
 * contract violation 400, a reused identity 422, a lost race 409, ...), and one of the system a 500
 * that says only that it is logged. Ordered last, so the application's own advice comes first.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
final class ToaProblems {
  private static final Logger LOG = LoggerFactory.getLogger(ToaProblems.class);

  @ExceptionHandler(IdempotencyRefusal.class)
  ResponseEntity<ProblemDetail> refused(IdempotencyRefusal refusal) {
    return problem(refusal.status(), refusal.code(), refusal.getMessage());
  }

  @ExceptionHandler(Failure.class)
  ResponseEntity<ProblemDetail> failed(Failure failure) {
    int status = failure.code().status();
    if (status < 500) return problem(status, failure.code().name(), failure.getMessage());
    LOG.error("A call to the context failed", failure);
    return problem(
        status, failure.code().name(), "the request failed inside the application; it is logged");
  }

  private static ResponseEntity<ProblemDetail> problem(int status, String code, String detail) {
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.valueOf(status), detail);
    problem.setProperty("code", code);
    return ResponseEntity.status(status).body(problem);
  }
}
