/** Programs of the machine that tests run: a cluster's server programs, iproute2. */
package io.toa4j.testkit.os;
