/** The `origin` remote's URL, in each syntax git takes, as the code host and `owner/name`. */
import { describe, expect, it } from 'vitest';
import { parseRemoteUrl } from '../../src/cli/git.ts';

describe('parseRemoteUrl', () => {
  it.each([
    ['git@github.com:acme/agent.git', 'github.com', 'acme/agent'],
    ['github.com:acme/agent', 'github.com', 'acme/agent'],
    ['https://github.com/acme/agent.git', 'github.com', 'acme/agent'],
    ['https://github.com/acme/agent/', 'github.com', 'acme/agent'],
    ['https://x-access-token:secret@GitHub.com/acme/agent', 'github.com', 'acme/agent'],
    ['ssh://git@github.com/acme/agent', 'github.com', 'acme/agent'],
    ['ssh://git@github.com:22/acme/agent.git', 'github.com', 'acme/agent'],
    ['https://gitlab.com/group/sub/agent.git', 'gitlab.com', 'group/sub/agent'],
  ])('%s is %s and %s', (url, host, slug) => {
    expect(parseRemoteUrl(url)).toEqual({ host, slug });
  });

  it.each([
    '/srv/git/agent.git',
    'file:///srv/git/agent.git',
    'C:/repos/agent',
    'git@github.com:acme',
    '',
  ])('%s names no repository on a code host', (url) => {
    expect(parseRemoteUrl(url)).toBeUndefined();
  });
});
