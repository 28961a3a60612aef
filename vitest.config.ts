import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-dist.ts'],
    // Most files spend their time waiting on a spawned bundle, an emulator or git, not on the
    // CPU: two files a core keep both cores busy (the default, one a core, leaves them idle
    // half the time; on this 2-core machine it took 191 s for what now takes under a minute).
    maxWorkers: 2 * availableParallelism(),
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The JSON report lets .ci/run print a plain 'N passed, N failed' line.
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-report.json' }]],
  },
});
