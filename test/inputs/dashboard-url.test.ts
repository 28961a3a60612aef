/**
 * The `dashboard-url` input: a URL template checked before any request, and
 * filled with the deployment's id, tenant and name, each URL-encoded.
 */
import { describe, expect, it } from 'vitest';
import { fillDashboardUrl, parseDashboardUrl } from '../../src/inputs/dashboard-url.ts';
import { planReader, temporaryWorkspace } from '../support/plan-inputs.ts';

const workspace = temporaryWorkspace('dashboard-test-');
const { plan: spec, rejects } = planReader({ workspace: workspace.root, repository: 'acme/agent' });

describe('dashboard-url', () => {
  it('keeps a template of the three placeholders, and is unset when empty', () => {
    const template = 'https://console.example/o/{tenant_id}/deployments/{id}?name={name}';
    expect(spec({ 'dashboard-url': template }).dashboardUrl).toBe(template);
    expect(spec({}).dashboardUrl).toBeUndefined();
    expect(parseDashboardUrl('http://localhost:3000/d/{id}')).toBe('http://localhost:3000/d/{id}');
  });

  it.each([
    ['https://console.example/{deployment}', /unknown placeholder \{deployment\}/],
    ['https://console.example/{ID}', /unknown placeholder \{ID\}/],
    ['https://console.example/{id', /\{ or \} outside a placeholder/],
    ['https://console.example/id}', /\{ or \} outside a placeholder/],
    [
      'console.example/{id}',
      /is not a valid URL \(expected e.g. https:\/\/console.example\/deployments\/\{id\}\)/,
    ],
    [
      'http://console.example/{id}',
      /must use https:\/\/ \(http:\/\/ is allowed only for localhost.*got 'http:\/\/console\.example\/id'/,
    ],
    ['ftp://console.example/{id}', /must be an https:\/\/ URL/],
    ['https://user:pw@console.example/{id}', /must not contain credentials/],
  ])('rejects %s before any request', (template, problem) => {
    rejects({ 'dashboard-url': template }, 'dashboard-url', problem);
  });

  it('fills each placeholder, URL-encoded as encodeURIComponent does', () => {
    const values = { id: 'd-1', tenant_id: 't 2', name: 'my agent/pr#7?&' };
    expect(fillDashboardUrl('https://c.example/{tenant_id}/{id}?n={name}&again={id}', values)).toBe(
      'https://c.example/t%202/d-1?n=my%20agent%2Fpr%237%3F%26&again=d-1',
    );
  });
});
