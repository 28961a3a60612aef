/**
 * A good citizen of a narrow terminal (CLI contract v1.5, "Screen columns,
 * not characters"), through dist/cli.js in a pseudo-terminal against the
 * service emulator: the live line is one row redrawn in place and cut to
 * the terminal's width, so it never fills the terminal with copies of it.
 */
import { stripVTControlCharacters } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { AGENT_REPO_URL, INTEGRATION, seedAgentRepository } from '../support/fixtures.ts';
import { runInTerminal } from '../support/terminal.ts';

const KEY = 'screen-api-key-0123456789';
const OLD = '1111111111111111111111111111111111111111';
const NEW = '2222222222222222222222222222222222222222';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
  seedAgentRepository(emu);
});
afterEach(async () => {
  await emu.close();
});

const ERASE_LINE = '\r\u001b[2K';

describe('the live line in a narrow terminal', () => {
  it('is one row redrawn in place, each redraw within 60 columns, on a commit not built yet', async () => {
    emu.seedDeployment({
      name: 'my-agent',
      source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL, build_on_push: true },
      source_revision_config: {
        repo_ref: 'main',
        agent_config_path: 'agent.json',
        repo_commit_sha: OLD,
      },
    });

    const screen = await runInTerminal(
      [
        'deploy',
        '--name',
        'my-agent',
        '--integration-id',
        INTEGRATION,
        '--wait',
        '--wait-timeout',
        '3',
      ],
      {
        columns: 60,
        env: {
          DEPLOY_API_URL: emu.url,
          DEPLOY_API_KEY: KEY,
          DEPLOY_AGENT_POLL_INTERVAL_MS: '100',
          DEPLOY_AGENT_HEARTBEAT_MS: '200',
          CIRCLECI: 'true',
          CI: 'true',
          CIRCLE_PROJECT_USERNAME: 'acme',
          CIRCLE_PROJECT_REPONAME: 'agent',
          CIRCLE_BRANCH: 'main',
          CIRCLE_SHA1: NEW,
        },
      },
    );
    // Each draw of the live line starts by going back to the row's start and erasing it.
    const draws = screen.split(ERASE_LINE).slice(1);
    const live = draws.filter((draw) => draw.includes('waiting until live'));
    expect(live.length).toBeGreaterThanOrEqual(3);
    // No newline between two draws: the next one draws over the same row.
    for (const draw of live.slice(0, -1)) expect(draw).not.toContain('\n');
    for (const draw of live) {
      const row = draw.split('\r\n')[0] ?? '';
      expect(stringWidth(row), JSON.stringify(row)).toBeLessThanOrEqual(60);
      expect(stripVTControlCharacters(row)).toMatch(
        /^… waiting until live: the latest revision .*\(\d+ s\)/,
      );
    }
    // The run's verdict says in full what the cut line could not.
    expect(screen).toContain(
      'the latest revision is for commit 111111111111, not the target 222222222222',
    );
  });
});
