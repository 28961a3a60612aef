/**
 * Property-based tests of the inputs (README, "Inputs"): integration-id: only a uuid reaches the path.
 * Shared arbitraries and helpers: test/support/property-inputs.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/inputs/errors.ts';
import { UUID, attempt, rejectedInputs, anyText } from '../support/property-inputs.ts';

/** uuids, bent: what a path traversal or a copy-paste slip would give. */
const bentUuid = fc
  .tuple(
    fc.uuid(),
    fc.constantFrom(
      '',
      '/',
      '../',
      '%2F',
      '?x=1',
      '#',
      '{',
      ' ',
      '\n',
      '\u0000',
      'x',
      '0',
      '-',
      '/repos',
    ),
    fc.constantFrom(
      '',
      '/',
      '/..',
      '%2F..',
      '?x=1',
      '#',
      '}',
      '\n',
      'x',
      '0',
      '-',
      '/../../v2/deployments',
    ),
    fc.constantFrom('same', 'upper', 'no-dashes', 'braces', 'g'),
  )
  .map(([uuid, prefix, suffix, bend]) => {
    const bent =
      bend === 'upper'
        ? uuid.toUpperCase()
        : bend === 'no-dashes'
          ? uuid.replace(/-/g, '')
          : bend === 'braces'
            ? `{${uuid}}`
            : bend === 'g'
              ? uuid.replace(/[a-f]/, 'g')
              : uuid;
    return `${prefix}${bent}${suffix}`;
  });

const integrationIdText = fc.oneof(bentUuid, anyText, fc.uuid());

describe('integration-id', () => {
  it('only a uuid reaches the plan of a codehost step, from the input', () => {
    fc.assert(
      fc.property(integrationIdText, (text) => {
        const outcome = attempt({ 'integration-id': text });
        if (outcome.spec !== undefined) {
          expect(outcome.spec.source).toBe('codehost');
          if (outcome.spec.source === 'codehost') {
            expect(outcome.spec.integrationId).toMatch(UUID);
            expect(encodeURIComponent(outcome.spec.integrationId)).toBe(outcome.spec.integrationId);
          }
        } else {
          expect(rejectedInputs({ 'integration-id': text })).toEqual(['integration-id']);
          expect(text.trim()).not.toMatch(UUID);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('only a uuid reaches the plan of a codehost step, from config', () => {
    fc.assert(
      fc.property(integrationIdText, fc.constantFrom('json', 'yaml'), (text, format) => {
        const config =
          format === 'json'
            ? JSON.stringify({ source_config: { integration_id: text } })
            : `source_config:\n  integration_id: ${text}`;
        const outcome = attempt({ 'integration-id': '', config });
        if (outcome.spec !== undefined) {
          expect(outcome.spec.source).toBe('codehost');
          if (outcome.spec.source === 'codehost') {
            expect(outcome.spec.integrationId).toMatch(UUID);
            expect(outcome.spec.sourceConfig.integration_id).toBe(outcome.spec.integrationId);
          }
        } else {
          expect(outcome.error).toBeInstanceOf(InputError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------
// 6. Names with URL-significant characters, against the emulator
// ---------------------------------------------------------------------------
