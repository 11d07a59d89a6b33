/**
 * The {@code toa} command: {@code toa run} serves a context, {@code toa call} calls one of its
 * operations from the shell, through the running process when there is one and in-process when
 * there is none.
 *
 * <p>Only {@link io.toa4j.cli.Toa} is public. The commands parse and print; the work is done by
 * small package-private classes: {@code ContextFolder} finds the context, {@code YamlText} reads
 * requests and prints replies, {@code Dispatch} decides where a call runs, {@code Serving}, {@code
 * ControlChannel} and {@code RunFile} make a running context reachable, and {@code Wire} is the one
 * description of what travels between the two processes.
 */
package io.toa4j.cli;
