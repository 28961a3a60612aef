/**
 * "Never two deployments from one name", judged by what the service stored:
 * how many deployments each name has, and the expectation that each of the
 * names has exactly one (and no other name any).
 */
import { expect } from 'vitest';

/** How many stored deployments each name has. */
export function deploymentsPerName(emu: {
  deployments: readonly { name: string }[];
}): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { name } of emu.deployments) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

/** Exactly one stored deployment for each of `names`, and none of any other name. */
export function expectOnePerName(
  emu: { deployments: readonly { name: string }[] },
  names: readonly string[],
): void {
  expect(deploymentsPerName(emu)).toEqual(Object.fromEntries(names.map((name) => [name, 1])));
}
