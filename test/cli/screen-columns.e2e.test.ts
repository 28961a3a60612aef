/**
 * A good citizen of a narrow terminal, through dist/cli.js in a pseudo-terminal against the
 * service emulator: the live line is one row redrawn in place and cut to
 * the terminal's width, so it never fills the terminal with copies of it;
 * the `list` and `repos` tables fit the width in screen columns, keep a
 * name whole beside its id when both fit (hardening-vii-tables.e2e.test.ts:
 * when they do not), and leave out a column no item fills.
 */
import { stripVTControlCharacters } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { AGENT_REPO_URL, INTEGRATION, seedAgentRepository } from '../support/fixtures.ts';
import { runInTerminal } from '../support/terminal.ts';
import { QUICK } from '../support/quick.ts';

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

    const { screen, exitCode } = await runInTerminal(
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
          ...QUICK,
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
    expect(exitCode).toBe(1);
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
    // The run's verdict says in full what the cut line could not (its rows broken between words).
    expect(screen.replaceAll('\r\n  ', ' ')).toContain(
      'the latest revision is for commit 111111111111, not the target 222222222222',
    );
  });
});

/** The table's lines as a terminal shows them, each split at its runs of spaces. */
function tableLines(screen: string): string[] {
  return screen.split('\r\n').filter((line) => line.trim() !== '');
}

describe('the tables in an 80-column terminal', () => {
  const env = () => ({ DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY });
  const NAMES = [
    'my-agent-pr-9',
    'my-agent-pr-999',
    'エージェント-本番-東京リージョン',
    '🚀-rocket-agent-👩‍💻-preview-🇯🇵',
  ];

  it('list: every line within 80 columns, names and ids whole, no empty TYPE or IMAGE VERSION column', async () => {
    const seeded = emu.seedDeployments(NAMES.length, (i) => ({
      name: NAMES[i] ?? '',
      status: i === 0 ? 'READY' : 'AWAITING_DATABASE',
    }));

    const { screen, exitCode } = await runInTerminal(['list'], { columns: 80, env: env() });
    expect(exitCode).toBe(0);
    const lines = tableLines(screen);

    expect(lines).toHaveLength(NAMES.length + 1);
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^NAME +ID +STATUS\b/);
    expect(lines[0]).not.toContain('TYPE');
    expect(lines[0]).not.toContain('IMAGE VERSION');
    for (const deployment of seeded) {
      const line = lines.find((each) => each.includes(deployment.id));
      expect(line?.split(/ {2,}/).slice(0, 2)).toEqual([deployment.name, deployment.id]);
    }
  });

  it('list: a column a person does not act on gives way before the name, which stays whole', async () => {
    emu.seedDeployments(2, (i) => ({
      name: `preview-deployment-name-pr-${i === 0 ? '9' : '999'}`,
      image_version: '2025.11.26-build.1234567',
    }));

    const { screen, exitCode } = await runInTerminal(['list'], { columns: 80, env: env() });
    expect(exitCode).toBe(0);
    const lines = tableLines(screen);

    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    // UPDATED, SOURCE and IMAGE VERSION gave way; the status stays longest.
    expect(lines[0]).toMatch(/^NAME +ID +STATUS$/);
    expect(lines.map((line) => line.split(/ {2,}/)[0])).toEqual([
      'NAME',
      'preview-deployment-name-pr-9',
      'preview-deployment-name-pr-999',
    ]);
  });

  it('repos: within 80 columns, the repository and its id whole', async () => {
    emu.seedRepos(INTEGRATION, [
      { name: 'エージェント-リポジトリ-本番環境', owner: 'acme-corporation' },
    ]);

    const { screen, exitCode } = await runInTerminal(['repos', '--integration-id', INTEGRATION], {
      columns: 80,
      env: env(),
    });
    expect(exitCode).toBe(0);
    const lines = tableLines(screen);

    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    expect(lines.some((line) => line.startsWith('acme/agent  '))).toBe(true);
    const row = lines.find((line) => line.startsWith('acme-corporation/'));
    expect(row).toMatch(/^acme-corporation\/エージェント-リポジトリ-本番環境 .* \d+$/);
  });
});
