/**
 * The ids tests, the demo and the bench share. No imports: the emulator's
 * command (test/emulator/emulator-cli.ts) reads them too.
 */

/** The integration the emulator lists repositories for (the CI self-test names it too). */
export const INTEGRATION = '3f2b8a1e-6c4d-4e5f-8a9b-0c1d2e3f4a5b';
export const DEPLOYMENT_ID = '6a1f0a5e-8f6e-4b1e-9a52-1d0f3c7b2e11';
export const TENANT_ID = '7e4a1c2b-5d3f-4a6e-9b8c-0d1e2f3a4b5c';
export const REVISION_A = '11111111-1111-4111-8111-111111111111';
export const REVISION_B = '22222222-2222-4222-8222-222222222222';
/** The commit of a deployment's latest revision, unless a test sets another. */
export const OLD_SHA = 'a'.repeat(40);
