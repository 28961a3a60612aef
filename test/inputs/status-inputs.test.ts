/**
 * `deploy-agent status`'s own request: the service's inputs, the name, the
 * wait's and the dashboard's, read as the deploy reads them; nothing of a
 * plan (no source, no commit), and no other input is read.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/inputs/errors.ts';
import type { InputName } from '../../src/inputs/core-inputs.ts';
import { readStatusRequest, STATUS_INPUTS } from '../../src/inputs/status-inputs.ts';

const RUN = { workspace: process.cwd(), repository: 'acme/agent' };

/** The request from these inputs, as a command gives them: absent when not given. */
function request(given: Partial<Record<InputName, string>>, read: InputName[] = []) {
  const asked = readStatusRequest((name) => {
    read.push(name);
    return given[name];
  }, RUN);
  const [lookup] = asked.agents;
  if (asked.layout !== 'flat' || lookup === undefined) throw new Error('expected one look-up');
  return lookup.spec;
}

describe('readStatusRequest', () => {
  it('reads the service, the name, the wait and the dashboard, with their defaults', () => {
    const read: InputName[] = [];
    expect(request({ 'api-url': 'https://api.example.com', name: 'agent' }, read)).toEqual({
      apiUrl: 'https://api.example.com',
      headers: {},
      sensitiveValues: [''],
      name: 'agent',
      waitForReady: false,
      waitTimeoutSeconds: 900,
    });
    expect(read).toEqual(Object.keys(STATUS_INPUTS));
    expect(read).not.toContain('source');
  });

  it('takes the key, the wait and the dashboard as given', () => {
    expect(
      request({
        'api-url': 'https://api.example.com/',
        'api-key': 'k3y-s3cr3t',
        name: 'agent',
        'wait-for-ready': 'true',
        'wait-timeout': '60',
        'dashboard-url': 'https://console.example/d/{id}',
      }),
    ).toMatchObject({
      apiUrl: 'https://api.example.com',
      headers: { 'X-Api-Key': 'k3y-s3cr3t' },
      sensitiveValues: ['k3y-s3cr3t'],
      waitForReady: true,
      waitTimeoutSeconds: 60,
      dashboardUrl: 'https://console.example/d/{id}',
    });
  });

  it('names every bad input, then the access inputs that do not go together', () => {
    const bad = (given: Partial<Record<InputName, string>>) => {
      try {
        request(given);
      } catch (error) {
        expect(error).toBeInstanceOf(InputError);
        return (error as InputError).problems.map((problem) => problem.input);
      }
      throw new Error('expected an InputError');
    };
    expect(bad({ 'api-url': 'https://api.example.com', 'wait-timeout': 'abc' })).toEqual([
      'name',
      'wait-timeout',
    ]);
    expect(
      bad({
        'api-url': 'https://api.example.com',
        name: 'agent',
        'api-key': 'k3y-s3cr3t',
        headers: 'x-api-key: other',
      }),
    ).toEqual(['headers']);
  });
});
