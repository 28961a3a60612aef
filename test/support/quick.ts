/**
 * The quick pace every end-to-end test runs at: status checks every 100 ms instead of the
 * shipped 1 s then 2 s (src/run/ports/pace.ts), and, where a test reads the heartbeat, a
 * heartbeat every 300 ms. The one place a test's pace is set.
 */
export const QUICK: Readonly<Record<string, string>> = { DEPLOY_AGENT_POLL_INTERVAL_MS: '100' };

/** QUICK with the wait's heartbeat every 300 ms, for tests that read it. */
export const QUICK_HEARTBEAT: Readonly<Record<string, string>> = {
  ...QUICK,
  DEPLOY_AGENT_HEARTBEAT_MS: '300',
};
