/**
 * The service's enums (`status`, `deployment_type`) are known lists, not walls: an unknown
 * value is passed on with one warning, and the service decides.
 */
import { untrusted } from '../common/runtime.js';

export function unknownValueWarning(
  what: string,
  value: string | null | undefined,
  known: readonly string[],
): string | undefined {
  if (value === undefined || value === null || known.includes(value)) return undefined;
  return `${what} '${untrusted(value)}' is not one this release knows (${known.join(', ')}): it is passed on as it is, and the service decides`;
}
