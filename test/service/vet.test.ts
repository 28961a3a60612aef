/**
 * What of a deployment the service answers the run passes on (src/service/vet.ts): custom_url
 * only as an address that may be published, repo_commit_sha only as a commit, each said once.
 */
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/common/redact.ts';
import { DeploymentVetting } from '../../src/service/vet.ts';
import { MemoryLogger } from '../support/clock.ts';
import { aDeployment, OLD_SHA } from '../support/fixtures.ts';

function vetting() {
  const logger = new MemoryLogger();
  const masked: string[] = [];
  return { logger, masked, vetting: new DeploymentVetting(logger, (s) => masked.push(s)) };
}

const withUrl = (custom_url: string | null) => aDeployment({ source_config: { custom_url } });
const withCommit = (repo_commit_sha: string | null) =>
  aDeployment({ source_revision_config: { repo_ref: 'main', repo_commit_sha } });

describe('custom_url', () => {
  it('an http(s) address passes as it is, the same object, nothing said', () => {
    const { logger, vetting: v } = vetting();
    const deployment = withUrl('https://agent.example');
    expect(v.vet(deployment)).toBe(deployment);
    expect(logger.lines).toEqual([]);
  });

  it('a password is masked before anything is said, and the address passes without it', () => {
    const { logger, masked, vetting: v } = vetting();
    const vetted = v.vet(withUrl('https://deployer:hunter2-PASSWORD@preview.example/app'));
    expect(masked).toEqual(['hunter2-PASSWORD']);
    expect(vetted.source_config.custom_url).toBe('https://preview.example/app');
    expect(logger.lines).toEqual([
      "warning: the service's custom_url of 'app' holds a user or password: it is published without them (the password is masked)",
    ]);
    expect(logger.text).not.toContain('hunter2');
  });

  it.each(['javascript:alert(1)', 'data:text/html,x', 'preview.example/app'])(
    '%s is dropped, and said once however often it is seen',
    (url) => {
      const { logger, vetting: v } = vetting();
      for (let poll = 0; poll < 3; poll++) {
        expect(v.vet(withUrl(url)).source_config.custom_url).toBeNull();
      }
      expect(logger.lines).toHaveLength(1);
      expect(logger.lines[0]).toMatch(
        /^warning: the service's custom_url of 'app' is not published: it is not/,
      );
      expect(logger.text).not.toContain(url);
    },
  );
});

describe('repo_commit_sha', () => {
  it('a full sha passes, in either case', () => {
    const { logger, vetting: v } = vetting();
    expect(v.vet(withCommit(OLD_SHA.toUpperCase())).source_revision_config.repo_commit_sha).toBe(
      OLD_SHA.toUpperCase(),
    );
    expect(logger.lines).toEqual([]);
  });

  it.each(['$(id)', 'abc1234', `${OLD_SHA}\n::error::forged`, `${OLD_SHA}0`])(
    '%j is not passed on, and said once on one line',
    (sha) => {
      const { logger, vetting: v } = vetting();
      expect(v.vet(withCommit(sha)).source_revision_config.repo_commit_sha).toBeNull();
      expect(v.vet(withCommit(sha)).source_revision_config.repo_commit_sha).toBeNull();
      expect(logger.lines).toHaveLength(1);
      expect(logger.lines[0]).toContain('is not a 40-hex commit');
      expect(logger.lines[0]).not.toContain('\n');
    },
  );
});

describe('secret values in the service own fields', () => {
  const SECRET = 'held-secret-value-5b27c0';

  /** A vetting whose run knows `SECRET` (and every value masked since). */
  function knowing() {
    const logger = new MemoryLogger();
    const redactor = new Redactor();
    redactor.add(SECRET);
    const vetting = new DeploymentVetting(
      logger,
      (secret) => redactor.add(secret),
      (text) => redactor.redact(text),
    );
    return { logger, vetting };
  }

  it('a custom_url holding a secret value is not published, said once naming the field', () => {
    const { logger, vetting: v } = knowing();
    for (let poll = 0; poll < 3; poll++) {
      const vetted = v.vet(withUrl(`https://agent.example/?key=${SECRET}`));
      expect(vetted.source_config.custom_url).toBeNull();
    }
    expect(logger.lines).toEqual([
      "warning: the service's custom_url of 'app' holds a secret value: it is not published (no url output, link or environment_url)",
    ]);
  });

  it("a deployment's own secret values count, registered before its custom_url is judged", () => {
    const logger = new MemoryLogger();
    const redactor = new Redactor();
    const v = new DeploymentVetting(
      logger,
      (secret) => redactor.add(secret),
      (text) => redactor.redact(text),
    );
    const deployment = aDeployment({
      source_config: { custom_url: 'https://agent.example/own-secret-value-77' },
      secrets: [{ name: 'OWN', value: 'own-secret-value-77' }],
    });
    expect(v.vet(deployment).source_config.custom_url).toBeNull();
  });

  it('a password taken out of the address does not withhold it at the next poll', () => {
    const { logger, vetting: v } = knowing();
    for (let poll = 0; poll < 2; poll++) {
      const vetted = v.vet(withUrl('https://deployer:hunter2-PASSWORD@preview.example/app'));
      expect(vetted.source_config.custom_url).toBe('https://preview.example/app');
    }
    expect(logger.lines).toHaveLength(1);
  });

  it('a status holding a secret value is redacted where it enters', () => {
    const { vetting: v } = knowing();
    expect(v.vet(aDeployment({ status: `FAILED: ${SECRET}` })).status).toBe('FAILED: ***');
    const plain = aDeployment({ status: 'READY' });
    expect(v.vet(plain)).toBe(plain);
  });
});
