/**
 * The run's record stores how live the deployment is, as the flow and the
 * wait decided it, and reads it back for the outputs, the reports and the
 * summary: it decides nothing itself.
 */
import { describe, expect, it } from 'vitest';
import type { DeploySpec } from '../../../src/inputs/deploy-spec.ts';
import { RunRecord } from '../../../src/run/flows/run-record.ts';
import type { Outputs } from '../../../src/run/decisions/report.ts';
import { buildCreateRequest } from '../../../src/run/decisions/deploy.ts';
import { assess } from '../../../src/run/decisions/goal.ts';
import { MemoryLogger } from '../../support/clock.ts';
import { renderSummary } from '../../../src/views/summary.ts';
import { flatSummary } from '../../../src/run/ports/summaries.ts';
import { aDeployment } from '../../support/fixtures.ts';
import { planReader } from '../../support/plan-inputs.ts';

const { plan: planOf } = planReader({ workspace: process.cwd() });
const spec: DeploySpec = planOf({ source: 'internal_docker', 'image-uri': 'registry/app:1' });

async function recorded() {
  const outputs: Outputs[] = [];
  const record = new RunRecord(spec, (set) => outputs.push(set));
  const result = {
    deployment: aDeployment({ source: 'internal_docker' }),
    created: false,
    request: buildCreateRequest(spec),
  };
  const goal = await assess(spec, result, new MemoryLogger());
  return { record, outputs, result, goal };
}

describe('RunRecord', () => {
  it('reads the liveness it is given, not one of its own: a READY deployment said not live is not live', async () => {
    const { record, outputs, result, goal } = await recorded();
    const notYet = { live: false as const, missing: 'the address does not answer yet' };

    record.deployed(result, goal, notYet);

    expect(record.summary(undefined).liveness).toBe(notYet);
    expect(outputs.at(-1)?.live).toBe('false');
    expect(record.stage).toBe('not-live');
    expect(record.report('deploying')).toMatchObject({
      status: 'READY',
      waitingFor: 'the address does not answer yet',
      never: false,
    });
    expect(renderSummary(flatSummary(record.summary(undefined)), (text) => text)).toContain(
      'no: the address does not answer yet',
    );
  });

  it('stores each state seen with its liveness; none seen keeps the last', async () => {
    const { record, outputs, result, goal } = await recorded();
    record.deployed(result, goal, { live: false, missing: 'status is DEPLOYING, not READY' });

    record.seen(aDeployment({ source: 'internal_docker' }), { live: true });
    expect(record.stage).toBe('live');
    expect(outputs.at(-1)?.live).toBe('true');

    record.seen(undefined, undefined);
    expect(record.summary(undefined).liveness).toEqual({ live: true });
  });
});
