/**
 * The import rules of src/ (CONTRIBUTING.md, "Layout"), checked by `npm run lint`
 * (`depcruise src`). Type-only imports count: a cycle through types is still a cycle
 * a reader has to untangle.
 *
 * - No import cycle anywhere in src/.
 * - Imports run one way between the folders: common ← service ← inputs ← run ← views ←
 *   github, cli; the entries at the top import anything, nothing imports them.
 * - run/ in layers: ports (what a runner gives the core and gets back) import nothing
 *   of decisions/ or flows/; decisions import ports and other decisions, never flows.
 * - github/ in layers: client/ (the HTTP client: calls, routes, the answers' schemas, the
 *   budget, the api) imports nothing of features/ or of the wiring at the top of github/
 *   (the step, the event, the inputs, each entry's hooks); features/ (the record, the
 *   comments, the retirement, the pull requests' states) import the client, never the wiring.
 * - Only src/github/ knows @actions/*; the two adapters, github/ and cli/, never import
 *   each other. (That only the adapters read process.env is no import:
 *   test/repo/layout.test.ts checks it.)
 */

/** A rule that files under `from` import nothing under `to`. */
const never = (name, comment, from, to) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to },
});

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle, type-only imports included: move the shared type down a layer.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve: every other rule would miss it.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
    never(
      'entries-on-top',
      'The entries at the top of src/ (main.ts, plan.ts, ...) wire; nothing imports them.',
      '^src/[^/]+/',
      '^src/[^/]+[.]ts$',
    ),
    never(
      'common-imports-nothing',
      'common/ is the bottom: it imports no other folder of src/.',
      '^src/common/',
      '^src/(service|inputs|run|views|github|cli)/',
    ),
    never(
      'service-below-inputs',
      'service/ imports only common/.',
      '^src/service/',
      '^src/(inputs|run|views|github|cli)/',
    ),
    never(
      'inputs-below-run',
      'inputs/ imports only common/ and service/.',
      '^src/inputs/',
      '^src/(run|views|github|cli)/',
    ),
    never(
      'run-below-adapters',
      'The core (run/) never imports an adapter, nor the views: what it needs from one comes in RunnerIO, and it says what happened (a RunSummary), not how it reads.',
      '^src/run/',
      '^src/(views|github|cli)/',
    ),
    never(
      'views-below-adapters',
      'views/ (how a summary reads) imports common/, service/, inputs/ and run/ only; the adapters import it.',
      '^src/views/',
      '^src/(github|cli)/',
    ),
    never(
      'run-ports-at-the-bottom',
      'run/ports/ is what a runner implements and receives: it imports none of the decisions or flows that use it.',
      '^src/run/ports/',
      '^src/run/(decisions|flows)/',
    ),
    never(
      'run-decisions-below-flows',
      'run/decisions/ import ports and other decisions, never a flow.',
      '^src/run/decisions/',
      '^src/run/flows/',
    ),
    never(
      'github-client-at-the-bottom',
      'github/client/ is the HTTP client: it imports none of the features or the wiring that use it.',
      '^src/github/client/',
      '^src/github/(features/|[^/]+[.]ts$)',
    ),
    never(
      'github-features-below-wiring',
      'github/features/ use the client; the wiring at the top of github/ (step, event, inputs, hooks) uses them, never the other way round.',
      '^src/github/features/',
      '^src/github/[^/]+[.]ts$',
    ),
    never(
      'github-apart-from-cli',
      'The action and the command know nothing of each other.',
      '^src/github/',
      '^src/cli/',
    ),
    never(
      'cli-apart-from-github',
      'The action and the command know nothing of each other.',
      '^src/cli/',
      '^src/github/',
    ),
    {
      name: 'actions-only-in-github',
      comment:
        'Only src/github/ knows the runner: @actions/* stays out of the core, the entries and the command (which runs where there is no runner).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/github/' },
      to: { path: '(^|/)node_modules/@actions/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too (`import type`, `type X` in an import).
    tsPreCompilationDeps: true,
    // src/ spells its imports `./x.js` for the file x.ts: with the tsconfig, dependency-cruiser
    // resolves such a `.js` to the `.ts` beside it (the `not-to-unresolvable` rule proves it does).
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.json'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
