/**
 * `npm run demo`: what green means, in eleven acts (a push, a second push, drift, a docker image,
 * a terminal, a pull request, its plan, its retire, the nightly sweep of the previews whose
 * retire was missed, three agents in one step, a health check), against the emulator of the
 * service. The bundled action runs as a workflow step would (codehost,
 * secrets, wait-for-ready), on push events to main:
 *
 * 1. the first push creates the deployment and waits until its first
 *    revision is live;
 * 2. a second push: the same step waits until that commit's revision is live;
 * 3. the step with a changed agent-config-path: the service cannot update a
 *    deployment, so the step reports the drift (annotation and summary);
 * 3b–3c. a docker deployment keeps the image it was created with: a second
 *    image on the same name fails the step at once, naming both and what to do;
 * 4. in a terminal: the command dist/cli.js (deploy-agent) deploys a third
 *    push the same way outside GitHub Actions, secrets from the environment,
 *    outputs as a dotenv file, then `deploy-agent status` reports it as JSON;
 * 5. a pull request: the preview deployment `my-agent-pr-7`, recorded as a
 *    GitHub deployment in the transient environment `preview-pr-7`, with one
 *    comment on the pull request, against the GitHub API emulator too
 *    (GITHUB_API_URL): the comment's Markdown and the GitHub records are
 *    printed;
 * 6–7. the plan of a pull request, and its comment updated in place;
 * 8. the pull request is merged: the retire step marks the preview's GitHub
 *    deployments inactive and rewrites its comment to say it is retired and
 *    where to delete the deployment, which still runs in the service;
 * 9. the nightly sweep (sweep/action.yml, on a schedule): pull request #9 was
 *    closed and no retire ran, so its preview `my-agent-pr-9` still runs, its
 *    record in `preview-pr-9` still says deployed and its comment live; the
 *    sweep finds it an orphan (and #7's, retired in act 8, which still runs in
 *    the service too), warns with where to delete each, marks #9's record
 *    inactive and rewrites its comment, and leaves open #10's preview alone;
 * 9b. the next sweep finds the same orphans and writes nothing to GitHub;
 * 10. a repository of three agents deployed by one step (a manifest): support and research
 *    go live on the pushed commit while triage's build fails; the step fails once all are
 *    done, naming triage, with one summary and `deployments` keyed by agent;
 * 11. live means answering: `my-agent-health` sets `health-check: /ok` with the agent server's
 *    own key; its revision is READY and active while its /ok still answers 503 (the agent
 *    starts), and the step waits until it answers 200.
 *
 * It exits 0 only when every run meant to succeed does and the checks at its end hold (acts
 * 1–2's commits, act 3c's failure, act 9's sweep, act 10's agents and its recap naming the failed
 * one, act 11's answers).
 */
import { startEmulator } from '../test/emulator/emulator.ts';
import { GITHUB_ACTIONS_BOT, startGitHubEmulator } from '../test/emulator/github.ts';
import {
  GITHUB_TOKEN,
  PR_HEAD,
  gitHubStep,
  pullRequestEvent,
} from '../test/support/github-step.ts';
import { WORKFLOW_REPOSITORY } from '../test/support/action.ts';
import { startAction, type ActionRun, type RunOptions } from '../test/support/run-action.ts';
import { INTEGRATION } from '../test/support/ids.ts';
import { startCli, type CliRun } from '../test/cli/run-cli.ts';

const API_KEY = 'demo-api-key-0123456789';
const REPO_URL = `https://github.com/${WORKFLOW_REPOSITORY}`;
const FIRST = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const SECOND = 'f00dfeed0123456789abcdef0123456789abcdef';
const THIRD = '0badc0de0123456789abcdef0123456789abcdef';
const [OPENAI_API_KEY = '', DATABASE_URL = ''] = [
  'sk-demo-not-a-real-key',
  'postgres://demo:demo@db/agent',
];

