/**
 * vitest global setup: the end-to-end tests run dist/index.js, so it is rebuilt
 * first when any file under src/ is newer (`npx vitest` is then as safe as `npm test`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './action.ts';

function newestUnder(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

export default function setup(): void {
  const bundle = path.join(ROOT, 'dist', 'index.js');
  const stale =
    !existsSync(bundle) ||
    newestUnder(path.join(ROOT, 'src')) > statSync(bundle).mtimeMs ||
    statSync(path.join(ROOT, 'package-lock.json')).mtimeMs > statSync(bundle).mtimeMs;
  if (!stale) return;
  console.log('dist/index.js is older than src/: rebuilding it (npm run build)');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
