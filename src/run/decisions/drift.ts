/** Where a reused deployment differs from the step: the service has no update call, so it stays (docs/how-it-works.md, "Drift"). */
import { MASK } from '../../common/redact.js';
import { untrusted } from '../../common/runtime.js';
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import type { Deployment, DeploymentCreateRequest } from '../../service/schemas.js';
import type { DriftEntry, FieldDrift } from '../ports/findings.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** null and absent are the same to the service (every field is nullable). */
const isAbsent = (value: unknown) => value === undefined || value === null;

/** Deep equality of JSON values (`2` equals `2.0`). */
function same(a: unknown, b: unknown): boolean {
  if (isAbsent(a) || isAbsent(b)) return isAbsent(a) && isAbsent(b);
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => same(item, b[index]));
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => same(a[key], b[key]));
  }
  return a === b;
}

/** A reused deployment that differs in one of these never runs what the step asks for. */
const REVISION_FIELDS = [
  'repo_ref',
  'agent_config_path',
  'image_uri',
  'source_tarball_path',
] as const;

export function fieldDrift(entry: DriftEntry): FieldDrift {
  const blocks = REVISION_FIELDS.some((key) => entry.field === `source_revision_config.${key}`);
  return { ...entry, kind: 'field', blocks };
}

/** `build_on_push` null or absent reads as off: a codehost create builds on push unless the step says otherwise. */
const buildsOnPush = (value: unknown) => value === true;

/** Only the keys the step sets (the service fills in defaults), recursing into objects, arrays whole. */
function compareSet(
  path: string,
  wanted: Record<string, unknown>,
  live: unknown,
  out: DriftEntry[],
) {
  const liveObject = isObject(live) ? live : {};
  for (const [key, value] of Object.entries(wanted)) {
    if (value === undefined) continue;
    const field = `${path}.${key}`;
    if (isObject(value) && isObject(liveObject[key])) {
      compareSet(field, value, liveObject[key], out);
    } else if (!same(value, liveObject[key])) {
      out.push({ field, wanted: value, live: liveObject[key] ?? null });
    }
  }
}

function compareSecrets(spec: DeploySpec, deployment: Deployment, out: DriftEntry[]) {
  const live = new Map(deployment.secrets.map((secret) => [secret.name, secret.value]));
  const wanted = new Map(spec.secrets.map((secret) => [secret.name, secret.value]));
  for (const [name, value] of wanted) {
    const liveValue = live.get(name);
    if (liveValue === undefined) {
      out.push({ field: `secrets.${name}`, wanted: MASK, live: null });
    } else if (liveValue !== '' && liveValue !== value) {
      out.push({ field: `secrets.${name}`, wanted: MASK, live: MASK });
    }
  }
  for (const name of live.keys()) {
    if (!wanted.has(name)) out.push({ field: `secrets.${name}`, wanted: null, live: MASK });
  }
}

const sortedReferences = (references: readonly unknown[]) =>
  references.map((reference) => JSON.stringify(reference)).sort();

/**
 * `source_config` as requested (for codehost with the listing's repo_url and integration_id),
 * the revision fields the step sets, secrets when it gives any, secret_references as a set.
 */
export function findDrift(
  spec: DeploySpec,
  request: DeploymentCreateRequest,
  deployment: Deployment,
): DriftEntry[] {
  const out: DriftEntry[] = [];
  // build_on_push is compared only when the step sets it (the create's default is not), as on or off.
  const wanted = spec.sourceConfig.build_on_push;
  compareSet(
    'source_config',
    {
      ...request.source_config,
      build_on_push: wanted === undefined ? undefined : buildsOnPush(wanted),
    },
    {
      ...deployment.source_config,
      build_on_push: buildsOnPush(deployment.source_config.build_on_push),
    },
    out,
  );
  const revision = Object.fromEntries(
    REVISION_FIELDS.map((key) => [key, spec.sourceRevisionConfig[key]]),
  );
  compareSet('source_revision_config', revision, deployment.source_revision_config, out);
  if (spec.secrets.length > 0) compareSecrets(spec, deployment, out);
  if (spec.source === 'external_docker' && spec.secretReferences !== null) {
    const live = deployment.secret_references ?? [];
    if (!same(sortedReferences(spec.secretReferences), sortedReferences(live))) {
      out.push({ field: 'secret_references', wanted: spec.secretReferences, live });
    }
  }
  return out;
}

/** JSON, short, on one line. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined) return '(not set)';
  const text = untrusted(typeof value === 'string' ? value : JSON.stringify(value));
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