const AGENT_API_KEY = 'demo-agent-server-key-0123';
const HEALTHY_NAME = 'my-agent-health';
const emu = await startEmulator({
  apiKey: API_KEY,
  readyAfterMs: 2_000,
  buildMs: 2_500,
  // Act 11's deployment alone has an address of its own: an agent server that asks for its
  // key and answers 503 for 4 s after its revision goes live.
  addresses: (deployment) => deployment.name === HEALTHY_NAME,
  addressBehaviour: {
    requireHeader: { name: 'X-Api-Key', value: AGENT_API_KEY },
    slowStartMs: 4_000,
  },
});
const [owner, name] = WORKFLOW_REPOSITORY.split('/');
emu.seedRepos(INTEGRATION, [{ owner, name, default_branch: 'main', url: REPO_URL }]);
emu.seedDeployments(3, (i) => ({ name: `my-agent-preview-${i}` }));

const step = {
  'api-url': emu.url,
  'api-key': API_KEY,
  name: 'my-agent',
  'integration-id': INTEGRATION,
  // The README's deploy/agent.yaml; build_on_push is the service's default for a codehost create.
  config: 'source_revision_config:\n  agent_config_path: agent.json\n',
  secrets: `OPENAI_API_KEY=${OPENAI_API_KEY}\nDATABASE_URL=${DATABASE_URL}`,
  'wait-for-ready': 'true',
  'wait-timeout': '60',
};

const rule = (title: string) =>
  console.log(`\n${'─'.repeat(8)} ${title} ${'─'.repeat(Math.max(3, 60 - title.length))}`);

async function act(
  title: string,
  inputs: Record<string, string>,
  sha: string,
  options: RunOptions = { event: { name: 'push', ref: 'refs/heads/main', sha } },
): Promise<ActionRun> {
  rule(title);
  const firstRequest = emu.requests.length;
  const started = startAction(inputs, options);
  started.child.stdout?.on('data', (chunk: string) => process.stdout.write(chunk));
  started.child.stderr?.on('data', (chunk: string) => process.stderr.write(chunk));
  const run = await started.finished;
  console.log('── outputs');
  for (const [key, value] of Object.entries(run.outputs)) {
    if (key !== 'deployment') console.log(`${key}: ${value}`);
  }
  console.log('── job summary (HTML)');
  console.log(run.summary.trim());
  const requests = emu.requests.slice(firstRequest);
  console.log(
    `── ${run.exitCode === 0 ? 'succeeded' : `failed (exit ${run.exitCode})`}: ${requests.length} requests: ${requests.map((r) => `${r.method} ${r.path}${r.query.deployment_ids ? ' (poll)' : ''}`).join(', ')}`,
  );
  return run;
}

console.log(
  `Emulator of the service listening at ${emu.url}; the step runs dist/index.js under Node 24.`,
);
emu.setHead(REPO_URL, 'main', FIRST);
const first = await act(`Act 1: push ${FIRST.slice(0, 7)} to main, no deployment yet`, step, FIRST);

emu.push(REPO_URL, 'main', SECOND);
const second = await act(
  `Act 2: push ${SECOND.slice(0, 7)}; the service builds a new revision; the same step waits for it`,
  step,
  SECOND,
);

const third = await act(
  'Act 3: the step now asks for agent-config-path: agents/v2.json',
  { ...step, 'agent-config-path': 'agents/v2.json', 'wait-for-ready': 'false' },
  SECOND,
);
const docker = (image: string) => ({
  'api-url': emu.url,
  'api-key': API_KEY,
  name: 'my-agent-docker',
  source: 'external_docker',
  'image-uri': image,
  'wait-for-ready': 'true',
  'wait-timeout': '60',
});
const dockerFirst = await act(
  'Act 3b: a docker deployment, my-agent-docker, from registry.example/agent:1.4.2',
  docker('registry.example/agent:1.4.2'),
  SECOND,
);
const dockerSecond = await act(
  'Act 3c: my-agent-docker asked for registry.example/agent:1.5.0: it keeps its image, the step says so',
  docker('registry.example/agent:1.5.0'),
  SECOND,
);

