/**
 * `npm run demo`: starts the emulator of the service, runs the bundled action
 * against it as a workflow step would (codehost, secrets, wait-for-ready),
 * then prints the step's outputs and job summary.
 */
import { startEmulator } from './emulator.ts';
import { WORKFLOW_REPOSITORY } from './support/action.ts';
import { startAction } from './support/run-action.ts';

const INTEGRATION = '3f2b8a1e-6c4d-4e5f-8a9b-0c1d2e3f4a5b';
const API_KEY = 'demo-api-key-0123456789';

const emu = await startEmulator({ apiKey: API_KEY, readyAfterMs: 2_500 });
const [owner, name] = WORKFLOW_REPOSITORY.split('/');
emu.seedRepos(INTEGRATION, [
  { owner, name, default_branch: 'main', url: `https://github.com/${WORKFLOW_REPOSITORY}` },
  { owner, name: 'website' },
]);
emu.seedDeployments(3, (i) => ({ name: `my-agent-preview-${i}` }));

const inputs = {
  'api-url': emu.url,
  'api-key': API_KEY,
  name: 'my-agent',
  'integration-id': INTEGRATION,
  'agent-config-path': 'agent.json',
  secrets: 'OPENAI_API_KEY=sk-demo-not-a-real-key\nDATABASE_URL=postgres://demo:demo@db/agent',
  'wait-for-ready': 'true',
  'wait-timeout': '60',
};

console.log(`Emulator of the service listening at ${emu.url}`);
console.log(
  `Running dist/index.js under Node 24 with:\n${JSON.stringify({ ...inputs, 'api-key': '(set)', secrets: '(2 secrets)' }, null, 2)}\n`,
);
console.log('─'.repeat(30), 'step log', '─'.repeat(30));
const started = startAction(inputs);
started.child.stdout?.on('data', (chunk: string) => process.stdout.write(chunk));
started.child.stderr?.on('data', (chunk: string) => process.stderr.write(chunk));
const run = await started.finished;
await emu.close();

console.log('─'.repeat(30), 'outputs', '─'.repeat(31));
for (const [key, value] of Object.entries(run.outputs)) console.log(`${key}: ${value}`);
console.log('─'.repeat(30), 'job summary (HTML)', '─'.repeat(20));
console.log(run.summary.trim());
console.log('─'.repeat(70));
console.log(
  `${run.exitCode === 0 ? 'Succeeded' : `Failed (exit ${run.exitCode})`}: ${emu.requests.length} requests to the emulator: ${emu.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`,
);
process.exitCode = run.exitCode ?? 1;
