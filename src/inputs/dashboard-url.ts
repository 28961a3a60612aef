import { fail } from './errors.js';
import { parseWebAddress } from './parsers.js';

const PLACEHOLDERS = ['id', 'tenant_id', 'name'] as const;
type Placeholder = (typeof PLACEHOLDERS)[number];

/** `{…}` with no brace inside: linear, one pass. */
const PLACEHOLDER = /\{([^{}]*)\}/g;

function isPlaceholder(name: string): name is Placeholder {
  return (PLACEHOLDERS as readonly string[]).includes(name);
}

/** Each placeholder's value URL-encoded. */
export function fillDashboardUrl(template: string, values: Record<Placeholder, string>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    isPlaceholder(name) ? encodeURIComponent(values[name]) : whole,
  );
}

export function parseDashboardUrl(raw: string): string {
  for (const [, name = ''] of raw.matchAll(PLACEHOLDER)) {
    if (!isPlaceholder(name)) {
      fail(
        `has an unknown placeholder {${name}}: the placeholders are {id}, {tenant_id} and {name}`,
      );
    }
  }
  const sample = fillDashboardUrl(raw, { id: 'id', tenant_id: 'tenant', name: 'name' });
  if (sample.includes('{') || sample.includes('}')) {
    fail('has a { or } outside a placeholder: the placeholders are {id}, {tenant_id} and {name}');
  }
  parseWebAddress(sample, {
    example: 'https://console.example/deployments/{id}',
    credentials: 'the address is printed and written to the outputs',
  });
  return raw;
}
