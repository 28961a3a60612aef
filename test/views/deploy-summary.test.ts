/**
 * The deploy's summary (src/views/deploy-summary.ts), as HTML and read back as GitHub shows
 * it: every row known, service text escaped and on one line, secrets removed before escaping.
 */
import { describe, expect, it } from 'vitest';
import type { Deployment, DeploymentCreateRequest } from '../../src/service/schemas.ts';
import { summaryHtml } from '../../src/views/deploy-summary.ts';
import { aDeployment } from '../support/fixtures.ts';
import { whatAReaderSees } from '../support/github-render.ts';

const deployment: Deployment = aDeployment({
  name: 'my-agent',
  source_config: { repo_url: 'https://git.example/acme/agent' },
  source_revision_config: { repo_ref: 'main' },
  secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-live-123' }],
  status: 'AWAITING_DATABASE',
});

const plan = { name: 'my-agent', source: 'codehost' as const, dryRun: false };

const request: DeploymentCreateRequest = {
  name: 'my-agent',
  source: 'codehost',
  source_config: {},
  source_revision_config: { repo_ref: 'main' },
  secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-live-123' }],
};

describe('summary', () => {
  it('never shows undefined or null, and escapes what it interpolates', () => {
    const html = summaryHtml({
      spec: { ...plan, name: '<img src=x onerror=alert(1)>|x' },
      result: { deployment, created: true, request },
    });

    expect(html).not.toMatch(/undefined|null/);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert&#40;1&#41;&gt;&#124;x');
    expect(html).toContain('<td>—</td>');
  });

  it('shows the failure and what was known', () => {
    const html = summaryHtml({ spec: plan, failure: "Invalid input 'name': <bad>" });

    expect(html).toContain('failed');
    expect(html).toContain('&lt;bad&gt;');
    expect(html).not.toMatch(/undefined|null/);
  });

  it('shows the workflow commit, shortened', () => {
    const html = summaryHtml({ spec: plan, commit: '0123456789abcdef0123456789abcdef01234567' });

    expect(html).toContain('<td><code>0123456789ab</code></td>');
  });

  it('shows addresses a reader copies as they are: our links to themselves, the repository in code, none made from service text', () => {
    const repo = 'https://git.example/acme/agent#main';
    const url = 'https://agent.example/v1?a=1&b=2';
    const reused = aDeployment({
      ...deployment,
      status: 'READY: see https://evil.example/x and www.evil.example.',
      source_config: { repo_url: repo, custom_url: url },
    });
    const seen = whatAReaderSees(
      summaryHtml({
        spec: { ...plan, dashboardUrl: 'https://console.example/d/{id}' },
        result: { deployment: reused, created: false, request },
        failure: 'GET https://api.example/v2/x failed',
      }),
    );

    const row = (label: string) => seen.tables[0]?.find((cells) => cells[0] === label)?.[1];
    expect(row('Repository')).toBe(repo);
    expect(row('URL')).toBe(url);
    expect(row('Dashboard')).toBe(`https://console.example/d/${deployment.id}`);
    expect(row('Status')).toBe('READY: see https://evil.example/x and www.evil.example.');
    expect(seen.text).toContain('GET https://api.example/v2/x failed');
    expect(seen.text).not.toContain('\u200b');
    expect(seen.links).toEqual([
      {
        href: `https://console.example/d/${deployment.id}`,
        text: `https://console.example/d/${deployment.id}`,
      },
      { href: url, text: url },
    ]);
    // The repository's address is no link we built: it sits in code, where GitHub links nothing.
    expect(seen.html).toContain(`<td><code>${repo}</code></td>`);
  });

  it("links the deployment's address and its dashboard, only when known", () => {
    const withUrl = { ...deployment, source_config: { custom_url: 'https://a.example/[x](y)' } };
    const html = summaryHtml({
      spec: { ...plan, dashboardUrl: 'https://console.example/d/{id}' },
      result: { deployment: withUrl, created: false, request },
    });

    expect(html).toContain(
      '<th align="left">URL</th><td><a href="https://a.example/%5Bx%5D%28y%29">https://a.example/&#91;x&#93;&#40;y&#41;</a></td>',
    );
    expect(html).toContain(
      `<th align="left">Dashboard</th><td><a href="https://console.example/d/${deployment.id}">https://console.example/d/${deployment.id}</a></td>`,
    );
    const plain = summaryHtml({ spec: plan, result: { deployment, created: false, request } });
    expect(plain).not.toMatch(/>URL<|>Dashboard</);
  });

  describe('deployment type', () => {
    const typeRow = (html: string) =>
      /<th align="left">Deployment type<\/th><td>(.*?)<\/td>/.exec(html)?.[1];
    const typed = (type: string | null | undefined): Deployment => ({
      ...deployment,
      source_config: { ...deployment.source_config, deployment_type: type },
    });
    const asking = (type?: 'dev' | 'prod'): DeploymentCreateRequest => ({
      ...request,
      source_config: type === undefined ? {} : { deployment_type: type },
    });

    it('has no row when neither the step nor the deployment has one', () => {
      const html = summaryHtml({
        spec: plan,
        result: { deployment: typed(null), created: false, request: asking() },
      });
      expect(html).not.toContain('Deployment type');
    });

    it('shows the one created, or the one a dry run would send', () => {
      const created = { deployment: typed('prod'), created: true, request: asking('prod') };
      expect(typeRow(summaryHtml({ spec: plan, result: created }))).toBe('<code>prod</code>');
      const wouldSend = { created: false, request: asking('prod') };
      expect(typeRow(summaryHtml({ spec: plan, result: wouldSend }))).toBe('<code>prod</code>');
    });

    it("shows a reused deployment's own, whatever the step asks", () => {
      const unasked = { deployment: typed('dev'), created: false, request: asking() };
      expect(typeRow(summaryHtml({ spec: plan, result: unasked }))).toBe('<code>dev</code>');
      const drifted = { deployment: typed('dev'), created: false, request: asking('prod') };
      expect(typeRow(summaryHtml({ spec: plan, result: drifted }))).toBe('<code>dev</code>');
      const none = { deployment: typed(undefined), created: false, request: asking('prod') };
      expect(typeRow(summaryHtml({ spec: plan, result: none }))).toBe('—');
    });

    it('escapes a type the service adds later', () => {
      const odd = { deployment: typed('<b>x</b>'), created: false, request: asking() };
      expect(typeRow(summaryHtml({ spec: plan, result: odd }))).toBe(
        '<code>&lt;b&gt;x&lt;/b&gt;</code>',
      );
    });
  });

  it('says a dry run would create', () => {
    const html = summaryHtml({
      spec: { ...plan, dryRun: true },
      result: { created: false, request },
    });

    expect(html).toContain('would be created &#40;dry run&#41;');
  });
});

