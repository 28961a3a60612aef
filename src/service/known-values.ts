/**
 * The service's enums (`status`, `source_config.deployment_type`)
 * are known lists, not walls. A value the action does not know is passed on
 * with one warning naming the known ones, and the service decides; a value
 * of the wrong type is still an input error (the schemas say so).
 */
import { untrusted } from '../common/runtime.js';

/** The one warning for a value of `what` (`deployment_type`, `--status`) not in `known`; undefined for a known one or none. */
export function unknownValueWarning(
  what: string,
  value: string | null | undefined,
  known: readonly string[],
): string | undefined {
  if (value === undefined || value === null || known.includes(value)) return undefined;
  return `${what} '${untrusted(value)}' is not one this release knows (${known.join(', ')}): it is passed on as it is, and the service decides`;
}
