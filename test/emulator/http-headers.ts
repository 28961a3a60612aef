/**
 * Request and answer headers as both emulator servers (the service's, the deployments'
 * addresses) record and send them: names lower-cased, a repeated header joined.
 */
import type { IncomingMessage } from 'node:http';

export function lowerKeys(headers: Record<string, string>): Record<string, string> {
  const lowered: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) lowered[name.toLowerCase()] = value;
  return lowered;
}

export function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
