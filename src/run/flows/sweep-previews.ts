/**
 * The sweep's previews: the service's listing searched for each pattern's
 * longest literal part (one pattern an agent with a manifest, each text
 * once), every page, GET only; each deployment kept once, when its name is
 * exactly one pattern with a number. A name that two agents' patterns both
 * give (agents `a` and `a1` under `{agent}{number}`) proves neither: it is
 * reported as unknown, and left alone.
 */
import { ActionError } from '../../common/errors.js';
import {
  agentPatterns,
  matchesOf,
  searchTexts,
  type SweepRequest,
} from '../../inputs/sweep-inputs.js';
import { MAX_PAGES, PAGE_LIMIT } from '../../service/endpoints.js';
import type { Deployment } from '../../service/schemas.js';
import { inGroup } from '../ports/dependencies.js';
import type { RunEvents } from '../ports/events.js';
import type { RunnerIO } from '../ports/runner.js';
import type { Preview, Unknown } from '../ports/summaries.js';
import { dependenciesOf } from './setup.js';

/** At most this many deployments are read a search: the deploy's search's cap. */
const MAX_LISTED = MAX_PAGES * PAGE_LIMIT;

export interface FoundPreviews {
  previews: Preview[];
  /** The names more than one agent's pattern gives: left alone. */
  ambiguous: Unknown[];
}

/** `deployment` as a preview, or as an ambiguous name, or nothing when no pattern matches it. */
function sorted(deployment: Deployment, request: SweepRequest, found: FoundPreviews): void {
  const matches = matchesOf(agentPatterns(request.names, request.agents), deployment.name);
  const [first] = matches;
  if (first === undefined) return;
  if (matches.length === 1) {
    found.previews.push({ deployment, ...first });
    return;
  }
  const agents = matches.map((match) => `'${match.agent.key}'`).join(' and ');
  found.ambiguous.push({
    deployment,
    digits: first.digits,
    why: `and it is the name of a preview of agents ${agents} alike: no proof of whose it is, left alone`,
  });
}

/** The previews of the listing: exact matches of the pattern, each with its number (and agent). */
export async function findPreviews(
  request: SweepRequest,
  io: RunnerIO,
  events: RunEvents,
): Promise<FoundPreviews> {
  const dependencies = dependenciesOf(request, io, events);
  const texts = searchTexts(agentPatterns(request.names, request.agents));
  return inGroup(dependencies)(
    `Looking for previews named '${request.names.text}'`,
    'find',
    async () => {
      const seen = new Set<string>();
      const found: FoundPreviews = { previews: [], ambiguous: [] };
      for (const literal of texts) {
        const listed = await dependencies.service.list({ name_contains: literal }, MAX_LISTED);
        if (listed.deployments.length >= MAX_LISTED) {
          throw new ActionError(
            `GET /v2/deployments: more than ${MAX_LISTED} deployments contain '${literal}'; stopped rather than judge the previews from part of the list. Make name-pattern more distinctive.`,
          );
        }
        for (const deployment of listed.deployments) {
          if (seen.has(deployment.id)) continue;
          seen.add(deployment.id);
          sorted(deployment, request, found);
        }
      }
      return found;
    },
  );
}