/** One command at the prompt: its log (stderr) as it comes, then what it wrote. */
async function terminal(args: string[], read: string[] = []): Promise<CliRun> {
  console.log(
    `$ deploy-agent ${args.map((arg) => (/[\s']/.test(arg) ? `'${arg}'` : arg)).join(' ')}`,
  );
  const started = startCli(args, {
    env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: API_KEY, OPENAI_API_KEY, DATABASE_URL },
    read,
  });
  started.child.stderr?.on('data', (chunk: string) => process.stderr.write(chunk));
  const run = await started.finished;
  if (run.stdout !== '') console.log(run.stdout.trimEnd());
  for (const [file, text] of Object.entries(run.files))
    console.log(`── ${file}\n${text.trimEnd()}`);
  console.log(`── exit ${run.exitCode}`);
  return run;
}

rule(`Act 4: in a terminal, deploy-agent deploys a third push (${THIRD.slice(0, 7)}) the same way`);
emu.push(REPO_URL, 'main', THIRD);
const fourth = await terminal(
  [
    'deploy',
    '--name',
    'my-agent',
    '--integration-id',
    INTEGRATION,
    '--repository',
    WORKFLOW_REPOSITORY,
    '--agent-config-path',
    'agent.json',
    '--config',
    step.config,
    '--secret',
    'OPENAI_API_KEY',
    '--secret',
    'DATABASE_URL',
    '--commit',
    THIRD,
    '--wait',
    '--dotenv',
    'deploy.env',
  ],
  ['deploy.env'],
);
const status = await terminal(['status', '--name', 'my-agent', '--json']);

// Act 5: a pull request, against GitHub's API too.
const gh = await startGitHubEmulator();
gh.addToken(GITHUB_TOKEN, GITHUB_ACTIONS_BOT);
gh.seedComments(WORKFLOW_REPOSITORY, 7, 3, 'a-reviewer');
emu.setHead(REPO_URL, 'feature', PR_HEAD);
const [prInputs, prOptions] = gitHubStep(
  gh,
  {
    ...step,
    name: 'my-agent-pr-7',
    'repo-ref': 'feature',
    'dashboard-url': 'https://console.example/o/{tenant_id}/deployments/{id}',
  },
  { environment: 'preview-pr-7', 'pr-comment': 'true' },
  { event: pullRequestEvent() },
);
const fifth = await act(
  `Act 5: pull request #7 (head ${PR_HEAD.slice(0, 7)}): a preview, a GitHub deployment, one comment`,
  prInputs,
  PR_HEAD,
  prOptions,
);
console.log(
  `── GitHub: ${gh.requests.length} requests: ${gh.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`,
);
for (const record of gh.deployments) {
  console.log(
    `── GitHub deployment ${record.id}: environment ${record.environment}, ref ${record.ref.slice(0, 12)}, transient ${record.transient_environment}`,
  );
  for (const status of record.statuses) {
    console.log(
      `   ${status.state}: ${status.description} (environment_url ${status.environment_url || '-'}, log_url ${status.log_url || '-'})`,
    );
  }
}
for (const comment of gh.comments.filter((c) => c.user.login === 'github-actions[bot]')) {
  console.log(`── the pull request comment (${comment.user.login}), as Markdown:`);
  console.log(comment.body.trim());
}
// Act 6: the plan of a pull request that changes the image of an existing deployment.
emu.seedDeployment({
  name: 'my-agent-image',
  source: 'external_docker',
  source_revision_config: { image_uri: 'registry.example/agent:1.4.2' },
});
const planStep = (image: string) =>
  gitHubStep(
    gh,
    {
      'api-url': emu.url,
      'api-key': API_KEY,
      name: 'my-agent-image',
      source: 'external_docker',
      'image-uri': image,
    },
    {},
    { event: pullRequestEvent(), action: 'plan/action.yml' },
  );
