/**
 * The manifest's `paths` field (src/inputs/manifest.ts, checked by src/inputs/paths.ts): kept
 * as the list it is, and every problem of it reported with the manifest's others.
 */
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/inputs/manifest.ts';
import { temporaryWorkspace } from '../support/plan-inputs.ts';

const workspace = temporaryWorkspace('manifest-paths-test-');

function read(text: string) {
  const manifest = parseManifest(text, workspace.root);
  if (manifest === undefined) throw new Error('expected a manifest');
  return manifest;
}

const lines = (text: string) =>
  read(text).problems.map(({ input, problem }) => `${input}: ${problem}`);

describe("a manifest entry's paths", () => {
  it('keeps the patterns as written, in their order', () => {
    const manifest = read(
      [
        'agents:',
        '  support:',
        '    paths: [apps/support/**, libs/shared/**]',
        '  research:',
        "    paths: [apps/research/**, '!**/*.md', 'apps/{a,b}/[abc]?.py']",
        '  docs:',
      ].join('\n'),
    );
    expect(manifest.problems).toEqual([]);
    expect(manifest.agents.map(({ key, entry }) => [key, entry.paths])).toEqual([
      ['support', ['apps/support/**', 'libs/shared/**']],
      ['research', ['apps/research/**', '!**/*.md', 'apps/{a,b}/[abc]?.py']],
      ['docs', undefined],
    ]);
  });

  it('reads paths in a JSON file as in YAML', () => {
    const file = workspace.write(
      'deploy/agents.json',
      JSON.stringify({ agents: { support: { paths: ['apps/support/**'] } } }),
    );
    expect(read(file).agents[0]?.entry.paths).toEqual(['apps/support/**']);
  });

  it("reports each bad pattern by its path with the manifest's other problems, at once", () => {
    const text = [
      'agents:',
      '  support:',
      "    paths: ['/apps/**', libs/shared/**, 'apps/[x']",
      '    image_url: x',
      '  Research:',
      '    paths: []',
      '  docs:',
      '    paths: docs/**',
      '    secrets: OPENAI_API_KEY',
    ].join('\n');
    expect(lines(text).map((line) => line.split(': ')[0])).toEqual([
      'agents.support.paths[0]',
      'agents.support.paths[2]',
      'agents.support.image_url',
      'agents.Research',
      'agents.Research.paths',
      'agents.docs.paths',
      'agents.docs.secrets',
    ]);
  });

  it('keeps an entry whose paths are bad without them, its other fields still read', () => {
    const manifest = read('agents:\n  support:\n    paths: [a/../b]\n    repo-ref: main\n');
    expect(manifest.agents[0]?.entry).toEqual({ 'repo-ref': 'main' });
  });
});
