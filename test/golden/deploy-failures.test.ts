/**
 * Golden files of the deploy step (dist/index.js) on one deployment when something fails: the
 * service answering 500 (once) or 422 to the create, a wrong api key (401), and an invalid
 * input (no request at all), recorded under test/golden/deploy/.
 */
import { describe, it } from 'vitest';
import { QUICK } from '../support/quick.ts';
import { deployStep, expectRun, pushWorld } from './action-world.ts';

const world = pushWorld();

/** The deploy step of `my-agent` on a push of MAIN_HEAD, retrying at once; `extra` over it. */
const step = (extra: Record<string, string> = {}) =>
  deployStep(world(), extra, { ...QUICK, DEPLOY_AGENT_RETRY_DELAY_MS: '1' });

/** What the run wrote and asked the service to change. */
const golden = (name: string, run: Awaited<ReturnType<typeof step>>) =>
  expectRun(`deploy/${name}.txt`, run, world());

describe('deploy, one deployment, failing', () => {
  // A 500 on every create is not recorded: each attempt then looks the name up for 6 s
  // (SETTLE_PAUSES_MS, which no variable shortens), 5 attempts outlast the test's timeout.
  it('retries a create answered 500 that did not take effect, after looking the name up', async () => {
    world().inject({
      method: 'POST',
      path: '/v2/deployments',
      status: 500,
      body: { detail: 'internal error' },
    });
    golden('create-500-retried', await step());
  });

  it('adopts the deployment a create answered 500 did make', async () => {
    world().inject({
      method: 'POST',
      path: '/v2/deployments',
      statusAfter: 500,
      body: { detail: 'upstream timed out' },
    });
    golden('create-500-adopted', await step());
  });

  it("fails on a 422, showing the service's message", async () => {
    world().inject({
      method: 'POST',
      path: '/v2/deployments',
      status: 422,
      body: {
        detail: [
          {
            loc: ['body', 'source_config', 'resource_spec', 'cpu'],
            msg: 'Input should be less than or equal to 8',
            type: 'less_than_equal',
          },
        ],
      },
    });
    golden('fail-422', await step({ config: 'source_config:\n  resource_spec:\n    cpu: 16\n' }));
  });

  it('fails on a 422 whose detail is a sentence', async () => {
    world().inject({ method: 'POST', status: 422, body: { detail: 'quota exceeded' } });
    golden('fail-422-sentence', await step());
  });

  it('fails on a 401, naming the api-key input and never printing the key', async () => {
    golden('fail-401', await step({ 'api-key': 'wrong-key-0123456789' }));
  });

  it('fails on an invalid input before any request', async () => {
    golden('fail-bad-input', await step({ 'wait-timeout': 'ten' }));
  });
});