const planComment = () =>
  gh.comments.find((c) => c.body.startsWith('<!-- deploy-agent-plan:my%2Dagent%2Dimage -->'));
const [planInputs, planOptions] = planStep('registry.example/agent:1.5.0');
const sixth = await act(
  'Act 6: pull request #7 asks for image 1.5.0 of my-agent-image: the plan, and its comment',
  planInputs,
  PR_HEAD,
  planOptions,
);
console.log(`── the plan comment (#${planComment()?.id}), as Markdown:`);
console.log(planComment()?.body.trim());
const [againInputs, againOptions] = planStep('registry.example/agent:1.6.0');
const seventh = await act(
  'Act 7: a second push to the pull request asks for 1.6.0: the same comment, updated in place',
  againInputs,
  PR_HEAD,
  againOptions,
);
console.log(`── the plan comment (#${planComment()?.id}, updated), as Markdown:`);
console.log(planComment()?.body.trim());

// Act 8: the pull request is merged; its preview retires.
const [retireInputs, retireOptions] = gitHubStep(
  gh,
  {
    'api-url': emu.url,
    'api-key': API_KEY,
    name: 'my-agent-pr-7',
    'dashboard-url': 'https://console.example/o/{tenant_id}/deployments/{id}',
  },
  { environment: 'preview-pr-7' },
  { event: pullRequestEvent(undefined, undefined, 'merged'), action: 'retire/action.yml' },
);
const eighth = await act(
  'Act 8: pull request #7 is merged: its preview retires (GitHub records inactive, the comment rewritten)',
  retireInputs,
  PR_HEAD,
  retireOptions,
);
for (const record of gh.deployments.filter((d) => d.environment === 'preview-pr-7')) {
  const last = record.statuses.at(-1);
  console.log(`── GitHub deployment ${record.id}: now ${last?.state}: ${last?.description}`);
}
const preview = gh.comments.find((c) =>
  c.body.startsWith('<!-- deploy-agent:my%2Dagent%2Dpr%2D7 -->'),
);
console.log(`── the preview comment (#${preview?.id}, rewritten), as Markdown:`);
console.log(preview?.body.trim());

// Act 9: a close nobody saw. Pull request #9 was closed while no retire ran (a workflow skipped,
// a job cancelled): its preview still runs, its record still says deployed, its comment live.
// The nightly sweep finds it through the service's listing and GitHub's pull request states.
const DAY = 86_400_000;
const previewMarker = (previewName: string) =>
  `<!-- deploy-agent:${previewName.replaceAll('-', '%2D')} -->`;
gh.seedPullRequest(WORKFLOW_REPOSITORY, 7, 'merged'); // act 8's merge, as GitHub knows it
gh.seedPullRequest(WORKFLOW_REPOSITORY, 9, 'closed', new Date(Date.now() - 3 * DAY).toISOString());
gh.seedPullRequest(WORKFLOW_REPOSITORY, 10, 'open');
const sweepComments = new Map<number, string>();
for (const number of [9, 10]) {
  emu.seedDeployment({ name: `my-agent-pr-${number}` });
  gh.seedDeployments(WORKFLOW_REPOSITORY, `preview-pr-${number}`, 1);
  const seeded = gh.seedComment(
    WORKFLOW_REPOSITORY,
    number,
    `${previewMarker(`my-agent-pr-${number}`)}\n### Preview my-agent-pr-${number} is live\n\nThe preview of this pull request runs in the service.`,
    GITHUB_ACTIONS_BOT,
  );
  sweepComments.set(number, seeded.body);
}
const sweepStep = () =>
  gitHubStep(
    gh,
    {
      'api-url': emu.url,
      'api-key': API_KEY,
      'name-pattern': 'my-agent-pr-{number}',
      'environment-pattern': 'preview-pr-{number}',
      'dashboard-url': 'https://console.example/o/{tenant_id}/deployments/{id}',
    },
    {},
    {
      event: { name: 'schedule', ref: 'refs/heads/main', sha: THIRD, payload: {} },
      action: 'sweep/action.yml',
    },
  );