describe('summary of what green means', () => {
  it('has a drift table whose secret entries show no value', () => {
    const html = summaryHtml({
      spec: plan,
      result: { deployment, created: false, request },
      drift: [
        { field: 'source_revision_config.agent_config_path', wanted: 'new.json', live: 'old.json' },
        { field: 'secrets.OPENAI_API_KEY', wanted: '***', live: null },
      ],
    });

    expect(html).toContain('Drift: not applied');
    expect(html).toContain('change them in the service');
    expect(html).toContain(
      '<tr><td><code>source_revision_config.agent_config_path</code></td><td><code>new.json</code></td><td><code>old.json</code></td></tr>',
    );
    expect(html).toContain(
      '<tr><td><code>secrets.OPENAI_API_KEY</code></td><td><code>***</code></td><td><code>&#40;not set&#41;</code></td></tr>',
    );
    expect(html).not.toContain('sk-live-123');
  });

  it('says "change it" of a single drifted field', () => {
    const html = summaryHtml({
      spec: plan,
      result: { deployment, created: false, request },
      drift: [{ field: 'source_config.labels.team', wanted: 'a', live: 'b' }],
    });

    expect(html).toContain(
      'The service cannot update a deployment: change it in the service, or deploy under a new name.',
    );
  });

  it('says which commit is live when a newer push superseded the target', () => {
    const html = summaryHtml({
      spec: plan,
      result: { deployment, created: false, request },
      liveness: { live: true, supersededBy: 'c'.repeat(40) },
      target: 'b'.repeat(40),
    });

    expect(html).toContain(
      `yes: commit ${'c'.repeat(12)} of a newer push is live instead of the target`,
    );
    expect(html).toContain(`<td><code>${'b'.repeat(12)}</code></td>`);
  });

  it('says what is missing when the deployment is not live', () => {
    const html = summaryHtml({
      spec: plan,
      result: { deployment, created: false, request },
      liveness: { live: false, missing: 'status is AWAITING_DATABASE, not READY' },
    });

    expect(html).toContain('<td>no: status is AWAITING_DATABASE, not READY</td>');
  });
});

