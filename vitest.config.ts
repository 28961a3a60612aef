import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** GitHub's workflow parser, loaded without the source maps it ships without their sources. */
const WORKFLOW_PARSER = /[\\/]node_modules[\\/]@actions[\\/]workflow-parser[\\/].*\.js$/;

export default defineConfig({
  plugins: [
    {
      // Else vite warns once a module (some 70 lines) that each map points to missing files.
      name: 'workflow-parser-without-source-maps',
      enforce: 'pre',
      load: (id) =>
        WORKFLOW_PARSER.test(id)
          ? readFileSync(id, 'utf8').replace(/^\/\/# sourceMappingURL=.*$/m, '')
          : undefined,
    },
  ],
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-dist.ts'],
    // Most files spend their time waiting on a spawned bundle, an emulator or git, not on the
    // CPU: two files a core keep both cores busy (the default, one a core, leaves them idle
    // half the time; on this 2-core machine it took 191 s for what now takes under a minute).
    maxWorkers: 2 * availableParallelism(),
    // GitHub's workflow parser imports its JSON schemas without an import attribute, which
    // Node refuses; vitest's own transform loads them (test/repo/docs.test.ts uses it).
    server: { deps: { inline: ['@actions/workflow-parser'] } },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The JSON report lets .ci/run print a plain 'N passed, N failed' line.
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-report.json' }]],
  },
});