const recordStates = (environment: string) =>
  gh.deployments
    .filter((record) => record.environment === environment)
    .map((record) => gh.stateOf(record.id));
const previewComment = (number: number) =>
  gh.comments.find(
    (c) => c.issue === number && c.body.startsWith(previewMarker(`my-agent-pr-${number}`)),
  );
const writesBeforeSweep = gh.writes().length;
const [queriesBeforeSweep, serviceBeforeSweep] = [gh.stateQueries().length, emu.requests.length];
const [sweepInputs, sweepOptions] = sweepStep();
const ninth = await act(
  'Act 9: the nightly sweep: #9 was closed and no retire ran; #10 is open',
  sweepInputs,
  THIRD,
  sweepOptions,
);
const sweepWrites = gh.writes().slice(writesBeforeSweep);
console.log(
  `── GitHub: ${gh.stateQueries().length - queriesBeforeSweep} states query (POST /graphql), ${sweepWrites.length} writes: ${sweepWrites.map((r) => `${r.method} ${r.path}`).join(', ')}`,
);
for (const environment of ['preview-pr-9', 'preview-pr-10']) {
  console.log(
    `── GitHub deployments of ${environment}: now ${recordStates(environment).join(', ')}`,
  );
}
console.log(
  `── the preview comment of #9 (#${previewComment(9)?.id}, rewritten), its first lines:`,
);
console.log(previewComment(9)?.body.trim().split('\n').slice(0, 6).join('\n'));
console.log(
  `── the preview comment of #10: ${previewComment(10)?.body === sweepComments.get(10) ? 'unchanged' : 'CHANGED'}`,
);
const writesBeforeAgain = gh.writes().length;
const [againSweepInputs, againSweepOptions] = sweepStep();
const ninthAgain = await act(
  'Act 9b: the next night, nothing new: the sweep reports the same orphans and writes nothing',
  againSweepInputs,
  THIRD,
  againSweepOptions,
);
const againWrites = gh.writes().length - writesBeforeAgain;
console.log(`── GitHub: ${againWrites} writes`);
const ninthParsed = JSON.parse(ninth.outputs.orphans ?? '[]') as {
  name?: string;
  'dashboard-url'?: string;
}[];
const ninthOrphans = ninthParsed.map((orphan) => orphan.name);
const ninthWarnings = ninth.stdout.match(/^::warning::.*$/gm) ?? [];
const ninthDashboard =
  ninthParsed.find((orphan) => orphan.name === 'my-agent-pr-9')?.['dashboard-url'] ?? '';
// The sweep holds: #9 found (oldest close first), warned with where to delete it, its record
// inactive and its comment rewritten; #7 (retired in act 8, still running) reported again;
// #10 left alone; the service only read; the second run the same orphans and no GitHub write.
const sweepHolds =
  JSON.stringify(ninthOrphans) === JSON.stringify(['my-agent-pr-9', 'my-agent-pr-7']) &&
  ninth.outputs['orphan-count'] === '2' &&
  ninth.outputs['open-count'] === '1' &&
  ninth.outputs['unknown-count'] === '0' &&
  ninth.outputs.retired === '1' &&
  ninthDashboard !== '' &&
  ninthWarnings.some((line) => line.includes("'my-agent-pr-9'") && line.includes(ninthDashboard)) &&
  recordStates('preview-pr-9').length > 0 &&
  recordStates('preview-pr-9').every((state) => state === 'inactive') &&
  !recordStates('preview-pr-10').includes('inactive') &&
  (previewComment(9)?.body.includes('preview retired') ?? false) &&
  (previewComment(9)?.body.includes(ninthDashboard) ?? false) &&
  previewComment(10)?.body === sweepComments.get(10) &&
  emu.requests.slice(serviceBeforeSweep).every((request) => request.method === 'GET') &&
  ninthAgain.outputs.orphans === ninth.outputs.orphans &&
  ninthAgain.outputs.retired === '0' &&
  againWrites === 0;