describe('summary and hostile service text', () => {
  const hostile =
    'READY\n\n![x](http://tracker.example/pixel.png) [Re-authenticate here](http://phish.example)\r\n\r\n<b>x</b>';

  it('keeps a status on one line, with nothing Markdown could render', () => {
    const html = summaryHtml({
      spec: plan,
      result: { deployment: { ...deployment, status: hostile }, created: false, request },
    });

    // A blank line would end the HTML block and GitHub would render the rest as Markdown.
    expect(html).not.toMatch(/\n\s*\n/);
    expect(html).not.toContain('![');
    expect(html).not.toContain('](');
    expect(html).not.toContain('<b>');
    expect(html).toContain(
      '<code>READY &#33;&#91;x&#93;&#40;http://tracker.example/pixel.png&#41;',
    );
  });

  it('keeps a failure block free of blank lines', () => {
    const html = summaryHtml({
      spec: plan,
      failure: `400 from GET /x:\n\n\n![x](http://t.example/p.png)`,
    });

    expect(html).not.toMatch(/\n\s*\n/);
    expect(html).not.toContain('![');
  });

  it('removes a secret before escaping, so an escaped form cannot slip through', () => {
    const secret = 'p&ss<w>rd(1)';
    const html = summaryHtml({
      spec: plan,
      result: { deployment: { ...deployment, status: `echo ${secret}` }, created: false, request },
      failure: `the service said ${secret}`,
      redact: (text) => text.replaceAll(secret, '***'),
    });

    expect(html).toContain('echo ***');
    expect(html).toContain('the service said ***');
    expect(html).not.toContain('p&amp;ss');
  });

  describe('health check', () => {
    const address = 'https://agent.example/ok';
    const live = aDeployment({ ...deployment, status: 'READY' });
    const healthRow = (html: string) =>
      whatAReaderSees(html).tables[0]?.find((cells) => cells[0] === 'Health check')?.[1];

    it('has no row when no check was asked', () => {
      const html = summaryHtml({
        spec: plan,
        result: { deployment: live, created: false, request },
        liveness: { live: true },
      });

      expect(html).not.toContain('Health check');
    });

    it('says the address checked and that it answers', () => {
      const html = summaryHtml({
        spec: plan,
        result: { deployment: live, created: false, request },
        liveness: { live: true, health: { address, ok: true, status: 200 } },
      });

      expect(healthRow(html)).toBe(`✅ ${address}: answers 200`);
    });

    it("says what a failing answer was and how its body begins, the service's text as text", () => {
      const excerpt = '<img src=x onerror=alert(1)> [x](https://evil.example) @octocat #12 | cell';
      const html = summaryHtml({
        spec: plan,
        result: { deployment: live, created: false, request },
        liveness: {
          live: false,
          missing: `health check: 503 Service Unavailable from ${address}`,
          health: { address, ok: false, status: 503, error: '503 Service Unavailable', excerpt },
        },
      });
      const seen = whatAReaderSees(html);

      expect(healthRow(html)).toBe(
        `❌ ${address}: 503 Service Unavailable the answer begins: ${excerpt}`,
      );
      expect(seen.html).not.toContain('<img');
      expect(seen.links).toEqual([]);
      expect(seen.images).toEqual([]);
      expect(seen.mentions).toEqual([]);
      expect(seen.issueReferences).toEqual([]);
    });

    it('says a check that cannot be made for want of a custom_url', () => {
      const html = summaryHtml({
        spec: plan,
        result: { deployment: live, created: false, request },
        liveness: {
          live: false,
          missing: 'health-check is set but the deployment has no custom_url',
          health: { ok: false, error: 'health-check is set but the deployment has no custom_url' },
        },
      });

      expect(healthRow(html)).toBe('❌ health-check is set but the deployment has no custom_url');
    });
  });
});
