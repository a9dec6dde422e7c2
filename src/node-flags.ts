/**
 * The V8 flags the server runs with: `npm start` and the CLI's shebang spell them out (a test checks
 * they match), and the benchmark and child-process tests pass these.
 *
 * A bounded young generation keeps scavenges short (V8's default lets it grow to tens of megabytes).
 * 16 MB rather than 8: under the benchmark's load each scavenge promoted about half a megabyte to
 * the old generation, so scavenges half as frequent promote half as much and leave less for the
 * mark-compacts (measured: about 4% more accepted SMS/s for about 15 MB more peak RSS). A heap that
 * grows by 100% instead of V8's default factor (up to 4×) keeps peak RSS near 210 MB under the
 * benchmark's load at no measurable throughput cost.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16', '--heap-growing-percent=100'];