// Act 10: a repository of three agents, one step: two go live, one fails its build.
const FOURTH = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
const TRIAGE_LIVE = '7e57ab1e7e57ab1e7e57ab1e7e57ab1e7e57ab1e';
const TRIAGE_BROKEN = 'badbadbadbadbadbadbadbadbadbadbadbadbad0';
emu.setHead(REPO_URL, 'triage-wip', TRIAGE_LIVE);
emu.seedDeployment({
  name: 'triage',
  source_config: { integration_id: INTEGRATION, repo_url: REPO_URL, build_on_push: true },
  source_revision_config: {
    repo_ref: 'triage-wip',
    agent_config_path: 'apps/triage/langgraph.json',
    repo_commit_sha: TRIAGE_LIVE,
  },
});
emu.push(REPO_URL, 'main', FOURTH);
emu.push(REPO_URL, 'triage-wip', TRIAGE_BROKEN, { fail: true });
const manifest = [
  'agents:',
  '  support:',
  '    agent-config-path: apps/support/langgraph.json',
  '    secrets: [OPENAI_API_KEY]',
  '  research:',
  '    name: research-assistant',
  '    agent-config-path: apps/research/langgraph.json',
  '  triage:',
  '    agent-config-path: apps/triage/langgraph.json',
  '    repo-ref: triage-wip',
  `    commit: ${TRIAGE_BROKEN}`,
  '',
].join('\n');
// The manifest names each agent; the step's own name and config do not apply.
const shared = Object.fromEntries(
  Object.entries(step).filter(([key]) => key !== 'name' && key !== 'config'),
);
const tenth = await act(
  `Act 10: three agents in one step (deploy/agents.yaml); triage's build of ${TRIAGE_BROKEN.slice(0, 7)} fails`,
  // The failed build never goes live: the wait says so until its (shortened) timeout.
  { ...shared, agents: 'deploy/agents.yaml', 'wait-timeout': '15' },
  FOURTH,
  {
    event: { name: 'push', ref: 'refs/heads/main', sha: FOURTH },
    files: { 'deploy/agents.yaml': manifest },
  },
);
const tenthAgents = JSON.parse(tenth.outputs.deployments ?? '{}') as Record<
  string,
  { live?: boolean; 'commit-sha'?: string; error?: string }
>;
const agentsHold =
  tenth.exitCode === 1 &&
  tenthAgents.support?.live === true &&
  tenthAgents.support['commit-sha'] === FOURTH &&
  tenthAgents.research?.live === true &&
  tenthAgents.triage?.live === false &&
  (tenth.error ?? '').startsWith('1 of 3 agents failed:\n- triage:');

// Act 11: live means answering. The revision goes READY and active; its agent still starts.
const tenthRequests = emu.addressRequests.length;
const eleventh = await act(
  `Act 11: ${HEALTHY_NAME} with health-check: /ok: READY, but its agent answers 503 while it starts`,
  {
    ...step,
    name: HEALTHY_NAME,
    'health-check': '/ok',
    'health-check-headers': `X-Api-Key: ${AGENT_API_KEY}`,
  },
  FOURTH,
);
const addressAnswers = emu.addressRequests.slice(tenthRequests);
console.log(
  `── the agent's address (${eleventh.outputs.url}): ${addressAnswers.length} requests: ${addressAnswers.map((r) => `${r.method} ${r.subpath} ${r.status ?? '-'}`).join(', ')}`,
);
// Live waited for the answer: 503 while the agent started, then 200; only the agent's key sent.
const answeringHolds =
  eleventh.outputs.live === 'true' &&
  eleventh.outputs.healthy === 'true' &&
  eleventh.outputs['health-status'] === '200' &&
  addressAnswers.some((request) => request.status === 503) &&
  addressAnswers.at(-1)?.status === 200 &&
  addressAnswers.every((request) => request.headers['x-api-key'] === AGENT_API_KEY);

await Promise.all([emu.close(), gh.close()]);

/** A failure on one line: each failed agent's `- key: reason` line after the first. */
const oneLine = (error = '') => error.replace(/:\n- /, ': ').replaceAll('\n- ', '; ');
const tenthRecap = `Act 10: exit ${tenth.exitCode}; ${Object.entries(tenthAgents)
  .map(([key, entry]) => `${key} live=${String(entry.live)}`)
  .join(', ')}; ${oneLine(tenth.error)}`;
// The recap names the failed agent and why, as the step's error does.
const recapHolds = tenthRecap.includes("1 of 3 agents failed: triage: Deployment 'triage'");

rule('What green meant');
console.log(
  [
    `Act 1: created=${first.outputs.created}, live=${first.outputs.live}, commit-sha=${first.outputs['commit-sha']}`,
    `Act 2: created=${second.outputs.created}, live=${second.outputs.live}, commit-sha=${second.outputs['commit-sha']}`,
    `Act 3: drift=${third.outputs.drift}`,
    `Act 3b: live=${dockerFirst.outputs.live}; Act 3c: exit ${dockerSecond.exitCode}, live=${dockerSecond.outputs.live}: ${dockerSecond.error ?? ''}`,
    `Act 4: deploy-agent exit ${fourth.exitCode}; status: live=${String(status.json?.live)}, commit-sha=${String(status.json?.['commit-sha'])}`,
    `Act 5: live=${fifth.outputs.live}, github-deployment-id=${fifth.outputs['github-deployment-id']}, dashboard-url=${fifth.outputs['dashboard-url']}`,
    `Acts 6 and 7: plan action=${sixth.outputs.action}, changes=${sixth.outputs.changes}, then ${seventh.outputs.changes}; ${gh.comments.filter((c) => c.body.startsWith('<!-- deploy-agent-plan:')).length} plan comment`,
    `Act 8: retired=${eighth.outputs.retired} GitHub deployment(s) marked inactive; deployment-id=${eighth.outputs['deployment-id']} (${eighth.outputs.status}) still exists in the service: delete it at ${eighth.outputs['dashboard-url']}`,
    `Act 9: sweep orphan-count=${ninth.outputs['orphan-count']} (${ninthOrphans.join(', ')}), open-count=${ninth.outputs['open-count']}, retired=${ninth.outputs.retired}; preview-pr-9 now ${recordStates('preview-pr-9').join(', ')}; #9's comment ${previewComment(9)?.body.includes('preview retired') ? 'rewritten' : 'NOT rewritten'}; delete my-agent-pr-9 at ${ninthDashboard}`,
    `Act 9b: the second sweep: retired=${ninthAgain.outputs.retired}, ${againWrites} GitHub writes`,
    tenthRecap,
    `Act 11: live=${eleventh.outputs.live}, healthy=${eleventh.outputs.healthy}, health-status=${eleventh.outputs['health-status']} after ${addressAnswers.filter((r) => r.status === 503).length} answers 503 while the agent started`,
  ].join('\n'),
);
const exits = [
  first,
  second,
  third,
  dockerFirst,
  fourth,
  status,
  fifth,
  sixth,
  seventh,
  eighth,
  ninth,
  ninthAgain,
  eleventh,
].map((run) => run.exitCode);
// Green means the pushed commit is live; the second docker image fails, as it must; the sweep
// retires only the preview whose close was missed, and its second run writes nothing.
const honest =
  sweepHolds &&
  agentsHold &&
  recapHolds &&
  answeringHolds &&
  first.outputs['commit-sha'] === FIRST &&
  second.outputs['commit-sha'] === SECOND &&
  dockerSecond.exitCode === 1 &&
  dockerSecond.outputs.live === 'false';
process.exitCode = honest && exits.every((code) => code === 0) ? 0 : 1;
